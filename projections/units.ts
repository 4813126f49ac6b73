import type { Catalogue, RosterFormation } from "../events/common.js";

/** Unit arithmetic: army points and pools of unit counts, shared by reducers and rules, so both agree. */

/**
 * S8/E6: an army is worth the catalogue points of every formation that still has a unit left; a formation that took
 * losses keeps its full value until it is wiped out (the seed's 5,000 -> 4,850 example).
 */
export function armyPoints(formations: readonly RosterFormation[], catalogue: Catalogue): number {
  let points = 0;
  for (const formation of formations) {
    const alive = Object.values(formation.units).some((count) => count > 0);
    if (alive) points += catalogue.formations[formation.formation]?.points ?? 0;
  }
  return points;
}

/** Adds unit counts into a pool, in place. */
export function addUnits(pool: Record<string, number>, units: Readonly<Record<string, number>>): void {
  for (const [type, count] of Object.entries(units)) if (count > 0) pool[type] = (pool[type] ?? 0) + count;
}

/** Takes unit counts out of a pool, in place, dropping types that reach zero. */
export function removeUnits(pool: Record<string, number>, units: Readonly<Record<string, number>>): void {
  for (const [type, count] of Object.entries(units)) {
    const left = (pool[type] ?? 0) - count;
    if (left > 0) pool[type] = left;
    else delete pool[type];
  }
}

/** The surviving units of an army's roster, summed by unit type. */
export function rosterUnits(formations: readonly RosterFormation[]): Record<string, number> {
  const units: Record<string, number> = {};
  for (const formation of formations) addUnits(units, formation.units);
  return units;
}
