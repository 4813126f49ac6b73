import { bytesToHex } from "@noble/hashes/utils.js";
import canonicalizeModule from "canonicalize";
import type { Order } from "../../events/common.js";
import { sha256Hex } from "./hashes.js";

/*
 * What a player's client computes and checks, so that the same module runs in Node and in a browser: Web Crypto's
 * digests are missing on a plain-HTTP page served from another machine, and node:crypto is missing in every browser.
 * Only @noble/hashes and canonicalize are imported here, and nothing with a node: import
 * (test/commitments-portable.test.ts bundles it for the browser to hold it so); in Node the hashes are Node's own,
 * found at run time (src/crypto/hashes.ts). The log's own chain keeps node:crypto (src/log/hash.ts), which runs only where
 * the log is.
 */

// The package is CommonJS with an ES-style default export in its typings.
const canonicalize = canonicalizeModule as unknown as (input: unknown) => string | undefined;

/** RFC 8785 canonical JSON text of a value. */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError("value has no JSON representation");
  return text;
}

/** SHA-256 of a text's UTF-8 bytes, as 64 hex characters. */
export function digestHex(text: string): string {
  return sha256Hex(text);
}

/** `bytes` random bytes as hex, from the platform's cryptographic generator (there on plain-HTTP pages too). */
export function randomHex(bytes: number): string {
  return bytesToHex(globalThis.crypto.getRandomValues(new Uint8Array(bytes)));
}

/** What a hidden order commits to: the order bound to its campaign, turn and army, blinded by a secret salt (T5). */
export interface OrderSecret {
  campaign: string;
  turn: number;
  army: string;
  order: Order;
  /** At least 128 random bits, hex. */
  salt: string;
}

/** SHA-256 over the canonical JSON of campaign, turn, army, order and salt. */
export function orderCommitment(secret: OrderSecret): string {
  const { campaign, turn, army, order, salt } = secret;
  return digestHex(canonicalJson({ campaign, turn, army, order, salt }));
}

/** The commitment to a dice seed of a turn, the host's or a player's (D1). */
export function seedCommitment(seed: string): string {
  return digestHex(seed);
}
