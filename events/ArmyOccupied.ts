import { Type } from "@sinclair/typebox";
import { Id, Square } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A winning attacker occupied the battle's square (B5). */
export const ArmyOccupied = defineEvent(
  "ArmyOccupied",
  1,
  Type.Object(
    { turn: Type.Integer({ minimum: 1 }), army: Id, battle: Id, at: Square },
    { additionalProperties: false },
  ),
);
export type ArmyOccupied = DataOf<typeof ArmyOccupied>;
