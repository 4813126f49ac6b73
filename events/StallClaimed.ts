import { Type } from "@sinclair/typebox";
import { Id } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** What a stalled Action phase waits on: an attacked army's order not given, or a battle's order not revealed (T5). */
export const OwedItem = Type.Object(
  {
    army: Id,
    player: Id,
    owes: Type.Union([Type.Literal("order"), Type.Literal("reveal")]),
    battle: Id,
  },
  { additionalProperties: false },
);

/**
 * T5 stall ruling: a player who owes nothing shows that the Action phase waits on what the other owes; from then on
 * the host may close the phase (CloseActionPhase) while those items are still owed.
 */
export const StallClaimed = defineEvent(
  "StallClaimed",
  1,
  Type.Object(
    { turn: Type.Integer({ minimum: 1 }), by: Id, owed: Type.Array(OwedItem, { minItems: 1 }) },
    { additionalProperties: false },
  ),
);
export type StallClaimed = DataOf<typeof StallClaimed>;
