import { Type } from "@sinclair/typebox";
import { Id, Square } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/**
 * A8 ruling: an army captured a city square for its side, held like an objective (E1): by moving into or through it,
 * or by winning a battle on it (B6); it stays held when the army leaves, until an enemy army moves into or through it.
 * Written only when the campaign plays the war chest (A8), the one rule a held city counts for.
 */
export const CityCaptured = defineEvent(
  "CityCaptured",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      at: Square,
      by: Id,
      army: Id,
      how: Type.Union([Type.Literal("moved"), Type.Literal("battle")]),
    },
    { additionalProperties: false },
  ),
);
export type CityCaptured = DataOf<typeof CityCaptured>;
