import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { replaceDurably } from "../client/secrets.js";
import { nodeSigner } from "../crypto/sign-node.js";
import { newSeatKey, type SeatKey } from "../crypto/signatures.js";
import { receiptText, type Receipt, type ReceiptText } from "../crypto/receipts.js";

/** The server's own Ed25519 key (docs/signatures.md, Receipts): it signs every answer to a command. */
export interface ServerKey {
  readonly publicKey: string;
  /** The signature (hex) of the server's key over a text's UTF-8 bytes. */
  readonly sign: (text: string) => string;
}

/** The file the server keeps its key in, in the host's secrets folder (mode 0600, like every secret). */
export const SERVER_KEY_FILE = "server-key.json";

/**
 * The server's key, kept in its secrets folder: the one made by an earlier start, or a new one from the platform's
 * generator, written durably before the server answers anything. Servers that share a secrets folder share the key.
 */
export async function loadServerKey(secretsDir: string): Promise<ServerKey> {
  const path = join(secretsDir, SERVER_KEY_FILE);
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  let key: SeatKey;
  if (text === undefined) {
    key = await newSeatKey();
    await mkdir(secretsDir, { recursive: true, mode: 0o700 });
    await replaceDurably(secretsDir, path, `${JSON.stringify(key, null, 2)}\n`);
  } else {
    key = JSON.parse(text) as SeatKey;
    if (!/^[0-9a-f]{64}$/.test(key.publicKey ?? "") || !/^[0-9a-f]{64}$/.test(key.privateKey ?? ""))
      throw new Error(`${path} is not a server key ({"publicKey": 64 hex, "privateKey": 64 hex})`);
  }
  return { publicKey: key.publicKey, sign: nodeSigner(key) };
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
