import { toCurrent, type StoredEvent } from "../../../events/index.js";
import type { Order } from "../../../events/common.js";
import type { Engine } from "../../engine/engine.js";
import { verifyStream, type EventStore } from "../../log/index.js";
import { HASH_LENGTH } from "../../log/layout.js";
import { eventsAsSeen, requireViewer, stateAsSeen, stateContext } from "../../../replays/as-seen.js";
import { logViewContext } from "../../views/log.js";
import { ownHeldOrders, seesAll, viewedContent, viewState, type ViewContext, type Viewer } from "../../views/view.js";
import { logLine } from "../../words/events.js";
import { CliError, EXIT } from "../errors.js";
import { renderState } from "../render.js";
import type { Seat } from "../seat.js";

/*
 * Everything `state`, `log` and the event feed show goes through the views (src/views/view.ts): for no viewer and for the
 * host the view is the log as stored; for a player, its own secrets and what the other side has revealed.
 */

/** Whom the seat shows things to: the one party it acts as (`--as`), or no viewer when it acts for every party. */
export function seatViewer(seat: Seat): Viewer {
  return seat.acting?.size === 1 ? [...seat.acting][0] : undefined;
}

/**
 * `epicwar state` from a context: the state as the viewer may see it, with its own held orders (a player's only), as
 * JSON or as text with its battle sheets. The JSON is the view itself, never the state.
 */
export function stateOutput(
  context: ViewContext,
  viewer: Viewer,
  heldOrders: Record<string, Order>,
  json: boolean,
): string {
  if (json) return JSON.stringify(stateAsSeen(context, viewer, heldOrders), null, 2);
  return renderState(viewState(context.state, viewer, context), seesAll(viewer) ? {} : { viewer, heldOrders });
}

/** `epicwar log` from a log: one line per event as the viewer may see it, judged with the campaign as it is now. */
export function logOutput(
  events: readonly StoredEvent[],
  viewer: Viewer,
  json: boolean,
  context?: ViewContext,
): string[] {
  return eventsAsSeen(events, viewer, context).map((view) =>
    json ? JSON.stringify(view) : logLine(viewedContent(view)),
  );
}

/** The state as the seat's player may see it (everything the log shows without --as), as text or JSON. */
export async function showState(seat: Seat, json: boolean): Promise<string> {
  const campaign = await seat.campaign();
  const viewer = seatViewer(seat);
  const context = await stateContext(seat.engine.store, campaign, viewer);
  const heldOrders = await ownHeldOrders(context.state, viewer, seat.secrets(campaign));
  return stateOutput(context, viewer, heldOrders, json);
}

/**
 * Prints the log, one event a line, as the viewer may see it: JSON Lines or players' words. For no viewer and the host a
 * JSON line is the stored event parsed and written out again with its `hash` member: the same data, not the stored
 * bytes (`log --raw` gives those).
 */
export async function showLog(
  engine: Engine,
  campaign: string,
  json: boolean,
  print: (line: string) => void,
  viewer?: Viewer,
): Promise<void> {
  const events = await engine.store.readAll(campaign);
  const context = logViewContext(events.map(toCurrent));
  requireViewer(context.state, viewer, campaign);
  logOutput(events, viewer, json, context).forEach(print);
}

/**
 * `epicwar log --raw`: the line as the store holds it, for a verifier that has none of this code (docs/storage.md,
 * "The raw log"). One JSON line per event, its key's stream and seq, its stored hash and the stored body verbatim as a
 * string (the bytes that were hashed), then one head line. Nothing is parsed or re-serialised: a broken log is printed
 * as broken, for the verifier to find. For a branch: its parent's events up to the fork, then its own.
 */
export async function showRawLog(store: EventStore, stream: string, print: (line: string) => void): Promise<void> {
  // One snapshot for the events and the head, so that they agree with each other.
  const readPoint = await store.readPoint();
  try {
    const head = await store.storedHead(stream, readPoint);
    for (const segment of await store.line(stream)) {
      for await (const batch of store.rawBatches(
        segment.stream,
        segment.from,
        segment.to === Infinity ? undefined : segment.to,
        readPoint,
      )) {
        for (const [seq, value] of batch) {
          print(
            JSON.stringify({
              kind: "event",
              stream: segment.stream,
              seq,
              hash: value.slice(0, HASH_LENGTH),
              body: value.slice(HASH_LENGTH),
            }),
          );
        }
      }
    }
    print(JSON.stringify({ kind: "head", stream, seq: head.seq, hash: head.hash }));
  } finally {
    await readPoint.close();
  }
}

/** After showing a campaign, warns (exit 2) when its log no longer verifies: what was shown cannot be trusted. */
export async function warnIfBroken(engine: Engine, campaign: string): Promise<void> {
  const result = await verifyStream(engine.store, campaign);
  if (!result.ok) {
    throw new CliError(
      `warning: the log of ${campaign} fails verification at seq ${result.seq} (${result.problem}): what is shown may be forged; run epicwar verify`,
      EXIT.broken,
    );
  }
}
