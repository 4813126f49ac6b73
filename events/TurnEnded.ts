import { Type } from "@sinclair/typebox";
import { IdRecord, Nonce } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** The turn is over; the host revealed its dice seed so every roll of the turn can be recomputed (D1). */
export const TurnEnded = defineEvent(
  "TurnEnded",
  1,
  Type.Object(
    { turn: Type.Integer({ minimum: 1 }), hostSeed: Nonce, cvps: IdRecord(Type.Integer({ minimum: 0 })) },
    { additionalProperties: false },
  ),
);
export type TurnEnded = DataOf<typeof TurnEnded>;
