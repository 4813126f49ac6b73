import { Type } from "@sinclair/typebox";
import { Id, Square } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A move entered a square holding an enemy army: a battle there, the mover attacking (M3). */
export const BattleStarted = defineEvent(
  "BattleStarted",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      battle: Id,
      at: Square,
      attacker: Id,
      defender: Id,
      /** The square the attacker entered from (B5 draw ruling). */
      attackerFrom: Square,
    },
    { additionalProperties: false },
  ),
);
export type BattleStarted = DataOf<typeof BattleStarted>;
