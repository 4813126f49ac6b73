import { requireAllies } from "./allies.js";
import type { Catalogue, RosterFormation, UnitCounts } from "../../events/common.js";
import { addUnits, armyPoints } from "../../projections/units.js";
import {
  emptyLedger,
  type ArmyState,
  type CampaignSetup,
  type CampaignState,
  type PlayerLedger,
} from "../../projections/state.js";
import { pts, refuseRule } from "./refusal.js";

/** Unit-pool helpers for the End phase (E4-E6): full-strength lists, shortfalls, and the checks that name them. */

/** A catalogue formation's full-strength unit list (S8), refusing an id the catalogue does not know. */
export function fullStrength(catalogue: Catalogue, formation: string): UnitCounts {
  const entry = catalogue.formations[formation];
  if (!entry) refuseRule("S8", `formation "${formation}" is not in the campaign catalogue`);
  return { ...entry.units };
}

/** The full-strength units of several catalogue formations together. */
export function fullStrengthOf(catalogue: Catalogue, formations: readonly string[]): UnitCounts {
  const units: UnitCounts = {};
  for (const formation of formations) addUnits(units, fullStrength(catalogue, formation));
  return units;
}

/** The catalogue points of several formations together. */
export function pointsOf(catalogue: Catalogue, formations: readonly string[]): number {
  return formations.reduce((sum, formation) => sum + (catalogue.formations[formation]?.points ?? 0), 0);
}

/** What `pool` lacks to cover `wanted`, by unit type (empty when it covers it). */
export function shortfall(pool: Readonly<UnitCounts>, wanted: Readonly<UnitCounts>): UnitCounts {
  const missing: UnitCounts = {};
  for (const [type, count] of Object.entries(wanted)) {
    const lack = count - (pool[type] ?? 0);
    if (lack > 0) missing[type] = lack;
  }
  return missing;
}

export const isEmpty = (units: Readonly<UnitCounts>): boolean => Object.values(units).every((count) => count <= 0);

/** "3 battle-tank, 1 command-stand" */
export function describeUnits(units: Readonly<UnitCounts>): string {
  const parts = Object.entries(units)
    .filter(([, count]) => count > 0)
    .map(([type, count]) => `${count} ${type}`);
  return parts.length > 0 ? parts.join(", ") : "no units";
}

/** The units a player has In Transit, all batches together. */
export function inTransitUnits(ledger: PlayerLedger): UnitCounts {
  const units: UnitCounts = {};
  for (const batch of ledger.inTransit) addUnits(units, batch.units);
  return units;
}

/**
 * E6, E4: the Reserves must hold every unit of `wanted`. Units In Transit are not Reserves: when they would make up the
 * shortfall the refusal names E4 (nothing In Transit may be used), otherwise E6.
 */
export function requireInReserves(ledger: PlayerLedger, wanted: Readonly<UnitCounts>, what: string): void {
  const missing = shortfall(ledger.reserves, wanted);
  if (isEmpty(missing)) return;
  const stillMissing = shortfall(inTransitUnits(ledger), missing);
  if (isEmpty(stillMissing)) {
    refuseRule(
      "E4",
      `${what} needs ${describeUnits(missing)} more than the Reserves hold; those units are In Transit and may not be used until they join the Reserves`,
    );
  }
  refuseRule(
    "E6",
    `${what} needs ${describeUnits(missing)} more than the Reserves hold (Reserves: ${describeUnits(ledger.reserves)})`,
  );
}

/** The units of the named roster formations, summed by unit type. */
export function formationUnits(formations: readonly RosterFormation[]): UnitCounts {
  const units: UnitCounts = {};
  for (const formation of formations) addUnits(units, formation.units);
  return units;
}

export const hasUnits = (formation: RosterFormation): boolean =>
  Object.values(formation.units).some((count) => count > 0);

/** S2, E6: the largest an army may be: the campaign's set army size when it has one, else M. */
export function armyCeiling(setup: CampaignSetup): number {
  return setup.options.armySize ?? setup.force.maxArmyPoints;
}

/** S2, E6: refuses a roster that would take the army over the ceiling. */
export function requireWithinCeiling(
  setup: CampaignSetup,
  army: ArmyState,
  formations: readonly RosterFormation[],
  what: string,
): void {
  const ceiling = armyCeiling(setup);
  const points = armyPoints(formations, setup.catalogue);
  if (points > ceiling) {
    const name = setup.options.armySize !== undefined ? "the campaign's army size" : "M";
    refuseRule("E6", `${what} would make army "${army.id}" ${pts(points)} points, over ${name} = ${pts(ceiling)}`);
  }
  requireAllies(setup, army.id, formations, what);
}

/** The ledger of a player, which every campaign with a set-up has. */
export function ledgerOf(state: CampaignState, player: string): PlayerLedger {
  return state.ledgers[player] ?? emptyLedger();
}
