import { Type } from "@sinclair/typebox";
import { Id } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** K3: a player records that a battle turn ended at the table: under Gravity Flux the host rolls again for the next. */
export const BattleTurnEnded = defineEvent(
  "BattleTurnEnded",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      battle: Id,
      player: Id,
      battleTurn: Type.Integer({ minimum: 1, maximum: 99 }),
    },
    { additionalProperties: false },
  ),
);
export type BattleTurnEnded = DataOf<typeof BattleTurnEnded>;
