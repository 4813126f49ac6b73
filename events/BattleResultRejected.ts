import { Type } from "@sinclair/typebox";
import { Id } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** The opponent rejected a reported result; it may be reported again. */
export const BattleResultRejected = defineEvent(
  "BattleResultRejected",
  1,
  Type.Object({ turn: Type.Integer({ minimum: 1 }), battle: Id, by: Id }, { additionalProperties: false }),
);
export type BattleResultRejected = DataOf<typeof BattleResultRejected>;
