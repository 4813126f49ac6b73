/**
 * Player views: what one party may see of the campaign. Every path that shows anything to a player (state as text and
 * JSON, the log as text and JSON Lines, the event feed of apply, battle sheets, the audit's public log) goes through
 * viewState or viewEvent, and those are driven by one table of secrets (./views-secrets.ts).
 *
 * Viewers: a player id sees its own secrets and what the other side has revealed; "host" (who runs the log) and no
 * viewer at all see the log as stored. Nobody's view holds another party's secrets file: a player's view adds only
 * its own held orders (ownHeldOrders).
 */
import { HOST, type Order } from "../../events/common.js";
import { toCurrent, type CurrentEvent, type EventType, type StoredEvent } from "../../events/index.js";
import { allBattles } from "../../projections/settled-battles.js";
import type { CampaignState } from "../../projections/state.js";
import type { SecretKeeper } from "../client/party-secrets.js";
import { orderCommitment } from "../crypto/commitments.js";
import { EVENT_SECRETS, HIDDEN, STATE_SECRETS, type StatePart, type ViewedData, type ViewedEntry } from "./secrets.js";
import type { SecretField, ViewContext } from "./secret-field.js";
import { FOG_EVENT_SECRETS } from "./fog.js";

export { commanderKilled, HIDDEN, EVENT_SECRETS, STATE_SECRETS } from "./secrets.js";
export type { Hidden, ViewedData, ViewedEntry } from "./secrets.js";
export type { SecretField, ViewContext } from "./secret-field.js";

/** Who is looking: a player id, "host", or undefined for everything the log shows. */
export type Viewer = string | undefined;

/** Whether this viewer sees the log as stored: no viewer, or the host. */
export function seesAll(viewer: Viewer): viewer is undefined | typeof HOST {
  return viewer === undefined || viewer === HOST;
}

/** A row of the tables with its record type erased: each row was checked against its record type where it is listed. */
type AnySecret = Pick<SecretField<never>, "rule"> & {
  readonly field: string;
  readonly owner: (record: never, key: string) => string;
  readonly revealed: (record: never, context: ViewContext, key: string) => boolean;
};
type EventTable = Readonly<Partial<Record<string, readonly AnySecret[]>>>;
/** The commanders' table of event secrets and, under fog of war (A2), the rosters and points of src/views/fog.ts. */
const EVENT_TABLE: EventTable = mergeEventTables(EVENT_SECRETS, FOG_EVENT_SECRETS);

function mergeEventTables(...tables: EventTable[]): EventTable {
  const merged: Record<string, AnySecret[]> = {};
  for (const table of tables)
    for (const [type, secrets] of Object.entries(table)) merged[type] = [...(merged[type] ?? []), ...(secrets ?? [])];
  return merged;
}
const STATE_TABLE: ReadonlyArray<readonly [StatePart, readonly AnySecret[]]> = Object.entries(STATE_SECRETS) as Array<
  [StatePart, readonly AnySecret[]]
>;

/**
 * Replaces the record's secret fields that are neither the viewer's nor revealed with HIDDEN. Returns the record itself
 * when nothing is hidden, and the paths of the fields it hid.
 */
function redact<R extends object>(
  record: R,
  secrets: readonly AnySecret[],
  viewer: string,
  context: ViewContext,
  key: string,
): { record: R; hidden: string[] } {
  let out = record;
  const hidden: string[] = [];
  for (const secret of secrets) {
    if (secret.owner(record as never, key) === viewer || secret.revealed(record as never, context, key)) continue;
    const concealed = conceal(out, secret.field);
    if (concealed === undefined) continue;
    out = concealed;
    hidden.push(secret.field);
  }
  return { record: out, hidden };
}

/**
 * A copy of the record with the field at `path` HIDDEN, the objects on the way copied, never changed. Undefined when a
 * nested path has no object to enter (a field already HIDDEN whole): there is nothing left there to hide.
 */
function conceal<R extends object>(record: R, path: string): R | undefined {
  const dot = path.indexOf(".");
  if (dot < 0) return { ...record, [path]: HIDDEN };
  const field = path.slice(0, dot);
  const holder = (record as Record<string, unknown>)[field];
  if (holder === null || typeof holder !== "object") return undefined;
  const concealed = conceal(holder, path.slice(dot + 1));
  return concealed && { ...record, [field]: concealed };
}

// ---------------------------------------------------------------------------------------------------------------
// State

/** The campaign state as a viewer may see it. */
export type CampaignView = {
  [K in keyof CampaignState]: K extends StatePart ? Record<string, ViewedEntry<K>> : CampaignState[K];
};

/**
 * What a viewer may see of the campaign state, with the settled battles the context holds beside the state's own: for
 * a player, everything the log shows less the other side's secrets (the identity of its living commanders, S8).
 * Orders are in the state only once revealed; a player's hidden orders are added from its own secrets by
 * ownHeldOrders. `context` defaults to the state itself (see ViewContext.killed), with no settled battles.
 */
export function viewState(state: CampaignState, viewer: Viewer, context: ViewContext = { state }): CampaignView {
  const settled = context.settled ?? {};
  const whole = Object.keys(settled).length > 0 ? { ...state, battles: allBattles({ state, settled }) } : state;
  if (seesAll(viewer)) return whole;
  const view: Record<string, unknown> = { ...whole };
  for (const [part, secrets] of STATE_TABLE) {
    const entries = whole[part] as Record<string, object>;
    view[part] = Object.fromEntries(
      Object.entries(entries).map(([key, entry]) => [key, redact(entry, secrets, viewer, context, key).record]),
    );
  }
  return view as CampaignView;
}

/**
 * The viewer's own hidden orders of the state's turn, from its own secrets (never another party's): the orders it had
 * given and not yet revealed as the state stands. The secrets file is today's: for a state of the past it also holds
 * orders given after that moment. So an order is shown only where the state has the army activated, its order not
 * yet revealed, with the very commitment the kept order and salt open (T5). Empty for the host and for no viewer.
 */
export async function ownHeldOrders(
  state: CampaignView,
  viewer: Viewer,
  secrets: SecretKeeper,
): Promise<Record<string, Order>> {
  const held: Record<string, Order> = {};
  if (seesAll(viewer) || state.campaign === null) return held;
  const activations = state.turnState?.activations ?? {};
  for (const army of Object.values(state.armies).filter((a) => a.player === viewer)) {
    const activation = activations[army.id];
    if (!activation || activation.order !== null) continue;
    const kept = (await secrets.ordersKept(viewer, state.turn, army.id)).find(
      ({ order, salt }) =>
        orderCommitment({ campaign: state.campaign!, turn: state.turn, army: army.id, order, salt }) ===
        activation.commitment,
    );
    if (kept) held[army.id] = kept.order;
  }
  return held;
}

// ---------------------------------------------------------------------------------------------------------------
// Events

/** An event type and its data as a viewer may see them. */
export type ViewedDomainEvent = { [T in EventType]: { type: T; data: ViewedData<T> } }[EventType];

/**
 * An event as a player sees it: the envelope (stream, seq, version, at, actor) and the data with the other side's
 * secrets HIDDEN, at the current version of its type. It carries no chain hashes (`prev`, `hash`): a hash over a
 * hidden field gives the field away to anyone who tries the few values it can take (a commander is one unit type of
 * one formation of a known roster), and that holds for every later hash of the chain too. The chain is checked on the
 * full log (epicwar verify), by the host or anyone who holds it. `redacted` names the data fields hidden in this event.
 */
export type PlayerEvent = Omit<CurrentEvent, "type" | "data" | "prev" | "hash"> &
  ViewedDomainEvent & { redacted?: string[] };

/** An event as a viewer sees it: as stored for the host and for no viewer, a PlayerEvent for a player. */
export type EventView<E extends StoredEvent | CurrentEvent = CurrentEvent> = E | PlayerEvent;

/**
 * What a viewer may see of one event, judged with the campaign as it stands now (`context`): for a player, the other
 * side's secrets are HIDDEN unless revealed by now (a commander killed since shows in its ArmyRegistered too), and the
 * chain hashes are left out (see PlayerEvent). The host and no viewer get the event itself, as stored.
 */
export function viewEvent<E extends StoredEvent | CurrentEvent>(
  event: E,
  viewer: Viewer,
  context: ViewContext,
): EventView<E> {
  if (seesAll(viewer)) return event;
  const { stream, seq, type, version, at, actor, data } = toCurrent(event);
  const { record, hidden } = redact(data as object, EVENT_TABLE[type] ?? [], viewer, context, type);
  // The envelope field by field: whatever else a stored event carries (its hashes) stays out of a player's view.
  const view = {
    stream,
    seq,
    type,
    version,
    at,
    actor,
    data: record,
    ...(hidden.length > 0 ? { redacted: hidden.map((field) => `data.${field}`) } : {}),
  };
  return view as PlayerEvent;
}

/** Whether a viewed event is a player's view (no hashes) rather than an event as stored. */
export function isPlayerEvent(event: EventView<StoredEvent | CurrentEvent>): event is PlayerEvent {
  return !("hash" in event);
}

/** The type and data of a viewed event, for describing it in players' words. */
export function viewedContent(
  event: EventView<StoredEvent | CurrentEvent>,
): ViewedDomainEvent & Pick<CurrentEvent, "seq" | "at" | "actor"> {
  return isPlayerEvent(event) ? event : toCurrent(event);
}
