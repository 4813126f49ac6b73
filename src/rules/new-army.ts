import { requireAllies } from "./allies.js";
import type { Catalogue, Commander, FormationEntry, RosterFormation, Square } from "../../events/common.js";
import { attachNew } from "./attachments.js";
import { armyPoints } from "../../projections/units.js";
import { onMap, sameSquare } from "../../projections/grid.js";
import type { CampaignSetup, CampaignState } from "../../projections/state.js";
import { pts, refuseField, refuseRule, sq } from "./refusal.js";
import { fullStrength } from "./reserves.js";

/**
 * What a new army must be, however it comes: raised from the Reserves (E6a) or bought from the war chest (A8). Where
 * it may stand and what pays for it are for the caller.
 */

/** S2: the smallest army. */
export const MIN_ARMY_POINTS = 1000;

/** A new army as RaiseArmy and BuyArmy name it. */
export interface NewArmyOrder {
  army: string;
  formations: readonly FormationEntry[];
  commander: Commander;
  at: Square;
}

/**
 * S8: full-strength roster entries for catalogue formations, each id unique in the command and new to the formations
 * `taken` of the army they join, each attachable one attached to a company (E5).
 */
export function fullStrengthRoster(
  catalogue: Catalogue,
  entries: NewArmyOrder["formations"],
  taken: readonly RosterFormation[] = [],
): RosterFormation[] {
  const existing = new Set(taken.map((f) => f.id));
  const named = new Set<string>();
  const roster = entries.map((entry, i) => {
    if (existing.has(entry.id))
      refuseField(`formations[${i}].id`, `formation id "${entry.id}" is already used in this army`);
    if (named.has(entry.id))
      refuseField(`formations[${i}].id`, `formation id "${entry.id}" is used twice in this army`);
    named.add(entry.id);
    return { id: entry.id, formation: entry.formation, units: fullStrength(catalogue, entry.formation) };
  });
  return attachNew(catalogue, entries, roster, [...taken, ...roster], (i) => `formations[${i}].attachedTo`);
}

/**
 * S8, S2: an army fielded from catalogue formations (registered at set-up, raised or bought later) has an unused id,
 * formations at full strength, a commander that is a unit of its formation, and 1,000 to M points (exactly the
 * campaign's army size when it sets one). Returns its roster.
 */
export function requireArmyRoster(
  state: CampaignState,
  setup: CampaignSetup,
  command: Omit<NewArmyOrder, "at">,
): RosterFormation[] {
  if (state.armies[command.army]) refuseField("army", `army "${command.army}" already exists`);
  const formations = fullStrengthRoster(setup.catalogue, command.formations);
  const commander = formations.find((f) => f.id === command.commander.formation);
  if (!commander) refuseRule("S8", `the commander's formation "${command.commander.formation}" is not in this army`);
  if (!commander.units[command.commander.unitType]) {
    refuseRule(
      "S8",
      `the commander must be a unit of its formation: "${commander.id}" has no "${command.commander.unitType}"`,
    );
  }
  const total = armyPoints(formations, setup.catalogue);
  const { maxArmyPoints } = setup.force;
  if (total < MIN_ARMY_POINTS || total > maxArmyPoints) {
    refuseRule(
      "S2",
      `army "${command.army}" is ${pts(total)} points: each army must be 1,000 to M = ${pts(maxArmyPoints)}`,
    );
  }
  if (setup.options.armySize !== undefined && total !== setup.options.armySize) {
    refuseRule(
      "S2",
      `army "${command.army}" is ${pts(total)} points: this campaign's armies are all exactly ${pts(setup.options.armySize)}`,
    );
  }
  requireAllies(setup, command.army, formations, "its roster");
  return formations;
}

/** A new army raised or bought in the End phase: its roster (requireArmyRoster), on a square of the map. */
export function requireNewArmy(state: CampaignState, setup: CampaignSetup, command: NewArmyOrder): RosterFormation[] {
  const formations = requireArmyRoster(state, setup, command);
  if (!onMap(setup.map, command.at))
    refuseField("at", `${sq(command.at)} is off the ${setup.map.width}x${setup.map.height} map`);
  return formations;
}

/** S7: a new army's square holds no other army, except the owner's armies stacked on its own home base. */
export function requireFreeSquare(state: CampaignState, player: string, at: Square): void {
  const homeBase = state.homeBases[player];
  const onHomeBase = homeBase !== undefined && sameSquare(homeBase.at, at);
  const occupant = Object.values(state.armies).find(
    (other) =>
      other.status === "active" &&
      other.at !== null &&
      sameSquare(other.at, at) &&
      (!onHomeBase || other.player !== player),
  );
  if (occupant)
    refuseRule("S7", `${sq(at)} already holds army "${occupant.id}": armies stack only on their own home base`);
}
