import { Type } from "@sinclair/typebox";
import { Id } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A player is done with the End phase's roster management. */
export const EndPhaseFinished = defineEvent(
  "EndPhaseFinished",
  1,
  Type.Object({ turn: Type.Integer({ minimum: 1 }), player: Id }, { additionalProperties: false }),
);
export type EndPhaseFinished = DataOf<typeof EndPhaseFinished>;
