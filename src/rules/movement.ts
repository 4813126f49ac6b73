import type { Square } from "../../events/common.js";
import { onMap, squareKey } from "../../projections/derived.js";
import type { ArmyState, BattleState, CampaignState } from "../../projections/state.js";
import { armiesOnMap, battlesThisTurn } from "./action-common.js";
import { refuseRule, sq } from "./refusal.js";

/** M1: two squares share an edge. */
export function orthogonallyAdjacent(a: Square, b: Square): boolean {
  return Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) === 1;
}

const STEPS: readonly Square[] = [
  [0, -1],
  [1, 0],
  [0, 1],
  [-1, 0],
];

/** What stands on the map around a moving army, as the move rules see it. */
export interface Surroundings {
  width: number;
  height: number;
  /** Other armies of the mover's side, by square key. */
  friends: Map<string, ArmyState[]>;
  /** Enemy armies, by square key. */
  enemies: Map<string, ArmyState[]>;
  /** M4: squares where a battle started this turn, by square key. */
  battles: Map<string, BattleState>;
}

export function surroundings(state: CampaignState, mover: ArmyState): Surroundings {
  const { map } = state.setup!;
  const friends = new Map<string, ArmyState[]>();
  const enemies = new Map<string, ArmyState[]>();
  for (const army of armiesOnMap(state)) {
    if (army.id === mover.id) continue;
    const pool = army.player === mover.player ? friends : enemies;
    const key = squareKey(army.at!);
    pool.set(key, [...(pool.get(key) ?? []), army]);
  }
  const battles = new Map(battlesThisTurn(state).map((battle) => [squareKey(battle.at), battle] as const));
  return { width: map.width, height: map.height, friends, enemies, battles };
}

/** The outcome of a path that the move rules allow. */
export interface CheckedPath {
  /** Set when the last step enters a lone enemy army's square (M3). */
  defender: ArmyState | null;
}

/**
 * M1-M4 and T4's upper bound: what no order could allow. Refuses with the rule the path breaks; a path that ends on a
 * friendly army is left to the caller (M2, after the S7 ruling).
 */
export function checkPath(around: Surroundings, from: Square, path: readonly Square[], maxSteps: number, rate: number): CheckedPath {
  if (path.length > maxSteps) {
    refuseRule("T4", `the path has ${path.length} steps: at move rate ${rate} even Charge allows at most ${maxSteps}`);
  }
  let previous = from;
  let defender: ArmyState | null = null;
  for (const [i, step] of path.entries()) {
    const n = i + 1;
    if (!onMap(around, step)) refuseRule("M1", `step ${n} ${sq(step)} is off the ${around.width}x${around.height} map`);
    if (!orthogonallyAdjacent(previous, step)) {
      const diagonal = Math.abs(previous[0] - step[0]) === 1 && Math.abs(previous[1] - step[1]) === 1;
      refuseRule(
        "M1",
        diagonal
          ? `step ${n} from ${sq(previous)} to ${sq(step)} is diagonal: moves are to orthogonally adjacent squares only`
          : `step ${n} from ${sq(previous)} to ${sq(step)} is not to an orthogonally adjacent square`,
      );
    }
    const key = squareKey(step);
    const battle = around.battles.get(key);
    if (battle) refuseRule("M4", `step ${n} enters ${sq(step)}, where battle ${battle.id} started this turn: no further army may enter it`);
    const enemies = around.enemies.get(key) ?? [];
    if (enemies.length > 0) {
      const names = enemies.map((e) => e.id).join(", ");
      if (n < path.length) refuseRule("M3", `step ${n} enters ${sq(step)}, held by enemy ${names}: an army cannot pass through an enemy army, entering it ends the move`);
      if (enemies.length > 1) refuseRule("M3", `${sq(step)} holds a stack of enemy armies (${names}): an army cannot attack a stack`);
      defender = enemies[0]!;
    }
    previous = step;
  }
  return { defender };
}

/**
 * S7 ruling: can an army leave the square `from` (its home base) and end its move on a square it may legally end on,
 * within `maxSteps` steps? Legal end squares here are empty squares off `from`; squares it could only end on by
 * attacking are not counted, so the ruling never forces an attack.
 */
export function canLeave(around: Surroundings, from: Square, maxSteps: number): boolean {
  const seen = new Set<string>([squareKey(from)]);
  let frontier: Square[] = [from];
  for (let steps = 0; steps < maxSteps && frontier.length > 0; steps++) {
    const next: Square[] = [];
    for (const square of frontier) {
      for (const [dx, dy] of STEPS) {
        const to: Square = [square[0] + dx, square[1] + dy];
        const key = squareKey(to);
        if (seen.has(key) || !onMap(around, to)) continue;
        seen.add(key);
        if (around.battles.has(key) || around.enemies.has(key)) continue;
        if (!around.friends.has(key)) return true;
        next.push(to);
      }
    }
    frontier = next;
  }
  return false;
}
