import { Type } from "@sinclair/typebox";
import { Id, Square } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** An army on Fortify built defences at its square; they belong to the square (E3). */
export const DefencesBuilt = defineEvent(
  "DefencesBuilt",
  1,
  Type.Object(
    { turn: Type.Integer({ minimum: 1 }), at: Square, army: Id, player: Id, points: Type.Integer({ minimum: 1 }) },
    { additionalProperties: false },
  ),
);
export type DefencesBuilt = DataOf<typeof DefencesBuilt>;
