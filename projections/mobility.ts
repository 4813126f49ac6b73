import type { Catalogue, Options, RosterFormation } from "../events/common.js";
import { advancedRule } from "./advanced.js";
import { moveRate } from "./formulas.js";
import { rosterUnits } from "./units.js";

/** A1: the slowest move, in cm, that still counts as mobilised. */
export const MOBILISED_CM = 20;

/**
 * A1: every surviving unit moves 20 cm or more, infantry slower than that counting as carried while the surviving
 * transport capacity (unit type capacity x count) holds all of them. An army with no unit left is not mobilised.
 */
export function isMobilised(formations: readonly RosterFormation[], catalogue: Catalogue): boolean {
  const units = Object.entries(rosterUnits(formations));
  if (units.length === 0) return false;
  let onFoot = 0;
  let seats = 0;
  for (const [type, count] of units) {
    const unitType = catalogue.unitTypes[type];
    // A unit the catalogue does not describe cannot be shown to keep up.
    if (!unitType) return false;
    seats += (unitType.transportCapacity ?? 0) * count;
    if (unitType.moveCm >= MOBILISED_CM) continue;
    if (!unitType.abilities.includes("infantry")) return false;
    onFoot += count;
  }
  return onFoot <= seats;
}

/** S5 and A1: the move rate from the army's points, plus one while it is mobilised in a campaign that plays A1. */
export function armyMoveRate(
  points: number,
  formations: readonly RosterFormation[],
  setup: { catalogue: Catalogue; options: Options },
): number {
  const bonus = advancedRule(setup.options, "mobilised") && isMobilised(formations, setup.catalogue) ? 1 : 0;
  return moveRate(points) + bonus;
}
