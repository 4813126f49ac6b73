import { Type } from "@sinclair/typebox";
import { Id } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/**
 * Every army was activated and the orders revealed (T5), or the host closed a claimed stall: `withheld` lists the
 * armies whose order was never revealed or never given, `notActivated` the armies the stall kept from activating.
 */
export const ActionPhaseEnded = defineEvent(
  "ActionPhaseEnded",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      withheld: Type.Array(Id),
      notActivated: Type.Optional(Type.Array(Id, { minItems: 1 })),
    },
    { additionalProperties: false },
  ),
);
export type ActionPhaseEnded = DataOf<typeof ActionPhaseEnded>;
