import type { EventOf, EventType } from "../events/index.js";
import type { Commander } from "../events/common.js";
import type { ArmyState, CampaignState } from "../projections/state.js";
import { COMMANDER_EVENT_SECRETS, commanderLevelInState, spareCommandersInLedger } from "./views-commanders.js";
import { FOG_ARMY_SECRETS, FOG_BATTLE_SECRETS, type FOG_EVENT_SECRETS, FOG_LEDGER_SECRETS } from "./views-fog.js";

/**
 * What a viewer sees in place of a secret. A plain string where the field holds an object (the commander) or, later, a
 * number or a list: never mistaken for a real value.
 */
export const HIDDEN = "hidden" as const;
export type Hidden = typeof HIDDEN;

/** What a view knows besides the record it shows: the campaign as it stands when the view is made. */
export interface ViewContext {
  /** The campaign now (not when a viewed event happened): a secret revealed since is shown in every earlier event. */
  readonly state: CampaignState;
  /**
   * Armies whose commander has been killed in battle, read from the log (logViewContext). Without it a view judges
   * from the state alone, which cannot tell for routed and disbanded armies: it then keeps their commanders hidden.
   */
  readonly killed?: ReadonlySet<string>;
}

/**
 * Where a secret may sit in a record: a field at its top level, or a field of an object at its top level, by path
 * ("attacker.points": the points of a battle's attacking side, not the whole side). Lists are not entered: a secret is
 * a whole list.
 */
export type SecretPath<R> = {
  [K in keyof R & string]: K | (NonNullable<R[K]> extends readonly unknown[] ? never : NonNullable<R[K]> extends object ? `${K}.${keyof NonNullable<R[K]> & string}` : never);
}[keyof R & string];

/**
 * One secret field of a record (an event's data, or one entry of a part of the state): whose secret it is, and when it
 * stops being one. Everyone but its owner sees HIDDEN in its place until it is revealed.
 *
 * `revealed` must answer false whenever the context cannot tell (an empty or stale state, no `killed` set): a view may
 * hide too much, never too little.
 */
export interface SecretField<R, F extends SecretPath<R> = SecretPath<R>> {
  /** The field: at the top level of the record, or in an object the record holds ("attacker.points"). */
  readonly field: F;
  /** The rule of ../shared/RULES.md that makes it secret. */
  readonly rule: string;
  /** The player the secret belongs to; `key` is the record's key in its part of the state, or the event's type. */
  readonly owner: (record: R, key: string) => string;
  readonly revealed: (record: R, context: ViewContext, key: string) => boolean;
}

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
} as const satisfies { readonly [T in EventType]?: readonly SecretField<EventOf<T>["data"]>[] };

/** The parts of the state that are records of entries (by army, objective, player, battle id). */
export type StatePart = "armies" | "objectives" | "homeBases" | "ledgers" | "battles";
export type EntryOf<P extends StatePart> = CampaignState[P][string];

/** Secret fields by part of the state. */
export const STATE_SECRETS = {
  armies: [commanderInState, commanderLevelInState, ...FOG_ARMY_SECRETS],
  ledgers: [spareCommandersInLedger, ...FOG_LEDGER_SECRETS],
  battles: FOG_BATTLE_SECRETS,
} as const satisfies { readonly [P in StatePart]?: readonly SecretField<EntryOf<P>>[] };

type FieldsOf<Table, K> = K extends keyof Table ? (Table[K] extends readonly { field: infer F }[] ? F : never) : never;

/** The top-level fields among secret paths K, the fields holding nested ones, and the nested ones in field P. */
type TopFields<K> = K extends `${string}.${string}` ? never : K;
type HoldingFields<K> = K extends `${infer P}.${string}` ? P : never;
type NestedFields<K, P extends string> = K extends `${P}.${infer F}` ? F : never;
/** A value holding nested secrets as a viewer may see it: an object viewed in turn, anything else (null) as it is. */
type ViewedHolder<V, K> = V extends object ? Viewed<V, K> : V;

/**
 * A record as a viewer may see it: its secret fields may be HIDDEN, at the top level or nested by path (an optional
 * secret field stays optional).
 */
export type Viewed<R, K> = [K] extends [never]
  ? R
  : Omit<R, (TopFields<K> | HoldingFields<K>) & keyof R> & { [F in keyof R as F extends TopFields<K> ? F : never]: R[F] | Hidden } & {
      [F in keyof R as F extends Exclude<HoldingFields<K>, TopFields<K>> ? F : never]: ViewedHolder<R[F], NestedFields<K, F & string>>;
    };

/** The data of an event of type T as a viewer may see it. */
export type ViewedData<T extends EventType> = Viewed<EventOf<T>["data"], FieldsOf<typeof EVENT_SECRETS, T> | FieldsOf<typeof FOG_EVENT_SECRETS, T>>;

/** An entry of a part of the state as a viewer may see it. */
export type ViewedEntry<P extends StatePart> = Viewed<EntryOf<P>, FieldsOf<typeof STATE_SECRETS, P>>;
