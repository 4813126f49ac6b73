import type { Square } from "../../events/common.js";
import { onMap, squareKey } from "../../projections/grid.js";
import type { ArmyState } from "../../projections/state.js";
import { searchMoves } from "./move-search.js";
import type { Surroundings } from "./surroundings.js";
import { refuseRule, sq } from "./refusal.js";
import { ONE_A_SQUARE, pointsLeftOnPath, stepsPaid, type StepPricing } from "./terrain-costs.js";

/** M1: two squares share an edge. */
export function orthogonallyAdjacent(a: Square, b: Square): boolean {
  return Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) === 1;
}

/** The outcome of a path that the move rules allow. */
export interface CheckedPath {
  /** Set when the last step enters a lone enemy army's square (M3). */
  defender: ArmyState | null;
}

/**
 * M1-M4 and the upper bound of T4, or of A4 when terrain costs are in play: what no order could allow. Refuses with
 * the rule the path breaks; a path that ends on a friendly army is left to the caller (M2, after the S7 ruling).
 */
export function checkPath(
  around: Surroundings,
  from: Square,
  path: readonly Square[],
  rate: number,
  pricing: StepPricing,
): CheckedPath {
  const maxSteps = 2 * rate;
  // With terrain costs a free square lets a Charge cover more than 2R squares: A4 bounds it once the squares are checked.
  if (!pricing.byTerrain && path.length > maxSteps) {
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
    if (battle)
      refuseRule(
        "M4",
        `step ${n} enters ${sq(step)}, where battle ${battle.id} started this turn: no further army may enter it`,
      );
    const enemies = around.enemies.get(key) ?? [];
    if (enemies.length > 0) {
      const names = enemies.map((e) => e.id).join(", ");
      if (n < path.length)
        refuseRule(
          "M3",
          `step ${n} enters ${sq(step)}, held by enemy ${names}: an army cannot pass through an enemy army, entering it ends the move`,
        );
      if (enemies.length > 1)
        refuseRule("M3", `${sq(step)} holds a stack of enemy armies (${names}): an army cannot attack a stack`);
      defender = enemies[0]!;
    }
    previous = step;
  }
  if (pricing.byTerrain) refuseBeyondCharge(pricing, path, rate);
  return { defender };
}

/** A4: a path the Charge allowance 2R does not pay for, beyond the one square every Advance or Charge may move. */
function refuseBeyondCharge(pricing: StepPricing, path: readonly Square[], rate: number): void {
  const allowance = 2 * rate;
  const left = pointsLeftOnPath(pricing, allowance, path);
  const paid = stepsPaid(left);
  if (paid === path.length) return;
  const before = left[paid - 1]!;
  const cost = before - left[paid]!;
  refuseRule(
    "A4",
    `step ${paid + 1} into ${sq(path[paid]!)} costs ${cost} point${cost === 1 ? "" : "s"} but only ${Math.max(0, before)} of Charge's ${allowance} points at move rate ${rate} are left after the terrain of the squares before it: no order allows this path`,
  );
}

/**
 * S7 ruling: can an army leave the square `from` (its home base) and end its move on a square it may legally end on,
 * with `allowance` points (one a square, or by terrain under A4)? Legal end squares here are empty squares off `from`;
 * squares it could only end on by attacking are not counted, so the ruling never forces an attack.
 */
export function canLeave(
  around: Surroundings,
  from: Square,
  allowance: number,
  pricing: StepPricing = ONE_A_SQUARE,
): boolean {
  return searchMoves(around, from, allowance, pricing).ends.size > 0;
}
