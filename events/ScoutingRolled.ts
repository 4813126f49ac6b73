import { Type } from "@sinclair/typebox";
import { Id } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

const TwoDice = Type.Tuple([Type.Integer({ minimum: 1, maximum: 6 }), Type.Integer({ minimum: 1, maximum: 6 })]);

/** A3 scouting bands, from the scout's best to the scouted army's best. */
export const ScoutingBand = Type.Union([
  Type.Literal("scoutTriple"),
  Type.Literal("scoutDouble"),
  Type.Literal("scoutWins"),
  Type.Literal("scoutedWins"),
  Type.Literal("scoutedDouble"),
  Type.Literal("scoutedTriple"),
]);

/**
 * A3, D1: both sides rolled 2D6 for a scouting, ties (of the totals with bonuses) rerolled. Round r uses dice
 * firstDie + 4r (scout's two) and + 4r + 2 (the scouted army's two) of the turn.
 */
export const ScoutingRolled = defineEvent(
  "ScoutingRolled",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      scouting: Id,
      firstDie: Type.Integer({ minimum: 0 }),
      rounds: Type.Array(Type.Object({ scout: TwoDice, scouted: TwoDice }, { additionalProperties: false }), {
        minItems: 1,
        maxItems: 100,
      }),
      /** The last round's totals with bonuses. */
      scoutTotal: Type.Integer({ minimum: 2, maximum: 14 }),
      scoutedTotal: Type.Integer({ minimum: 2, maximum: 14 }),
      band: ScoutingBand,
    },
    { additionalProperties: false },
  ),
);
export type ScoutingRolled = DataOf<typeof ScoutingRolled>;
