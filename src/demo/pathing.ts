import type { Square } from "../../events/common.js";
import { onMap, squareKey } from "../../projections/derived.js";
import type { ArmyState, CampaignState } from "../../projections/state.js";
import { surroundings } from "../rules/movement.js";

const STEPS: readonly Square[] = [
  [0, -1],
  [1, 0],
  [0, 1],
  [-1, 0],
];

export interface Reach {
  /** Shortest legal path to each square the army could end on (empty squares, or a lone enemy to attack). */
  paths: Map<string, Square[]>;
  /** Squares holding a lone enemy army within reach, with the enemy. */
  attacks: Array<{ path: Square[]; enemy: ArmyState }>;
}

/** Every square an army could move to within `maxSteps` under M1-M4, by breadth-first search. */
export function reach(state: CampaignState, army: ArmyState, maxSteps: number): Reach {
  const around = surroundings(state, army);
  const from = army.at!;
  const paths = new Map<string, Square[]>();
  const attacks: Reach["attacks"] = [];
  const seen = new Set([squareKey(from)]);
  let frontier: Array<{ at: Square; path: Square[] }> = [{ at: from, path: [] }];
  for (let step = 0; step < maxSteps; step++) {
    const next: typeof frontier = [];
    for (const { at, path } of frontier) {
      for (const [dx, dy] of STEPS) {
        const to: Square = [at[0] + dx!, at[1] + dy!];
        const key = squareKey(to);
        if (seen.has(key) || !onMap(around, to) || around.battles.has(key)) continue;
        seen.add(key);
        const enemies = around.enemies.get(key);
        if (enemies) {
          if (enemies.length === 1) attacks.push({ path: [...path, to], enemy: enemies[0]! });
          continue;
        }
        if (!around.friends.has(key)) paths.set(key, [...path, to]);
        next.push({ at: to, path: [...path, to] });
      }
    }
    frontier = next;
  }
  return { paths, attacks };
}

/** Steps between two squares ignoring armies: the bot's sense of distance. */
export function distance(a: Square, b: Square): number {
  return Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]);
}
