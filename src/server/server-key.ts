import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { replaceDurably } from "../client/secrets.js";
import { nodeSigner } from "../crypto/sign-node.js";
import { newSeatKey, type SeatKey } from "../crypto/signatures.js";
import type { SealedTexts } from "../log/index.js";
import { openText, sealText, SealedSecretsError } from "./sealed-secrets.js";
import { receiptText, type Receipt, type ReceiptText } from "../crypto/receipts.js";

/** The server's own Ed25519 key (docs/signatures.md, Receipts): it signs every answer to a command. */
export interface ServerKey {
  readonly publicKey: string;
  /** The signature (hex) of the server's key over a text's UTF-8 bytes. */
  readonly sign: (text: string) => string;
}

/** The file the server keeps its key in, in the host's secrets folder (mode 0600, like every secret). */
export const SERVER_KEY_FILE = "server-key.json";

/** The server key kept in a secrets folder, or undefined where there is none yet. */
async function readServerKeyFile(secretsDir: string): Promise<SeatKey | undefined> {
  const path = join(secretsDir, SERVER_KEY_FILE);
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  return text === undefined ? undefined : parsedKey(text, path);
}

/** A server key's JSON, checked: `{"publicKey": 64 hex, "privateKey": 64 hex}`. */
function parsedKey(text: string, where: string): SeatKey {
  const key = JSON.parse(text) as SeatKey;
  if (!/^[0-9a-f]{64}$/.test(key.publicKey ?? "") || !/^[0-9a-f]{64}$/.test(key.privateKey ?? ""))
    throw new Error(`${where} is not a server key ({"publicKey": 64 hex, "privateKey": 64 hex})`);
  return key;
}

const serverKeyOf = (key: SeatKey): ServerKey => ({ publicKey: key.publicKey, sign: nodeSigner(key) });

/**
 * The server's key, kept in its secrets folder: the one made by an earlier start, or a new one from the platform's
 * generator, written durably before the server answers anything. Servers that share a secrets folder share the key.
 */
export async function loadServerKey(secretsDir: string): Promise<ServerKey> {
  const kept = await readServerKeyFile(secretsDir);
  if (kept) return serverKeyOf(kept);
  const key = await newSeatKey();
  await mkdir(secretsDir, { recursive: true, mode: 0o700 });
  await replaceDurably(secretsDir, join(secretsDir, SERVER_KEY_FILE), `${JSON.stringify(key, null, 2)}\n`);
  return serverKeyOf(key);
}

/** Where the servers of one database keep their one key, sealed: no line's stream has a space in its name. */
const SHARED_KEY = ["epicwar servers", "server-key"] as const;

/**
 * The one key of every server on a shared database (docs/scaling.md, "Every instance is alike"), kept in it sealed
 * with the secrets key, so that a receipt verifies whichever instance answered. The first server to start with the
 * key puts its own there (its secrets folder's, so that the receipts its clients pinned still verify; else a new one).
 */
export async function loadSharedServerKey(
  texts: SealedTexts,
  secretsKey: Buffer,
  secretsDir: string,
): Promise<ServerKey> {
  const offered = (await readServerKeyFile(secretsDir)) ?? (await newSeatKey());
  await texts.update(...SHARED_KEY, (sealed) => sealed ?? sealText(secretsKey, SHARED_KEY, JSON.stringify(offered)));
  const sealed = await texts.read(...SHARED_KEY);
  const text = sealed === undefined ? undefined : openText(secretsKey, SHARED_KEY, sealed);
  if (text === undefined)
    throw new SealedSecretsError(
      "the servers' key in the database does not open with this secrets key: every instance must be given the same key (docs/scaling.md)",
    );
  return serverKeyOf(parsedKey(text, "the servers' key in the database"));
}

/** `GET /server-key`: the server's public key, which any caller may read (a client pins it before its first command). */
export function serverKeyRoute(app: FastifyInstance, key: ServerKey): void {
  app.get("/server-key", { config: { public: true } }, () => ({ publicKey: key.publicKey }));
}

/** A receipt signed by the server's key (docs/signatures.md, Receipts). */
export function signReceipt(key: ServerKey, text: Omit<ReceiptText, "domain">): Receipt {
  const signed = receiptText(text);
  return { signed, signature: key.sign(signed) };
}
