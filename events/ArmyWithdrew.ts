import { Type } from "@sinclair/typebox";
import { Id, Square } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** After a drawn battle the attacker went back to the square it came from (B5 ruling). */
export const ArmyWithdrew = defineEvent(
  "ArmyWithdrew",
  1,
  Type.Object(
    { turn: Type.Integer({ minimum: 1 }), army: Id, battle: Id, to: Square },
    { additionalProperties: false },
  ),
);
export type ArmyWithdrew = DataOf<typeof ArmyWithdrew>;
