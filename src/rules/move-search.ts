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

/**
 * A (square on the map, move so far) pair as an index into the search's table of cheapest costs: a number rather than
 * a text key, as the search visits many.
 */
const nodeIndex = (height: number, [x, y]: Square, soFar: MoveSoFar): number =>
  ((x * height + y) << 2) | (soFar.freeSquareTaken ? 2 : 0) | (soFar.hillsEntered ? 1 : 0);

const BATTLE = 1;
const ENEMY = 2;
const FRIEND = 4;

/** What stands on each square of the map (BATTLE, ENEMY, FRIEND bits), by square index, read once per search. */
function occupancy(around: Surroundings): Uint8Array {
  const grid = new Uint8Array(around.width * around.height);
  const mark = (keys: Iterable<string>, bit: number) => {
    for (const key of keys) {
      const comma = key.indexOf(",");
      const square: Square = [Number(key.slice(0, comma)), Number(key.slice(comma + 1))];
      if (onMap(around, square)) grid[square[0] * around.height + square[1]]! |= bit;
    }
  };
  mark(around.battles.keys(), BATTLE);
  mark(around.enemies.keys(), ENEMY);
  mark(around.friends.keys(), FRIEND);
  return grid;
}

/**
 * Every square an army on Advance or Charge could reach from `from` with `allowance` points. Prices depend on the
 * move so far (A4's free square and first hills square), so the search visits (square, move so far) pairs, cheapest
 * first; with one point a square it is a breadth-first search. The first step is always allowed (A4); the army never
 * re-enters its own square.
 */
export function searchMoves(around: Surroundings, from: Square, allowance: number, pricing: StepPricing): Reachable {
  const { height } = around;
  const squares = around.width * height;
  const grid = occupancy(around);
  // By square index: the cheapest path found to end on it, and the squares in the order they were first reached.
  const ends: Array<{ path: Square[]; spent: number } | undefined> = new Array(squares);
  const endOrder: number[] = [];
  const attacks = new Map<string, { path: Square[]; enemy: ArmyState; spent: number }>();
  // The cheapest cost found to each node; the army's own square is never entered again, so the start needs none.
  const best = new Float64Array(squares * 4).fill(Infinity);
  const buckets: Node[][] = [[{ at: from, soFar: MOVE_START, spent: 0, path: [] }]];

  for (let spent = 0; spent <= allowance; spent++) {
    const bucket = buckets[spent] ?? [];
    // Free squares add to the bucket being walked, so it is walked by index.
    for (let i = 0; i < bucket.length; i++) {
      const node = bucket[i]!;
      if (node.path.length > 0 && best[nodeIndex(height, node.at, node.soFar)]! < node.spent) continue;
      for (const [dx, dy] of STEPS) {
        const to: Square = [node.at[0] + dx, node.at[1] + dy];
        if ((to[0] === from[0] && to[1] === from[1]) || !onMap(around, to)) continue;
        const square = to[0] * height + to[1];
        const standing = grid[square]!;
        if (standing & BATTLE) continue;
        const price = pricing.enter(to, node.soFar);
        const total = node.spent + price.cost;
        const alwaysOne = node.path.length === 0 && allowance > 0;
        if (total > allowance && !alwaysOne) continue;
        if (standing & ENEMY) {
          const key = squareKey(to);
          const enemies = around.enemies.get(key)!;
          const known = attacks.get(key);
          if (enemies.length === 1 && (!known || total < known.spent))
            attacks.set(key, { path: [...node.path, to], enemy: enemies[0]!, spent: total });
          continue;
        }
        const next = nodeIndex(height, to, price.soFar);
        if (best[next]! <= total) continue;
        best[next] = total;
        const path = [...node.path, to];
        const known = ends[square];
        if (!(standing & FRIEND) && (!known || total < known.spent)) {
          if (!known) endOrder.push(square);
          ends[square] = { path, spent: total };
        }
        if (total <= allowance) (buckets[total] ??= []).push({ at: to, soFar: price.soFar, spent: total, path });
      }
    }
  }
  return {
    ends: new Map(
      endOrder.map(
        (square) => [squareKey([Math.floor(square / height), square % height]), ends[square]!.path] as const,
      ),
    ),
    attacks: [...attacks.values()].map(({ path, enemy }) => ({ path, enemy })),
  };
}
