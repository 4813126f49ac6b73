import type { Square } from "../../events/common.js";
import { squareKey } from "../../projections/grid.js";
import type { ArmyState, CampaignSetup, CampaignState } from "../../projections/state.js";
import { searchMoves } from "../rules/move-search.js";
import { surroundings, type Surroundings } from "../rules/surroundings.js";
import { squaresPaid, stepPricing } from "../rules/terrain-costs.js";

export interface Reach {
  /** Cheapest legal path to each square the army could end on (empty squares, or a lone enemy to attack). */
  paths: ReadonlyMap<string, Square[]>;
  /** Squares holding a lone enemy army within reach, with the enemy. */
  attacks: Array<{ path: Square[]; enemy: ArmyState }>;
}

/**
 * Every square an army could move to with `allowance` points under M1-M4: one point a square, or the terrain costs
 * of A4 when the campaign plays them, so the demo never makes a move no order allows.
 */
export function reach(state: CampaignState, army: ArmyState, allowance: number): Reach {
  const around = surroundings(state, army);
  const setup = state.setup!;
  const known = searchesOf(setup);
  const key = searchKey(around, army.at!, allowance);
  let found = known.get(key);
  if (!found) {
    const { ends, attacks } = searchMoves(around, army.at!, allowance, stepPricing(setup));
    found = { paths: ends, attacks: attacks.map(({ path }) => ({ path, at: squareKey(path[path.length - 1]!) })) };
    if (known.size >= MAX_SEARCHES) known.clear();
    known.set(key, found);
  }
  return {
    paths: found.paths,
    // The enemy is this state's army on that square: the search depends only on where armies stand.
    attacks: found.attacks.map(({ path, at }) => ({ path, enemy: around.enemies.get(at)![0]! })),
  };
}

/** A search's result with its attacks by square, for reach to answer again from. */
interface KnownSearch {
  paths: ReadonlyMap<string, Square[]>;
  attacks: Array<{ path: Square[]; at: string }>;
}

/**
 * The searches made on each campaign set-up (whose map and rules price the steps), by what else they depend on: the
 * commanders of a forecast search from the same squares among the same armies again and again, run after run.
 */
const searches = new WeakMap<CampaignSetup, Map<string, KnownSearch>>();
/** Searches kept a set-up at most: past that they are forgotten and made again as asked for. */
const MAX_SEARCHES = 2048;

function searchesOf(setup: CampaignSetup): Map<string, KnownSearch> {
  let known = searches.get(setup);
  if (!known) searches.set(setup, (known = new Map()));
  return known;
}

/** All that searchMoves reads besides the set-up: the start, the allowance, and what stands on which square. */
function searchKey(around: Surroundings, from: Square, allowance: number): string {
  const squares = (pool: Map<string, unknown[]>) =>
    [...pool].map(([square, armies]) => `${square}*${armies.length}`).join(" ");
  return `${squareKey(from)}|${allowance}|${squares(around.enemies)}|${squares(around.friends)}|${[...around.battles.keys()].join(" ")}`;
}

/** The order a path needs: Advance when the move rate pays for it (by squares, or by terrain under A4), else Charge. */
export function orderForPath(state: CampaignState, army: ArmyState, path: readonly Square[]): "advance" | "charge" {
  return squaresPaid(stepPricing(state.setup!), "advance", army.moveRate, path) === path.length ? "advance" : "charge";
}

/** Steps between two squares ignoring armies: the bot's sense of distance. */
export function distance(a: Square, b: Square): number {
  return Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]);
}
