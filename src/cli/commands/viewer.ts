import { Option } from "commander";
import { HOST } from "../../../events/common.js";
import { toCurrent, type CurrentEvent, type DomainEvent } from "../../../events/index.js";
import type { EventStore } from "../../log/index.js";
import { seesAll, viewedContent, viewEvent, type ViewContext, type Viewer } from "../../views.js";
import { logViewContext } from "../../views-log.js";
import { describeEvent } from "../../words/events.js";
import { CliError } from "../errors.js";

/*
 * `--as PARTY` on the commands that only show a campaign (timeline, diff, audit): whose view they print, through the
 * same views as `state --as` and `log --as` (src/views.ts, docs/views.md).
 */

export const viewAsOption = () =>
  new Option(
    "--as <party>",
    "show what this player may see: the other side's secrets hidden, no chain hashes (docs/views.md); host: the log as stored",
  );

/** A player's view of a line judged now: the viewer and the campaign as it stands (logViewContext). */
export interface LineView {
  viewer: string;
  context: ViewContext;
}

/**
 * The view `--as` asks for on a line: undefined for everything the log shows (no --as, or the host), else the
 * player's, judged from the whole line (`events`, read from the store when not given). A viewer must be the host or
 * a player of the campaign.
 */
export async function lineView(
  store: EventStore,
  stream: string,
  viewer: Viewer,
  events?: Iterable<Pick<CurrentEvent, "seq"> & DomainEvent>,
): Promise<LineView | undefined> {
  if (seesAll(viewer)) return undefined;
  const context = logViewContext(events ?? (await store.readAll(stream)).map(toCurrent));
  if (!context.state.setup?.players.some((p) => p.id === viewer)) {
    throw new CliError(`"${viewer}" is not a player of ${stream} (--as takes a player or ${HOST})`);
  }
  return { viewer, context };
}

/** An event in players' words as the view shows it: as stored without a player's view. */
export function describeAs(view: LineView | undefined): (event: CurrentEvent) => string {
  return view ? (event) => describeEvent(viewedContent(viewEvent(event, view.viewer, view.context))) : describeEvent;
}
