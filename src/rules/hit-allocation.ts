import type { AllocatedHit, HitKind, TargetKind, TargetUnit } from "../../events/kit-common.js";
import type { TakeDie } from "../../projections/battle-kit-tables.js";

/**
 * K5: seed 003's hit allocation. Hits go, in the order given, to eligible units (in range and line of fire) that they
 * can affect: AP hits to infantry and light vehicles, AT hits to vehicles and war engines, MW hits to any unit, TK hits
 * to war engines when the formation has any eligible one, else to any unit. Each hit goes to the closest such unit
 * among those with the fewest hits so far: no unit takes a second hit before every potential target has one.
 */

const AFFECTS: Record<Exclude<HitKind, "TK">, readonly TargetKind[]> = {
  AP: ["infantry", "lightVehicle"],
  AT: ["lightVehicle", "armouredVehicle", "warEngine"],
  MW: ["infantry", "lightVehicle", "armouredVehicle", "warEngine"],
};

/** The units a hit of this kind may be allocated to. */
function potentialTargets(kind: HitKind, eligible: readonly TargetUnit[]): TargetUnit[] {
  if (kind === "TK") {
    const warEngines = eligible.filter((unit) => unit.kind === "warEngine");
    return warEngines.length > 0 ? warEngines : [...eligible];
  }
  return eligible.filter((unit) => AFFECTS[kind].includes(unit.kind));
}

export interface Allocation {
  allocation: AllocatedHit[];
  /** Indexes of hits no eligible unit could take. */
  unallocated: number[];
}

export function allocateHits(units: readonly TargetUnit[], hits: readonly HitKind[]): Allocation {
  // Closest first; the order the units were given breaks ties.
  const eligible = units
    .map((unit, order) => ({ unit, order }))
    .filter(({ unit }) => unit.eligible)
    .sort((a, b) => a.unit.distanceCm - b.unit.distanceCm || a.order - b.order)
    .map(({ unit }) => unit);
  const taken = new Map<string, number>();
  const allocation: AllocatedHit[] = [];
  const unallocated: number[] = [];
  hits.forEach((kind, hit) => {
    const targets = potentialTargets(kind, eligible);
    if (targets.length === 0) {
      unallocated.push(hit);
      return;
    }
    const fewest = Math.min(...targets.map((unit) => taken.get(unit.id) ?? 0));
    const unit = targets.find((candidate) => (taken.get(candidate.id) ?? 0) === fewest)!;
    taken.set(unit.id, fewest + 1);
    allocation.push({ hit, kind, unit: unit.id });
  });
  return { allocation, unallocated };
}

/** K5 ruling: a TK hit's damage is a d3 (seed 003 rolls damage "immediately after allocating the hit"). */
export const TK_DAMAGE_SIDES = 3;

export interface SavesOutcome {
  saves: Array<{ hit: number; unit: string; roll: number; saved: boolean; damage?: number }>;
  destroyed: string[];
}

/**
 * K5: one d6 per allocated hit, in allocation order: a roll below the unit's save (armour or cover) destroys it. A TK
 * hit on a war engine rolls its damage instead: the war engine counts as having taken that many hits, with no save.
 */
export function savesFromDice(
  units: readonly TargetUnit[],
  allocation: readonly AllocatedHit[],
  take: TakeDie,
): SavesOutcome {
  const byId = new Map(units.map((unit) => [unit.id, unit]));
  const destroyed = new Set<string>();
  const saves = allocation.map(({ hit, kind, unit: id }) => {
    const unit = byId.get(id)!;
    if (kind === "TK" && unit.kind === "warEngine") {
      const damage = take(TK_DAMAGE_SIDES);
      return { hit, unit: id, roll: damage, saved: false, damage };
    }
    const roll = take(6);
    const saved = roll >= unit.save;
    if (!saved) destroyed.add(id);
    return { hit, unit: id, roll, saved };
  });
  return { saves, destroyed: units.filter((unit) => destroyed.has(unit.id)).map((unit) => unit.id) };
}
