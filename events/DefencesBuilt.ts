import { Type } from "@sinclair/typebox";
import { Id, Square } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/**
 * An army on Fortify built defences at its square; they belong to the square (E3). Written right after the reveal of
 * its Fortify order (the E3 ruling: built from the activation, made known by the reveal; a battle on the square not
 * yet fought takes them), or before `TurnEnded` when the campaign's `fortifyBuilds` option is `atEndPhase`.
 */
export const DefencesBuilt = defineEvent(
  "DefencesBuilt",
  1,
  Type.Object(
    { turn: Type.Integer({ minimum: 1 }), at: Square, army: Id, player: Id, points: Type.Integer({ minimum: 1 }) },
    { additionalProperties: false },
  ),
);
export type DefencesBuilt = DataOf<typeof DefencesBuilt>;
