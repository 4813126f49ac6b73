import type { Square } from "../../events/common.js";
import { onMap, squareKey } from "../../projections/grid.js";
import type { ArmyState } from "../../projections/state.js";
import type { Surroundings } from "./surroundings.js";
import { MOVE_START, type MoveSoFar, type StepPricing } from "./terrain-costs.js";

/** Where an army could go within an allowance, under M1-M4 and the campaign's step pricing (T4 or A4). */
export interface Reachable {
  /** The cheapest legal path to each square the army could end its move on: empty squares other than its own. */
  ends: Map<string, Square[]>;
  /** Squares holding a lone enemy army it could attack, with the cheapest path there. */
  attacks: Array<{ path: Square[]; enemy: ArmyState }>;
}

const STEPS: readonly Square[] = [
  [0, -1],
  [1, 0],
  [0, 1],
  [-1, 0],
];

interface Node {
  at: Square;
  soFar: MoveSoFar;
  spent: number;
  path: Square[];
}

const nodeKey = (at: Square, soFar: MoveSoFar): string =>
  `${squareKey(at)}|${soFar.freeSquareTaken ? 1 : 0}${soFar.hillsEntered ? 1 : 0}`;

/**
 * Every square an army on Advance or Charge could reach from `from` with `allowance` points. Prices depend on the
 * move so far (A4's free square and first hills square), so the search visits (square, move so far) pairs, cheapest
 * first; with one point a square it is a breadth-first search. The first step is always allowed (A4); the army never
 * re-enters its own square.
 */
export function searchMoves(around: Surroundings, from: Square, allowance: number, pricing: StepPricing): Reachable {
  const fromKey = squareKey(from);
  const ends = new Map<string, { path: Square[]; spent: number }>();
  const attacks = new Map<string, { path: Square[]; enemy: ArmyState; spent: number }>();
  const best = new Map<string, number>([[nodeKey(from, MOVE_START), 0]]);
  const buckets: Node[][] = [[{ at: from, soFar: MOVE_START, spent: 0, path: [] }]];

  for (let spent = 0; spent <= allowance; spent++) {
    const bucket = buckets[spent] ?? [];
    // Free squares add to the bucket being walked, so it is walked by index.
    for (let i = 0; i < bucket.length; i++) {
      const node = bucket[i]!;
      if (best.get(nodeKey(node.at, node.soFar))! < node.spent) continue;
      for (const [dx, dy] of STEPS) {
        const to: Square = [node.at[0] + dx, node.at[1] + dy];
        const key = squareKey(to);
        if (key === fromKey || !onMap(around, to) || around.battles.has(key)) continue;
        const price = pricing.enter(to, node.soFar);
        const total = node.spent + price.cost;
        const alwaysOne = node.path.length === 0 && allowance > 0;
        if (total > allowance && !alwaysOne) continue;
        const path = [...node.path, to];
        const enemies = around.enemies.get(key);
        if (enemies) {
          const known = attacks.get(key);
          if (enemies.length === 1 && (!known || total < known.spent))
            attacks.set(key, { path, enemy: enemies[0]!, spent: total });
          continue;
        }
        const next = nodeKey(to, price.soFar);
        if ((best.get(next) ?? Infinity) <= total) continue;
        best.set(next, total);
        const known = ends.get(key);
        if (!around.friends.has(key) && (!known || total < known.spent)) ends.set(key, { path, spent: total });
        if (total <= allowance) (buckets[total] ??= []).push({ at: to, soFar: price.soFar, spent: total, path });
      }
    }
  }
  return {
    ends: new Map([...ends].map(([key, end]) => [key, end.path] as const)),
    attacks: [...attacks.values()].map(({ path, enemy }) => ({ path, enemy })),
  };
}
