import type { SideResult, TitanDamage } from "../../events/common.js";
import type { DomainEvent } from "../../events/index.js";
import { advancedRule } from "../../projections/derived.js";
import type { ArmyState, BattleState, CampaignState } from "../../projections/state.js";
import type { CommandOf } from "../commands/schemas.js";
import { requireEndPhasePlayer, requireOwnArmy } from "./end-phase.js";
import { refuseField, refuseRule } from "./refusal.js";
import { hasUnits } from "./reserves.js";
import { requireSetup } from "./setup.js";
import { requireWarChestOpen, requireWarChestSpend } from "./war-chest.js";

/** A8 titan damage: entered with a battle result, carried on the army while A8 is on, repaired from the war chest. */

/** A8: a shield or field system costs 100 points to replace. */
export const SHIELD_REPAIR_COST = 100;

/** B4, A8: titan damage in a result names titan formations of the side's army. */
export function checkTitanDamage(state: CampaignState, army: ArmyState, result: SideResult, role: string): void {
  const { catalogue } = requireSetup(state);
  for (const formationId of Object.keys(result.titanDamage ?? {})) {
    const formation = army.formations.find((f) => f.id === formationId);
    if (!formation) refuseRule("B4", `the ${role}'s army "${army.id}" has no formation "${formationId}" to take titan damage`);
    const kind = catalogue.formations[formation.formation]?.kind;
    if (kind !== "titan") refuseRule("B4", `formation "${formationId}" of the ${role}'s army "${army.id}" is a ${kind} formation, not a titan`);
  }
}

const damaged = (damage: TitanDamage) => damage.shields > 0 || damage.weapons.length > 0;

/** A8: with the war chest in play, the damage each side's titans took stays with them (B5 repairs it only without A8). */
export function titanDamageCarried(state: CampaignState, battle: BattleState, result: { attacker: SideResult; defender: SideResult }): DomainEvent[] {
  if (!advancedRule(requireSetup(state).options, "warChest")) return [];
  return [
    [battle.attacker, result.attacker],
    [battle.defender, result.defender],
  ].flatMap(([side, sideResult]) => {
    const damage = Object.fromEntries(Object.entries((sideResult as SideResult).titanDamage ?? {}).filter(([, d]) => damaged(d)));
    if (Object.keys(damage).length === 0) return [];
    const { army, player } = side as BattleState["defender"];
    return [{ type: "TitanDamageCarried" as const, data: { turn: state.turn, battle: battle.id, army, player, damage } }];
  });
}

export function decideRepairTitan(state: CampaignState, command: CommandOf<"RepairTitan">): DomainEvent[] {
  const player = requireEndPhasePlayer(state, command.actor, "A8", "the war chest is spent");
  requireWarChestOpen(state, player.id, "titan repairs");
  const army = requireOwnArmy(state, player, command.army, "A8");
  const formation = army.formations.find((f) => f.id === command.formation);
  if (!formation) refuseField("formation", `army "${army.id}" has no formation "${command.formation}"`);
  if (!hasUnits(formation)) refuseRule("A8", `titan "${formation.id}" of army "${army.id}" was destroyed: there is nothing left to repair`);
  const damage = army.titanDamage?.[formation.id];
  if (!damage) refuseRule("A8", `titan "${formation.id}" of army "${army.id}" carries no damage`);
  if (command.shields === 0 && command.weapons.length === 0) refuseRule("A8", "a repair names at least one shield or weapon");
  if (command.shields > damage.shields) {
    refuseRule("A8", `titan "${formation.id}" has ${damage.shields} shields/fields down: ${command.shields} cannot be restored`);
  }
  const left = [...damage.weapons];
  const weapons = command.weapons.map((weapon, i) => {
    const index = left.findIndex((w) => w.name === weapon.destroyed);
    if (index < 0) refuseRule("A8", `titan "${formation.id}" has no destroyed "${weapon.destroyed}" left to replace (weapons[${i}])`);
    const [destroyed] = left.splice(index, 1);
    // Like for like costs half the weapon's chart cost, rounded up; another weapon costs its own full cost.
    return weapon.replacement
      ? { destroyed: weapon.destroyed, replacement: weapon.replacement.name, points: weapon.replacement.points }
      : { destroyed: weapon.destroyed, replacement: weapon.destroyed, points: Math.ceil(destroyed!.points / 2) };
  });
  const cost = command.shields * SHIELD_REPAIR_COST + weapons.reduce((sum, w) => sum + w.points, 0);
  requireWarChestSpend(state, player.id, cost, `repairs to titan "${formation.id}" of army "${army.id}"`);
  return [{ type: "TitanRepaired", data: { turn: state.turn, player: player.id, army: army.id, formation: formation.id, shields: command.shields, weapons, cost } }];
}
