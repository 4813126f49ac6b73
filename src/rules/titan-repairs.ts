import type { SideResult, TitanDamage } from "../../events/common.js";
import type { DomainEvent } from "../../events/index.js";
import type { TitanRepaired } from "../../events/TitanRepaired.js";
import { advancedRule } from "../../projections/advanced.js";
import type { ArmyState, BattleState, CampaignState } from "../../projections/state.js";
import { SHIELD_REPAIR_COST } from "../../projections/war-chest.js";
import type { CommandOf } from "../engine/command-schemas.js";
import { requireEndPhasePlayer, requireOwnArmy } from "./guards.js";
import { refuseField, refuseRule, resultField } from "./refusal.js";
import { hasUnits, ledgerOf } from "./reserves.js";
import { requireSetup } from "./guards.js";
import { requireWarChestOpen, requireWarChestSpend } from "./war-chest.js";

/**
 * A8 titan damage: entered with a battle result, carried on the army while A8 is on, and with the titan through In
 * Transit and the Reserves; repaired from the war chest in an army or in the Reserves.
 */

/** B4, A8: titan damage in a result names titan formations of the side's army. */
export function checkTitanDamage(state: CampaignState, army: ArmyState, result: SideResult, role: string): void {
  const { catalogue } = requireSetup(state);
  for (const formationId of Object.keys(result.titanDamage ?? {})) {
    const formation = army.formations.find((f) => f.id === formationId);
    const field = resultField(role, "titanDamage", formationId);
    if (!formation)
      refuseRule("B4", `the ${role}'s army "${army.id}" has no formation "${formationId}" to take titan damage`, field);
    const kind = catalogue.formations[formation.formation]?.kind;
    if (kind !== "titan")
      refuseRule(
        "B4",
        `formation "${formationId}" of the ${role}'s army "${army.id}" is a ${kind} formation, not a titan`,
        field,
      );
  }
}

const damaged = (damage: TitanDamage) => damage.shields > 0 || damage.weapons.length > 0;

/** A8: with the war chest in play, the damage each side's titans took stays with them (B5 repairs it only without A8). */
export function titanDamageCarried(
  state: CampaignState,
  battle: BattleState,
  result: { attacker: SideResult; defender: SideResult },
): DomainEvent[] {
  if (!advancedRule(requireSetup(state).options, "warChest")) return [];
  return [
    [battle.attacker, result.attacker],
    [battle.defender, result.defender],
  ].flatMap(([side, sideResult]) => {
    const damage = Object.fromEntries(
      Object.entries((sideResult as SideResult).titanDamage ?? {}).filter(([, d]) => damaged(d)),
    );
    if (Object.keys(damage).length === 0) return [];
    const { army, player } = side as BattleState["defender"];
    return [
      { type: "TitanDamageCarried" as const, data: { turn: state.turn, battle: battle.id, army, player, damage } },
    ];
  });
}

type RepairOrder = Pick<CommandOf<"RepairTitan">, "shields" | "weapons">;

/** A8: the repairs a command asks of a titan's carried damage, each priced; refused where it asks for more than there is. */
function priceRepairs(
  damage: TitanDamage,
  repair: RepairOrder,
  titan: string,
): { weapons: TitanRepaired["weapons"]; cost: number } {
  if (repair.shields === 0 && repair.weapons.length === 0)
    refuseRule("A8", "a repair names at least one shield or weapon");
  if (repair.shields > damage.shields) {
    refuseRule("A8", `${titan} has ${damage.shields} shields/fields down: ${repair.shields} cannot be restored`);
  }
  const left = [...damage.weapons];
  const weapons = repair.weapons.map((weapon, i) => {
    const index = left.findIndex((w) => w.name === weapon.destroyed);
    if (index < 0) refuseRule("A8", `${titan} has no destroyed "${weapon.destroyed}" left to replace (weapons[${i}])`);
    const [destroyed] = left.splice(index, 1);
    // Like for like costs half the weapon's chart cost, rounded up; another weapon costs its own full cost.
    return weapon.replacement
      ? { destroyed: weapon.destroyed, replacement: weapon.replacement.name, points: weapon.replacement.points }
      : { destroyed: weapon.destroyed, replacement: weapon.destroyed, points: Math.ceil(destroyed!.points / 2) };
  });
  return { weapons, cost: repair.shields * SHIELD_REPAIR_COST + weapons.reduce((sum, w) => sum + w.points, 0) };
}

export function decideRepairTitan(state: CampaignState, command: CommandOf<"RepairTitan">): DomainEvent[] {
  const player = requireEndPhasePlayer(state, command.actor, "A8", "the war chest is spent");
  requireWarChestOpen(state, player.id, "titan repairs");
  const army = requireOwnArmy(state, player, command.army, "A8");
  const formation = army.formations.find((f) => f.id === command.formation);
  if (!formation) refuseField("formation", `army "${army.id}" has no formation "${command.formation}"`);
  if (!hasUnits(formation))
    refuseRule("A8", `titan "${formation.id}" of army "${army.id}" was destroyed: there is nothing left to repair`);
  const damage = army.titanDamage?.[formation.id];
  if (!damage) refuseRule("A8", `titan "${formation.id}" of army "${army.id}" carries no damage`);
  const { weapons, cost } = priceRepairs(damage, command, `titan "${formation.id}"`);
  requireWarChestSpend(state, player.id, cost, `repairs to titan "${formation.id}" of army "${army.id}"`);
  return [
    {
      type: "TitanRepaired",
      data: {
        turn: state.turn,
        player: player.id,
        army: army.id,
        formation: formation.id,
        shields: command.shields,
        weapons,
        cost,
      },
    },
  ];
}

/** A8: a titan held in the Reserves keeps its damage, and may be repaired there like one in an army. */
export function decideRepairReserveTitan(
  state: CampaignState,
  command: CommandOf<"RepairReserveTitan">,
): DomainEvent[] {
  const player = requireEndPhasePlayer(state, command.actor, "A8", "the war chest is spent");
  requireWarChestOpen(state, player.id, "titan repairs");
  const damaged = ledgerOf(state, player.id).damagedTitans?.[command.unitType] ?? [];
  const damage = damaged[command.titan];
  if (!damage) {
    refuseRule(
      "A8",
      `the Reserves hold ${damaged.length} damaged "${command.unitType}" titan${damaged.length === 1 ? "" : "s"}: there is no titan ${command.titan} of them to repair (counted from 0, the most damaged first)`,
    );
  }
  const titan = `the damaged "${command.unitType}" titan ${command.titan} in the Reserves`;
  const { weapons, cost } = priceRepairs(damage, command, titan);
  requireWarChestSpend(state, player.id, cost, `repairs to ${titan}`);
  return [
    {
      type: "ReserveTitanRepaired",
      data: {
        turn: state.turn,
        player: player.id,
        unitType: command.unitType,
        titan: command.titan,
        shields: command.shields,
        weapons,
        cost,
      },
    },
  ];
}
