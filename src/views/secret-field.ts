import type { SettledBattles } from "../../projections/settled-battles.js";
import type { CampaignState } from "../../projections/state.js";

/** What a view knows besides the record it shows: the campaign as it stands when the view is made. */
export interface ViewContext {
  /** The campaign now (not when a viewed event happened): a secret revealed since is shown in every earlier event. */
  readonly state: CampaignState;
  /**
   * Armies whose commander has been killed in battle, read from the log (logViewContext). Without it a view judges
   * from the state alone, which cannot tell for routed and disbanded armies: it then keeps their commanders hidden.
   */
  readonly killed?: ReadonlySet<string>;
  /**
   * The battles of the turns before the state's (projections/settled-battles.ts), read from the log with it
   * (logViewContext): a view shows them beside the state's own. Without it a view shows the current turn's battles.
   */
  readonly settled?: SettledBattles;
}

/**
 * Where a secret may sit in a record: a field at its top level, or a field of an object at its top level, by path
 * ("attacker.points": the points of a battle's attacking side, not the whole side). Lists are not entered: a secret is
 * a whole list.
 */
export type SecretPath<R> = {
  [K in keyof R & string]:
    | K
    | (NonNullable<R[K]> extends readonly unknown[]
        ? never
        : NonNullable<R[K]> extends object
          ? `${K}.${keyof NonNullable<R[K]> & string}`
          : never);
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
