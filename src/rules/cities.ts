import type { Square } from "../../events/common.js";
import { advancedRule } from "../../projections/advanced.js";
import { squareKey, terrainAt } from "../../projections/grid.js";
import type { CampaignState } from "../../projections/state.js";

/**
 * A8 ruling: a city square is held like an objective (E1): by the side whose army was the last to move through it,
 * end on it or win a battle on it; it stays held when that army leaves, until an enemy army moves into or through
 * it. Held cities count only for the war chest (income and defences), so they are captured only when it is played.
 */
export function capturedCity(state: CampaignState, at: Square): boolean {
  const setup = state.setup;
  return setup !== null && advancedRule(setup.options, "warChest") && terrainAt(setup.map, at) === "city";
}

/** A8 ruling: the side holding the city square at `at`, or null when none has captured it. */
export function cityHolder(state: CampaignState, at: Square): string | null {
  return state.cities[squareKey(at)] ?? null;
}
