import type { AllocatedHit, HitKind, TargetKind, TargetUnit } from "../../events/kit-common.js";
import type { TakeDie } from "../../projections/battle-kit-tables.js";

/**
 * K5: seed 003's hit allocation. Hits go, in the order given, to eligible units (in range and line of fire) that they
 * can affect: AP hits to infantry and light vehicles, AT hits to vehicles and war engines, MW hits to any unit, TK hits
 * to war engines when the formation has any eligible one, else to any unit. Each hit goes to the closest such unit
 * among those with the fewest hits so far: no unit takes a second hit before every potential target has one. A TK
 * hit's damage is rolled as soon as the hit is allocated, and the war engine then counts as allocated that many hits
 * (seed 003, 3.2.5), so allocation and dice interleave.
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

/** The eligible units, closest first; the order the units were given breaks ties. */
function closestFirst(units: readonly TargetUnit[]): TargetUnit[] {
  return units
    .map((unit, order) => ({ unit, order }))
    .filter(({ unit }) => unit.eligible)
    .sort((a, b) => a.unit.distanceCm - b.unit.distanceCm || a.order - b.order)
    .map(({ unit }) => unit);
}

/** Indexes of the hits no eligible unit can take (an AT hit on a formation of infantry): known before any die. */
export function unallocatedHits(units: readonly TargetUnit[], hits: readonly HitKind[]): number[] {
  const eligible = closestFirst(units);
  return hits.flatMap((kind, hit) => (potentialTargets(kind, eligible).length === 0 ? [hit] : []));
}

/**
 * K5 as HitsAllocated version 1 recorded it: every hit allocated before any die, a TK hit counting as one. A volley
 * of that version keeps this allocation (and is audited against it).
 */
export function allocateBeforeDice(units: readonly TargetUnit[], hits: readonly HitKind[]): AllocatedHit[] {
  const eligible = closestFirst(units);
  const taken = new Map<string, number>();
  return hits.flatMap((kind, hit) => {
    const unit = closestWithFewest(potentialTargets(kind, eligible), taken);
    if (!unit) return [];
    taken.set(unit.id, (taken.get(unit.id) ?? 0) + 1);
    return [{ hit, kind, unit: unit.id }];
  });
}

/** K5 ruling: a TK hit's damage is a d3 (seed 003 rolls damage "immediately after allocating the hit"). */
export const TK_DAMAGE_SIDES = 3;

export interface VolleyOutcome {
  /** Per allocated hit, in the order the hits were scored: its unit, its roll, and whether the unit saved it. */
  saves: Array<{ hit: number; unit: string; roll: number; saved: boolean; damage?: number }>;
  destroyed: string[];
}

/**
 * K5: the volley's hits allocated and rolled hit by hit, in the order scored: each hit is allocated, then its die is
 * drawn before the next hit is allocated: a d6 save (below the unit's save destroys it), or for a TK hit on a war
 * engine a d3 of damage with no save, which counts as that many hits on the war engine for the hits after it.
 * `allocatedBeforeDice` is a volley allocated whole before any die (HitsAllocated version 1): its saves are rolled on
 * that allocation, as it was played.
 */
export function rollVolley(
  units: readonly TargetUnit[],
  hits: readonly HitKind[],
  take: TakeDie,
  allocatedBeforeDice?: readonly AllocatedHit[],
): VolleyOutcome {
  const eligible = closestFirst(units);
  const byId = new Map(units.map((unit) => [unit.id, unit]));
  const given = allocatedBeforeDice && new Map(allocatedBeforeDice.map((a) => [a.hit, a.unit]));
  const taken = new Map<string, number>();
  const destroyed = new Set<string>();
  const saves: VolleyOutcome["saves"] = [];
  hits.forEach((kind, hit) => {
    const unit = given ? byId.get(given.get(hit) ?? "") : closestWithFewest(potentialTargets(kind, eligible), taken);
    if (!unit) return;
    if (kind === "TK" && unit.kind === "warEngine") {
      const damage = take(TK_DAMAGE_SIDES);
      taken.set(unit.id, (taken.get(unit.id) ?? 0) + damage);
      saves.push({ hit, unit: unit.id, roll: damage, saved: false, damage });
      return;
    }
    taken.set(unit.id, (taken.get(unit.id) ?? 0) + 1);
    const roll = take(6);
    const saved = roll >= unit.save;
    if (!saved) destroyed.add(unit.id);
    saves.push({ hit, unit: unit.id, roll, saved });
  });
  return { saves, destroyed: units.filter((unit) => destroyed.has(unit.id)).map((unit) => unit.id) };
}

/** The closest of the targets with the fewest hits so far (they are closest first). */
function closestWithFewest(targets: readonly TargetUnit[], taken: ReadonlyMap<string, number>): TargetUnit | undefined {
  if (targets.length === 0) return undefined;
  const fewest = Math.min(...targets.map((unit) => taken.get(unit.id) ?? 0));
  return targets.find((candidate) => (taken.get(candidate.id) ?? 0) === fewest);
}
