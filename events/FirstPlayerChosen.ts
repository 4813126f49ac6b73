import { Type } from "@sinclair/typebox";
import { Id } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** The initiative winner chose who activates first (T2). */
export const FirstPlayerChosen = defineEvent(
  "FirstPlayerChosen",
  1,
  Type.Object({ turn: Type.Integer({ minimum: 1 }), chosenBy: Id, first: Id }, { additionalProperties: false }),
);
export type FirstPlayerChosen = DataOf<typeof FirstPlayerChosen>;
