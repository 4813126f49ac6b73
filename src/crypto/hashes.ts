import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

/*
 * SHA-256 and HMAC-SHA-256 of texts (as UTF-8) for the commitments and the dice (src/crypto/commitments.ts, src/crypto/dice.ts).
 * In a browser, pure JavaScript (@noble/hashes): Web Crypto's digests are asynchronous and missing on a plain-HTTP page
 * served from another machine. In Node, Node's own, which give the same bytes several times faster (a simulated
 * forecast hashes dozens of commitments and dice a turn): looked up at run time with process.getBuiltinModule, not
 * imported, so that this module still bundles for a browser with nothing of Node in it.
 */

interface NodeHashing {
  createHash(algorithm: "sha256"): { update(text: string, encoding: "utf8"): { digest(encoding: "hex"): string } };
  createHmac(algorithm: "sha256", key: string): { update(text: string, encoding: "utf8"): { digest(): Uint8Array } };
}

const node = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(
  "crypto",
) as NodeHashing | undefined;

/** SHA-256 of a text's UTF-8 bytes as 64 hex characters, in pure JavaScript (what a browser runs). */
export const portableSha256Hex = (text: string): string => bytesToHex(sha256(utf8ToBytes(text)));

/** HMAC-SHA-256 of a text keyed by a text (both as UTF-8), in pure JavaScript (what a browser runs). */
export const portableHmacSha256 = (key: string, message: string): Uint8Array =>
  hmac(sha256, utf8ToBytes(key), utf8ToBytes(message));

/** SHA-256 of a text's UTF-8 bytes, as 64 hex characters. */
export const sha256Hex: (text: string) => string = node
  ? (text) => node.createHash("sha256").update(text, "utf8").digest("hex")
  : portableSha256Hex;

/** HMAC-SHA-256 of a text keyed by a text (both as UTF-8): 32 bytes. */
export const hmacSha256: (key: string, message: string) => Uint8Array = node
  ? (key, message) => node.createHmac("sha256", key).update(message, "utf8").digest()
  : portableHmacSha256;
