import { Type } from "@sinclair/typebox";
import { BattleResult, Id } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A player of the battle entered its result (B4); the opponent confirms or rejects it. */
export const BattleResultReported = defineEvent(
  "BattleResultReported",
  1,
  Type.Object(
    { turn: Type.Integer({ minimum: 1 }), battle: Id, by: Id, result: BattleResult },
    { additionalProperties: false },
  ),
);
export type BattleResultReported = DataOf<typeof BattleResultReported>;
