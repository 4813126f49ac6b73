import { createPublicKey, verify, type KeyObject } from "node:crypto";

/*
 * Ed25519 verification where the log is (the engine, the server, the audit): node:crypto's, synchronous, with one
 * KeyObject kept per public key, so that checking a long log costs one verification per signed command.
 */

const keys = new Map<string, KeyObject | null>();

function keyObject(publicKey: string): KeyObject | null {
  let key = keys.get(publicKey);
  if (key === undefined) {
    try {
      const x = Buffer.from(publicKey, "hex").toString("base64url");
      key = /^[0-9a-f]{64}$/.test(publicKey)
        ? createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x }, format: "jwk" })
        : null;
    } catch {
      key = null;
    }
    keys.set(publicKey, key);
  }
  return key;
}

/** Whether `signature` (hex) is `publicKey`'s (hex) over a text's UTF-8 bytes. */
export function verifySignature(publicKey: string, text: string, signature: string): boolean {
  const key = keyObject(publicKey);
  if (!key || !/^[0-9a-f]{128}$/.test(signature)) return false;
  try {
    return verify(null, Buffer.from(text, "utf8"), key, Buffer.from(signature, "hex"));
  } catch {
    return false;
  }
}
