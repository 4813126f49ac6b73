import type { Draft } from "immer";
import type { Catalogue, RosterFormation, TitanDamage, UnitCounts } from "../events/common.js";
import type { ArmyState, DamagedTitans, PlayerLedger } from "./state.js";

/** A8 titan damage bookkeeping for the reducers: damage adds up across battles until repairs take it off. */

/** A8: a shield or field system costs 100 points to replace. */
export const SHIELD_REPAIR_COST = 100;

export function carryTitanDamage(army: Draft<ArmyState>, damage: Readonly<Record<string, TitanDamage>>): void {
  const carried = (army.titanDamage ??= {});
  for (const [formation, taken] of Object.entries(damage))
    mergeDamage((carried[formation] ??= { shields: 0, weapons: [] }), taken);
}

export function repairTitanDamage(
  army: Draft<ArmyState>,
  formation: string,
  shields: number,
  weapons: readonly { destroyed: string }[],
): void {
  const titan = army.titanDamage?.[formation];
  if (!titan) return;
  takeOffRepairs(titan, shields, weapons);
  if (!isDamaged(titan)) delete army.titanDamage![formation];
  if (Object.keys(army.titanDamage!).length === 0) delete army.titanDamage;
}

/** A8: repairs to the damaged titan at `index` of its unit type's list in the Reserves; once whole it leaves the list. */
export function repairReserveTitan(
  ledger: Draft<PlayerLedger>,
  unitType: string,
  index: number,
  shields: number,
  weapons: readonly { destroyed: string }[],
): void {
  const titans = ledger.damagedTitans?.[unitType];
  if (!titans || index >= titans.length) return;
  const [titan] = titans.splice(index, 1);
  takeOffRepairs(titan!, shields, weapons);
  if (isDamaged(titan!)) insertByDamage(titans, titan!);
  dropEmpty(ledger, unitType);
}

/**
 * A8 ruling: how damaged a titan is, to tell which of several of one unit type goes first: what repairing it all at
 * full weapon cost would take.
 */
export function damageWeight(damage: TitanDamage): number {
  return damage.shields * SHIELD_REPAIR_COST + damage.weapons.reduce((sum, weapon) => sum + weapon.points, 0);
}

/**
 * A8: the damage of the titans of `formations` that leave the army (routed, disbanded, broken down), by unit type,
 * taken off the army; a titan destroyed in battle leaves nothing to carry. Undefined when none carries damage.
 */
export function titansLeavingWithDamage(
  army: Draft<ArmyState>,
  formations: readonly RosterFormation[],
  catalogue: Catalogue,
): DamagedTitans | undefined {
  const leaving: DamagedTitans = {};
  for (const formation of formations) {
    const damage = army.titanDamage?.[formation.id];
    if (!damage) continue;
    delete army.titanDamage![formation.id];
    const unitType = survivingTitanType(formation, catalogue);
    if (unitType) insertByDamage((leaving[unitType] ??= []), copyOf(damage));
  }
  if (army.titanDamage && Object.keys(army.titanDamage).length === 0) delete army.titanDamage;
  return Object.keys(leaving).length > 0 ? leaving : undefined;
}

/** A8: damaged titans joining a pool (a transit batch or the Reserves), each list kept most damaged first. */
export function addDamagedTitans(
  pool: { damagedTitans?: DamagedTitans },
  titans: Readonly<DamagedTitans> | undefined,
): void {
  for (const [unitType, list] of Object.entries(titans ?? {})) {
    for (const damage of list) insertByDamage(((pool.damagedTitans ??= {})[unitType] ??= []), copyOf(damage));
  }
}

/**
 * A8 ruling: titans taken from the Reserves into `formation` of `army` bring their damage with them. Titans of one
 * unit type cannot be told apart, so the most damaged go first; a formation taking several merges their damage.
 */
export function takeDamagedTitans(
  ledger: Draft<PlayerLedger>,
  army: Draft<ArmyState>,
  formation: string,
  units: Readonly<UnitCounts>,
): void {
  for (const [unitType, count] of Object.entries(units)) {
    const titans = ledger.damagedTitans?.[unitType];
    if (!titans) continue;
    for (const damage of titans.splice(0, count))
      mergeDamage(((army.titanDamage ??= {})[formation] ??= { shields: 0, weapons: [] }), damage);
    dropEmpty(ledger, unitType);
  }
}

/** A8: a wiped-out titan formation's damage went with its destroyed titans: nothing is left to carry or repair. */
export function forgetDestroyedTitan(army: Draft<ArmyState>, formation: string): void {
  if (!army.titanDamage?.[formation]) return;
  delete army.titanDamage[formation];
  if (Object.keys(army.titanDamage).length === 0) delete army.titanDamage;
}

/** A8: how many titans of `unitType` in the Reserves carry damage. */
export const damagedInReserves = (ledger: PlayerLedger, unitType: string): number =>
  ledger.damagedTitans?.[unitType]?.length ?? 0;

const copyOf = (damage: TitanDamage): TitanDamage => ({
  shields: damage.shields,
  weapons: damage.weapons.map((weapon) => ({ ...weapon })),
});

const isDamaged = (damage: TitanDamage) => damage.shields > 0 || damage.weapons.length > 0;

function mergeDamage(into: Draft<TitanDamage>, damage: TitanDamage): void {
  into.shields += damage.shields;
  into.weapons.push(...damage.weapons.map((weapon) => ({ ...weapon })));
}

function takeOffRepairs(titan: Draft<TitanDamage>, shields: number, weapons: readonly { destroyed: string }[]): void {
  titan.shields = Math.max(0, titan.shields - shields);
  for (const { destroyed } of weapons) {
    const index = titan.weapons.findIndex((weapon) => weapon.name === destroyed);
    if (index >= 0) titan.weapons.splice(index, 1);
  }
}

/** Inserts after every titan at least as damaged, so titans equally damaged keep the order they came in. */
function insertByDamage(titans: Draft<TitanDamage>[], damage: TitanDamage): void {
  const weight = damageWeight(damage);
  const index = titans.findIndex((titan) => damageWeight(titan) < weight);
  titans.splice(index < 0 ? titans.length : index, 0, damage);
}

function dropEmpty(ledger: Draft<PlayerLedger>, unitType: string): void {
  if (ledger.damagedTitans?.[unitType]?.length === 0) delete ledger.damagedTitans[unitType];
  if (ledger.damagedTitans && Object.keys(ledger.damagedTitans).length === 0) delete ledger.damagedTitans;
}

/**
 * A8 ruling: a titan formation's damage belongs to its surviving titan unit (the first titan unit type with units left;
 * failing a unit type marked titan, the first with units left). None left: the titan was destroyed.
 */
function survivingTitanType(formation: RosterFormation, catalogue: Catalogue): string | undefined {
  const surviving = Object.entries(formation.units)
    .filter(([, count]) => count > 0)
    .map(([type]) => type);
  return surviving.find((type) => catalogue.unitTypes[type]?.abilities.includes("titan")) ?? surviving[0];
}
