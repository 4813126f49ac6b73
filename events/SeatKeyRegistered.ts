import { Type } from "@sinclair/typebox";
import { defineEvent, type DataOf } from "./define.js";
import { Actor } from "./common.js";

/** An Ed25519 public key: 32 bytes as 64 lower-case hex characters. */
export const PublicKey = Type.String({ pattern: "^[0-9a-f]{64}$" });

/**
 * D2: a party's public key comes into force, in an event signed by that key. `replaces` names the key it takes over
 * from (a lost device, or someone else taking the seat): every seat is warned of it. null for the party's first key.
 */
export const SeatKeyRegistered = defineEvent(
  "SeatKeyRegistered",
  1,
  Type.Object(
    { party: Actor, publicKey: PublicKey, replaces: Type.Union([PublicKey, Type.Null()]) },
    { additionalProperties: false },
  ),
);
export type SeatKeyRegistered = DataOf<typeof SeatKeyRegistered>;
