import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { PartyKeeper, type PartySecrets } from "../client/party-secrets.js";
import type { SealedTexts } from "../log/index.js";

/*
 * The host's secrets of a line (its dice seeds, its signing key) kept in the shared database, sealed with AES-256-GCM
 * under a key every instance holds and the database never does (docs/scaling.md, "Every instance is alike"): whoever
 * reads the database alone cannot read a die before it is rolled, nor sign as the host. Each sealed text names the line
 * and party it is for (as the cipher's additional data), so that no row can be passed off as another's.
 */

const ALGORITHM = "aes-256-gcm";
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The form of a sealed text: its version, then the IV, the tag and the ciphertext, base64url. */
const SEALED_PREFIX = "v1.";

/** The secrets key cannot be read, is not a key, or does not open what the database holds. */
export class SealedSecretsError extends Error {
  override readonly name = "SealedSecretsError";
}

/**
 * The secrets key from its file: 32 random bytes, written as 64 hex digits or as base64 (`openssl rand -hex 32`).
 */
export async function readSecretsKey(path: string): Promise<Buffer> {
  let text: string;
  try {
    text = (await readFile(path, "utf8")).trim();
  } catch (error) {
    throw new SealedSecretsError(`cannot read the secrets key file ${path}: ${(error as Error).message}`);
  }
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64");
  if (key.length !== KEY_BYTES)
    throw new SealedSecretsError(
      `${path} holds no secrets key: it must hold 32 random bytes as 64 hex digits or as base64 (openssl rand -hex 32 > ${path})`,
    );
  return key;
}

/** A party's secrets of one line, kept sealed in the shared log's sealed texts. */
export class SealedSecrets extends PartyKeeper {
  constructor(
    private readonly texts: SealedTexts,
    private readonly key: Buffer,
    private readonly stream: string,
  ) {
    super();
  }

  protected async read(party: string): Promise<PartySecrets> {
    const sealed = await this.texts.read(this.stream, party);
    return sealed === undefined ? {} : this.open(party, sealed);
  }

  protected async update(party: string, change: (secrets: PartySecrets) => void): Promise<void> {
    await this.texts.update(this.stream, party, (sealed) => {
      const secrets = sealed === undefined ? {} : this.open(party, sealed);
      change(secrets);
      return this.seal(party, secrets);
    });
  }

  private seal(party: string, secrets: PartySecrets): string {
    return sealText(this.key, [this.stream, party], JSON.stringify(secrets));
  }

  private open(party: string, sealed: string): PartySecrets {
    const text = openText(this.key, [this.stream, party], sealed);
    if (text === undefined)
      throw new SealedSecretsError(
        `${party}'s secrets of ${this.stream} in the database do not open with this secrets key: every instance must be given the same key (docs/scaling.md)`,
      );
    return JSON.parse(text) as PartySecrets;
  }
}

/** A text sealed under the key for what `boundTo` names (the cipher's additional data): no other name opens it. */
export function sealText(key: Buffer, boundTo: readonly string[], text: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  cipher.setAAD(Buffer.from(JSON.stringify(boundTo), "utf8"));
  const body = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

/** The text sealed for `boundTo` under the key, or undefined where it does not open (another key, another name). */
export function openText(key: Buffer, boundTo: readonly string[], sealed: string): string | undefined {
  const bytes = Buffer.from(sealed.slice(SEALED_PREFIX.length), "base64url");
  if (!sealed.startsWith(SEALED_PREFIX) || bytes.length < IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv(ALGORITHM, key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(JSON.stringify(boundTo), "utf8"));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}
