import { Type } from "@sinclair/typebox";
import { Id } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** Every army was activated and the orders revealed (T5); armies whose owners withheld a reveal are listed. */
export const ActionPhaseEnded = defineEvent("ActionPhaseEnded", 1, Type.Object({ turn: Type.Integer({ minimum: 1 }), withheld: Type.Array(Id) }, { additionalProperties: false }));
export type ActionPhaseEnded = DataOf<typeof ActionPhaseEnded>;
