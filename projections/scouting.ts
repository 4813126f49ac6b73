import type { Static } from "@sinclair/typebox";
import type { Order } from "../events/common.js";
import type { ScoutingBand } from "../events/ScoutingRolled.js";

/** A3 as data: the scouting record of a turn and its bands (the reducers of the scouting events: scouting-reducers.ts). */

export type ScoutingBandName = Static<typeof ScoutingBand>;

/** One scouting of the current turn, from declaration to the size stated. */
export interface ScoutingState {
  id: string;
  /** The scouting army and its player. */
  army: string;
  player: string;
  /** The scouted army and its player. */
  target: string;
  targetPlayer: string;
  /** Seq of the ScoutingDeclared event. */
  seq: number;
  scoutBonus: number;
  /** Null until the scouted player has answered. */
  scoutedBonus: number | null;
  /** Null until rolled. */
  band: ScoutingBandName | null;
  /** The size the scouted player stated; null until stated. */
  statedPoints: number | null;
}

/** An order made public before its army's activation (A3): the activation must carry this commitment. */
export interface PledgedOrder {
  order: Order;
  commitment: string;
  /** The salt that opens it: public with the order. */
  salt: string;
  /** Made public by a version 1 scouting event: its owner reveals it separately, as it was then played. */
  separateReveal?: true;
}

export interface TurnScouting {
  scoutings: Record<string, ScoutingState>;
  /** By army id. */
  pledges: Record<string, PledgedOrder>;
}

/** How far the stated size may lie from the true one, in points, for each band. */
export const BLUFF_MARGIN: Readonly<Record<ScoutingBandName, number>> = {
  scoutTriple: 0,
  scoutDouble: 0,
  scoutWins: 1000,
  scoutedWins: 2000,
  scoutedDouble: 3000,
  scoutedTriple: 4000,
};

/** A3: the band of two totals with bonuses; null for a tie, which is rerolled. */
export function scoutingBand(scout: number, scouted: number): ScoutingBandName | null {
  if (scout === scouted) return null;
  if (scout > scouted) {
    if (scout >= 3 * scouted) return "scoutTriple";
    if (scout >= 2 * scouted) return "scoutDouble";
    return "scoutWins";
  }
  if (scouted >= 3 * scout) return "scoutedTriple";
  if (scouted >= 2 * scout) return "scoutedDouble";
  return "scoutedWins";
}

/** The scouting of `target` by `army` this turn, if any. */
export function scoutingOf(
  turn: { readonly scouting?: TurnScouting } | null,
  army: string,
  target: string,
): ScoutingState | undefined {
  return Object.values(turn?.scouting?.scoutings ?? {}).find((s) => s.army === army && s.target === target);
}
