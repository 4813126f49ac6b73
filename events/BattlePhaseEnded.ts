import { Type } from "@sinclair/typebox";
import { defineEvent, type DataOf } from "./define.js";

/** Every battle of the turn has a result; the End phase begins (T1). */
export const BattlePhaseEnded = defineEvent(
  "BattlePhaseEnded",
  1,
  Type.Object({ turn: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
);
export type BattlePhaseEnded = DataOf<typeof BattlePhaseEnded>;
