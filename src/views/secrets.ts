import type { EventData, EventType } from "../../events/index.js";
import type { Commander } from "../../events/common.js";
import type { ArmyState, CampaignState } from "../../projections/state.js";
import { COMMANDER_EVENT_SECRETS, commanderLevelInState, spareCommandersInLedger } from "./commanders.js";
import { FOG_ARMY_SECRETS, FOG_BATTLE_SECRETS, type FOG_EVENT_SECRETS, FOG_LEDGER_SECRETS } from "./fog.js";
import type { SecretField } from "./secret-field.js";

/**
 * What a viewer sees in place of a secret. A plain string where the field holds an object (the commander) or, later, a
 * number or a list: never mistaken for a real value.
 */
export const HIDDEN = "hidden" as const;
export type Hidden = typeof HIDDEN;

/**
 * S8: whether the army's commander has been killed, so that the enemy may know it. Killed means that a battle left no
 * unit of the commander's type in the commander's formation (the commander is one of them; while any is left the
 * enemy cannot know it is dead). From the state alone that is certain only for an army still on the map; units that
 * went In Transit (routed, disbanded, broken down) are not losses. The log tells the rest: pass `killed`
 * (from logViewContext) for the whole answer.
 */
export function commanderKilled(state: CampaignState, armyId: string, killed?: ReadonlySet<string>): boolean {
  if (killed?.has(armyId)) return true;
  const army = state.armies[armyId];
  if (!army || army.status !== "active") return false;
  const formation = army.formations.find((f) => f.id === army.commander.formation);
  // A formation gone from an army on the map was broken down (not killed) or replaced once wiped out (the log knows).
  if (!formation) return false;
  return (formation.units[army.commander.unitType] ?? 0) === 0;
}

/** An army's commander in the events that name it (ArmyRegistered, ArmyRaised): its owner's until killed (S8). */
const commanderInEvent: SecretField<{ army: string; player: string; commander: Commander }, "commander"> = {
  field: "commander",
  rule: "S8",
  owner: (data) => data.player,
  revealed: (data, context) => commanderKilled(context.state, data.army, context.killed),
};

/** An army's commander in the state. */
const commanderInState: SecretField<ArmyState, "commander"> = {
  field: "commander",
  rule: "S8",
  owner: (army) => army.player,
  revealed: (army, context) => commanderKilled(context.state, army.id, context.killed),
};

/*
 * THE table of secrets: every field of the log and of the state that a player may not see of the other side. Every
 * view (viewEvent, viewState) is driven by it and by nothing else; a new secret is one entry here.
 *
 * Nothing else in the log is secret by construction: an order is a salted commitment until its reveal (T5), the host's
 * dice seed a hash until TurnEnded (D1); a player's own orders and salts live in its secrets file, never in the log.
 *
 * A2 (fog of war) rows live in ./views-fog.ts: the state rows are listed in STATE_SECRETS below, the event rows are
 * merged with EVENT_SECRETS by viewEvent. A battle's sides are owned one each: their rows name a path
 * ("attacker.points"). A battle's result is not secret: it is fought on the table, in the open.
 */

/** Secret fields by event type. */
export const EVENT_SECRETS = {
  ArmyRegistered: [commanderInEvent],
  ArmyRaised: [commanderInEvent],
  ArmyPurchased: [commanderInEvent],
  ...COMMANDER_EVENT_SECRETS,
} as const satisfies { readonly [T in EventType]?: readonly SecretField<EventData<T>>[] };

/** The parts of the state that are records of entries (by army, objective, player, battle id). */
export type StatePart = "armies" | "objectives" | "homeBases" | "ledgers" | "battles";
export type EntryOf<P extends StatePart> = CampaignState[P][string];

/** Secret fields by part of the state. */
export const STATE_SECRETS = {
  armies: [commanderInState, commanderLevelInState, ...FOG_ARMY_SECRETS],
  ledgers: [spareCommandersInLedger, ...FOG_LEDGER_SECRETS],
  battles: FOG_BATTLE_SECRETS,
} as const satisfies { readonly [P in StatePart]?: readonly SecretField<EntryOf<P>>[] };

export type FieldsOf<Table, K> = K extends keyof Table
  ? Table[K] extends readonly { field: infer F }[]
    ? F
    : never
  : never;

/** The top-level fields among secret paths K, the fields holding nested ones, and the nested ones in field P. */
export type TopFields<K> = K extends `${string}.${string}` ? never : K;
export type HoldingFields<K> = K extends `${infer P}.${string}` ? P : never;
export type NestedFields<K, P extends string> = K extends `${P}.${infer F}` ? F : never;
/** A value holding nested secrets as a viewer may see it: an object viewed in turn, anything else (null) as it is. */
export type ViewedHolder<V, K> = V extends object ? Viewed<V, K> : V;

/**
 * A record as a viewer may see it: its secret fields may be HIDDEN, at the top level or nested by path (an optional
 * secret field stays optional).
 */
export type Viewed<R, K> = [K] extends [never]
  ? R
  : Omit<R, (TopFields<K> | HoldingFields<K>) & keyof R> & {
      [F in keyof R as F extends TopFields<K> ? F : never]: R[F] | Hidden;
    } & {
      [F in keyof R as F extends Exclude<HoldingFields<K>, TopFields<K>> ? F : never]: ViewedHolder<
        R[F],
        NestedFields<K, F & string>
      >;
    };

/** The data of an event of type T as a viewer may see it. */
export type ViewedData<T extends EventType> = Viewed<
  EventData<T>,
  FieldsOf<typeof EVENT_SECRETS, T> | FieldsOf<typeof FOG_EVENT_SECRETS, T>
>;

/** An entry of a part of the state as a viewer may see it. */
export type ViewedEntry<P extends StatePart> = Viewed<EntryOf<P>, FieldsOf<typeof STATE_SECRETS, P>>;
