import { Type } from "@sinclair/typebox";
import { BattleResult, Id, IdRecord } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** Both players agreed a battle's result: losses, VPs and CVPs (B4-B6, S4). */
export const BattleResolved = defineEvent(
  "BattleResolved",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      battle: Id,
      result: BattleResult,
      /** The winner's side, or null for a draw. */
      winner: Type.Union([Id, Type.Null()]),
      overwhelming: Type.Boolean(),
      /** CVPs each player gained from this battle: VPs one for one plus the S4 award. */
      cvps: IdRecord(Type.Integer({ minimum: 0 })),
    },
    { additionalProperties: false },
  ),
);
export type BattleResolved = DataOf<typeof BattleResolved>;
