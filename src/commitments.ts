import type { Order } from "../events/common.js";
import { canonicalJson, sha256Hex } from "./log/hash.js";

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
  return sha256Hex(canonicalJson({ campaign, turn, army, order, salt }));
}

/** The commitment to a dice seed of a turn, the host's or a player's (D1). */
export function seedCommitment(seed: string): string {
  return sha256Hex(seed);
}
