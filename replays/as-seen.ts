/**
 * What one viewer may read of a campaign's line: the reads behind `state`, `log`, `timeline`, `audit`, `diff` and
 * `branches` with --json --as, shared by the CLI and the campaign server so that a seat sees the same either way
 * (docs/views.md). Every read goes through the views of src/views/view.ts: the host and no viewer see the log as stored, a
 * player its own secrets and what the other side has revealed, and no chain hash.
 */
import { HOST, type Order } from "../events/common.js";
import { toCurrent, type CurrentEvent, type DomainEvent, type StoredEvent } from "../events/index.js";
import { derivedView, type DerivedView } from "../projections/derived.js";
import { settledBattles } from "../projections/settled-battles.js";
import type { CampaignState } from "../projections/state.js";
import type { EventStore } from "../src/log/index.js";
import {
  seesAll,
  viewedContent,
  viewEvent,
  viewState,
  type CampaignView,
  type EventView,
  type ViewContext,
  type Viewer,
} from "../src/views/view.js";
import { viewAudit } from "../src/views/audit.js";
import { logViewContext } from "../src/views/log.js";
import { contextNow } from "./context-snapshots.js";
import { describeEvent } from "../src/words/events.js";
import { auditCampaign, type AuditOptions, type AuditReport } from "./audit.js";
import { loadAuditInput } from "./audit-load.js";
import { listBranches, type BranchInfo } from "./branches.js";
import { diffSummaries, summarize, type Difference, type LineSummary } from "./diff.js";
import type { Position } from "./positions.js";
import { Replays } from "./replayer.js";

/** A viewer that is neither the host nor a player of the campaign: it has no view to be shown. */
export class ViewerError extends Error {
  override readonly name = "ViewerError";
}

/** A player's view of a line judged now: the viewer and the campaign as it stands (logViewContext). */
export interface LineView {
  viewer: string;
  context: ViewContext;
}

/** A viewer must be the host or a player of the campaign; `hint` ends the refusal's sentence. */
export function requireViewer(state: CampaignState, viewer: Viewer, stream: string, hint = ""): void {
  if (viewer !== undefined && viewer !== HOST && !state.setup?.players.some((p) => p.id === viewer))
    throw new ViewerError(`"${viewer}" is not a player of ${stream}${hint}`);
}

/**
 * The view a viewer has of a line: undefined for everything the log shows (no viewer, or the host), else the
 * player's, judged from the whole line (`events`, read from the store when not given).
 */
export async function lineView(
  store: EventStore,
  stream: string,
  viewer: Viewer,
  events?: Iterable<Pick<CurrentEvent, "seq"> & DomainEvent>,
): Promise<LineView | undefined> {
  if (seesAll(viewer)) return undefined;
  const context = logViewContext(events ?? (await store.readAll(stream)).map(toCurrent));
  requireViewer(context.state, viewer, stream, ` (--as takes a player or ${HOST})`);
  return { viewer, context };
}

/** An event in players' words as the view shows it: as stored without a player's view. */
export function describeAs(view: LineView | undefined): (event: CurrentEvent) => string {
  return view ? (event) => describeEvent(viewedContent(viewEvent(event, view.viewer, view.context))) : describeEvent;
}

/**
 * The context a viewer's state is shown in: the campaign now, or at a position of its line, with the battles settled
 * by then (every battle a view shows). For everything the log shows, a past state is read from the nearest snapshot
 * and the events after it, and the settled battles are folded from the log up to that point unless `settled: false`
 * says the caller shows only the state's own turn (text, a map); a player's view is judged from the log up to that
 * point (which commanders were killed by then), replayed in full.
 */
export async function stateContext(
  store: EventStore,
  stream: string,
  viewer: Viewer,
  position?: Position,
  options: { settled?: boolean } = {},
): Promise<ViewContext> {
  let context: ViewContext;
  if (position === undefined) context = await contextNow(store, stream);
  else {
    const replays = new Replays(store);
    const seq = await replays.resolve(stream, position);
    if (seesAll(viewer)) {
      const { state } = await replays.stateAtSeq(stream, seq);
      if (options.settled === false) return { state };
      return { state, settled: settledBattles((await store.readAll(stream, 1, seq)).map(toCurrent)) };
    }
    context = logViewContext((await store.readAll(stream, 1, seq)).map(toCurrent));
  }
  requireViewer(context.state, viewer, stream);
  return context;
}

/** The state as a seat may see it, with what it implies computed from that view (`derivedView`). */
export type StateAsSeen = CampaignView & { derived: DerivedView; heldOrders?: Record<string, Order> };

/**
 * The state as `state --json --as` prints it: the view itself, never the state, and its derived view (each side's
 * CVPs by source against the target, each battle's B2 engagement effects), so that a reader of the JSON need not
 * apply the rules again; a player's with its own held orders (none where its secrets are kept on another machine).
 */
export function stateAsSeen(context: ViewContext, viewer: Viewer, heldOrders: Record<string, Order>): StateAsSeen {
  const view = viewState(context.state, viewer, context);
  const derived = derivedView(view);
  return seesAll(viewer) ? { ...view, derived } : { ...view, derived, heldOrders };
}

/** Events of a line as `log --json --as` shows them, judged with the campaign as it is now (`context`). */
export function eventsAsSeen<E extends StoredEvent | CurrentEvent>(
  events: readonly E[],
  viewer: Viewer,
  context: ViewContext = logViewContext(events.map(toCurrent)),
): EventView<E>[] {
  return events.map((event) => viewEvent(event, viewer, context));
}

/** The audit report of a line as `audit --json --as` prints it, and the turns that have started at all. */
export async function auditAsSeen(
  store: EventStore,
  stream: string,
  viewer: Viewer,
  options: AuditOptions = {},
): Promise<{ report: AuditReport; startedTurns: () => number[] }> {
  const input = await loadAuditInput(store, stream);
  const view = await lineView(store, stream, viewer, input.events);
  const computed = auditCampaign(input, options);
  return {
    report: view ? viewAudit(computed, view.viewer, view.context, input.events) : computed,
    startedTurns: () => auditCampaign(input).turns.map((t) => t.turn),
  };
}

/** What `diff --json --as` compares of a line: its state now, as the viewer may see it. */
async function summaryAsSeen(store: EventStore, stream: string, viewer: Viewer): Promise<LineSummary> {
  const view = await lineView(store, stream, viewer);
  return summarize(
    view ? viewState(view.context.state, view.viewer, view.context) : await new Replays(store).current(stream),
  );
}

export interface LineDiff {
  a: { line: string; stream: string } & LineSummary;
  b: { line: string; stream: string } & LineSummary;
  differences: Difference[];
}

/** Two lines of a campaign compared now, as `diff --json --as` prints them: each named by its line and stream. */
export async function diffAsSeen(
  store: EventStore,
  a: { line: string; stream: string },
  b: { line: string; stream: string },
  viewer: Viewer,
): Promise<LineDiff> {
  const [left, right] = await Promise.all([a, b].map(({ stream }) => summaryAsSeen(store, stream, viewer)));
  return { a: { ...a, ...left! }, b: { ...b, ...right! }, differences: diffSummaries(left!, right!) };
}

export interface Lines {
  campaign: string;
  main: { stream: string; head: number; headHash?: string };
  branches: Array<BranchInfo | Omit<BranchInfo, "forkHash">>;
}

/**
 * A campaign's lines as `branches --json` prints them. A player's view leaves out the chain hashes (the head's and
 * each fork's), for the reason its events carry none (src/views/view.ts, PlayerEvent).
 */
export async function linesAsSeen(store: EventStore, campaign: string, viewer: Viewer = undefined): Promise<Lines> {
  const branches = await listBranches(store, new Replays(store), campaign);
  const head = await store.head(campaign);
  if (seesAll(viewer)) return { campaign, main: { stream: campaign, head: head.seq, headHash: head.hash }, branches };
  return {
    campaign,
    main: { stream: campaign, head: head.seq },
    branches: branches.map(({ forkHash: _hidden, ...branch }) => branch),
  };
}
