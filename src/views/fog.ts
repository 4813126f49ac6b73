import type { EventData, EventType } from "../../events/index.js";
import { advancedRule } from "../../projections/advanced.js";
import type { ArmyState, BattleState, PlayerLedger } from "../../projections/state.js";
import type { SecretField, ViewContext } from "./secret-field.js";

/**
 * A2 fog of war: the enemy sees an army's name, square and move rate, never its points or what they can be worked out
 * from: its roster, the units it sends In Transit or takes from the Reserves, what it buys, the Reserves themselves,
 * the war chest that pays for purchases. A size stated to a scout (A3, ArmySizeStated) is public as stated; a battle is
 * public from the Battle phase on, result included, as it is fought on the table.
 */

/** Fog hides nothing only when the campaign is known to play without A2 (an unknown set-up keeps everything hidden). */
export function fogLifted(context: ViewContext): boolean {
  const setup = context.state.setup;
  return setup !== null && !advancedRule(setup.options, "fogOfWar");
}

/** A field of a record that names its player, its owner's under fog of war. */
function fogged<R extends { player: string }, F extends keyof R & string>(field: F): SecretField<R, F> {
  return { field, rule: "A2", owner: (record) => record.player, revealed: (_record, context) => fogLifted(context) };
}

/** The fog secrets of one event type: `fields` of its data, whose `player` owns them. */
function foggedEvent<T extends EventType, F extends keyof EventData<T> & string>(
  type: T,
  ...fields: F[]
): SecretField<EventData<T>, F>[] {
  const owner = (data: EventData<T>) => {
    if (!("player" in data)) throw new TypeError(`${type} names no player to own its fogged fields`);
    return data.player;
  };
  return fields.map((field) => ({ field, rule: "A2", owner, revealed: (_data, context) => fogLifted(context) }));
}

/** Secret fields of events under fog of war, by event type (merged with other rules' rows in src/views/secrets.ts). */
export const FOG_EVENT_SECRETS = {
  ArmyRegistered: foggedEvent("ArmyRegistered", "formations"),
  ArmyRaised: foggedEvent("ArmyRaised", "formations", "units"),
  ArmyPurchased: foggedEvent("ArmyPurchased", "formations", "cost"),
  FormationsPurchased: foggedEvent("FormationsPurchased", "formations", "cost"),
  ArmyRouted: foggedEvent("ArmyRouted", "units"),
  ArmyDisbanded: foggedEvent("ArmyDisbanded", "units"),
  FormationsBrokenDown: foggedEvent("FormationsBrokenDown", "formations", "units"),
  FormationReinforced: foggedEvent("FormationReinforced", "formation", "units"),
  FormationReplaced: foggedEvent("FormationReplaced", "replaced", "formation", "units"),
  TransitArrived: foggedEvent("TransitArrived", "units"),
  FormationsTraded: foggedEvent("FormationsTraded", "tradedIn", "bought", "unitsOut", "unitsIn", "points"),
  // A8: the balance would give away what formations and armies cost (the rest of the spending and the income are
  // public); a deduction stopped at 0 (floorCut, change) tells the balance.
  WarChestIncomeRecorded: foggedEvent("WarChestIncomeRecorded", "change", "floorCut", "balance"),
  // A8: a repair names a titan the army still has and its damage, which the roster and titan damage hide.
  TitanRepaired: foggedEvent("TitanRepaired", "formation", "shields", "weapons", "cost"),
  // A8: a repair in the Reserves names a titan they hold, which the Reserves hide.
  ReserveTitanRepaired: foggedEvent("ReserveTitanRepaired", "unitType", "titan", "shields", "weapons", "cost"),
};

/** An army's points, roster and titan damage: its owner's under fog of war. */
export const FOG_ARMY_SECRETS = [
  fogged<ArmyState, "points">("points"),
  fogged<ArmyState, "formations">("formations"),
  fogged<ArmyState, "titanDamage">("titanDamage"),
];

/**
 * A player's Reserves (with their damaged titans, A8) and In Transit units, and its war chest (A8), whose balance would
 * tell what its purchases of formations and armies cost; the ledger's key is the player.
 */
export const FOG_LEDGER_SECRETS = (["reserves", "damagedTitans", "inTransit", "warChest"] as const).map(
  (field): SecretField<PlayerLedger, "reserves" | "damagedTitans" | "inTransit" | "warChest"> => ({
    field,
    rule: "A2",
    owner: (_ledger, player) => player,
    revealed: (_ledger, context) => fogLifted(context),
  }),
);

/** Ruling: from the Battle phase on, a battle is fought on the table, where both armies stand in the open. */
const onTheTable = (battle: BattleState, context: ViewContext) =>
  fogLifted(context) || context.state.turn > battle.turn || context.state.phase !== "action";

/**
 * A battle's size and VP target give away the enemy's points (take one's own from the average): hidden from both
 * players while the Action phase of its turn lasts.
 */
const battleSize = (["averagePoints", "vpTarget"] as const).map(
  (field): SecretField<BattleState, "averagePoints" | "vpTarget"> => ({
    field,
    rule: "A2",
    owner: () => "",
    revealed: onTheTable,
  }),
);

/** Each side's points when the battle started: its own player's until the battle is on the table. */
const sidePoints = (["attacker", "defender"] as const).map(
  (side): SecretField<BattleState, "attacker.points" | "defender.points"> => ({
    field: `${side}.points`,
    rule: "A2",
    owner: (battle) => battle[side].player,
    revealed: onTheTable,
  }),
);

/** A battle's secrets under fog of war: its size, and each side's points. */
export const FOG_BATTLE_SECRETS = [...battleSize, ...sidePoints];
