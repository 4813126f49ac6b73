import type { Square } from "../../events/common.js";
import type { CampaignState } from "../../projections/state.js";
import { distance } from "../demo/pathing.js";

/** The squares a player wants: the objectives it does not hold and the enemy's home bases it has not taken. */
export function wantedSquares(state: CampaignState, player: string): Square[] {
  return [
    ...Object.values(state.objectives)
      .filter((o) => o.heldBy !== player)
      .map((o) => o.at),
    ...Object.values(state.homeBases)
      .filter((h) => h.player !== player && h.heldBy !== player)
      .map((h) => h.at),
  ];
}

/** How far a square lies from the nearest of the squares wanted (99 where none is). */
export function distanceToWanted(wanted: readonly Square[], square: Square): number {
  return Math.min(99, ...wanted.map((target) => distance(square, target)));
}
