import type { Square } from "../../events/common.js";
import type { ArmyState, CampaignState } from "../../projections/state.js";
import { searchMoves } from "../rules/move-search.js";
import { surroundings } from "../rules/surroundings.js";
import { squaresPaid, stepPricing } from "../rules/terrain-costs.js";

export interface Reach {
  /** Cheapest legal path to each square the army could end on (empty squares, or a lone enemy to attack). */
  paths: Map<string, Square[]>;
  /** Squares holding a lone enemy army within reach, with the enemy. */
  attacks: Array<{ path: Square[]; enemy: ArmyState }>;
}

/**
 * Every square an army could move to with `allowance` points under M1-M4: one point a square, or the terrain costs
 * of A4 when the campaign plays them, so the demo never makes a move no order allows.
 */
export function reach(state: CampaignState, army: ArmyState, allowance: number): Reach {
  const { ends, attacks } = searchMoves(surroundings(state, army), army.at!, allowance, stepPricing(state.setup!));
  return { paths: ends, attacks };
}

/** The order a path needs: Advance when the move rate pays for it (by squares, or by terrain under A4), else Charge. */
export function orderForPath(state: CampaignState, army: ArmyState, path: readonly Square[]): "advance" | "charge" {
  return squaresPaid(stepPricing(state.setup!), "advance", army.moveRate, path) === path.length ? "advance" : "charge";
}

/** Steps between two squares ignoring armies: the bot's sense of distance. */
export function distance(a: Square, b: Square): number {
  return Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]);
}
