import type { EventOf, EventType } from "../events/index.js";
import { advancedRule } from "../projections/derived.js";
import type { ArmyState, BattleState, PlayerLedger } from "../projections/state.js";
import type { SecretField, ViewContext } from "./views-secrets.js";

/**
 * A2 fog of war: the enemy sees an army's name, square and move rate, never its points or what they can be worked out
 * from: its roster, the units it sends In Transit or takes from the Reserves, what it buys, the Reserves themselves.
 * A size stated to a scout (A3, ArmySizeStated) is public as stated.
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
function foggedEvent<T extends EventType, F extends keyof EventOf<T>["data"] & string>(type: T, ...fields: F[]): SecretField<EventOf<T>["data"], F>[] {
  const owner = (data: EventOf<T>["data"]) => {
    if (!("player" in data)) throw new TypeError(`${type} names no player to own its fogged fields`);
    return data.player;
  };
  return fields.map((field) => ({ field, rule: "A2", owner, revealed: (_data, context) => fogLifted(context) }));
}

/** Secret fields of events under fog of war, by event type (merged with other rules' rows in views-secrets.ts). */
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
};

/** An army's points, roster and titan damage: its owner's under fog of war. */
export const FOG_ARMY_SECRETS = [fogged<ArmyState, "points">("points"), fogged<ArmyState, "formations">("formations"), fogged<ArmyState, "titanDamage">("titanDamage")];

/** A player's Reserves and In Transit units; the ledger's key is the player. */
export const FOG_LEDGER_SECRETS = (["reserves", "inTransit"] as const).map(
  (field): SecretField<PlayerLedger, "reserves" | "inTransit"> => ({ field, rule: "A2", owner: (_ledger, player) => player, revealed: (_ledger, context) => fogLifted(context) }),
);

/**
 * A battle's size and VP target give away the enemy's points (take one's own from the average): hidden from both
 * players while the Action phase of its turn lasts (ruling: from the Battle phase on, the battle is fought on the
 * table, where both armies stand in the open).
 */
export const FOG_BATTLE_SECRETS = (["averagePoints", "vpTarget"] as const).map(
  (field): SecretField<BattleState, "averagePoints" | "vpTarget"> => ({
    field,
    rule: "A2",
    owner: () => "",
    revealed: (battle, context) => fogLifted(context) || context.state.turn > battle.turn || context.state.phase !== "action",
  }),
);
