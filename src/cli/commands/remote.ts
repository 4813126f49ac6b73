/**
 * state, apply, log, timeline and audit against a server (src/cli/remote.ts): what the local commands print, from
 * what the server shows the token's seat, with the seat's held orders and chores from its secrets on this machine.
 */
import type { Order } from "../../../events/common.js";
import { timelineLine } from "../../../replays/timeline.js";
import { ownHeldOrders, seesAll, viewedContent } from "../../views/view.js";
import { logLine } from "../../words/events.js";
import { CliError } from "../errors.js";
import type { CliIo } from "../io.js";
import { renderState } from "../render.js";
import { RemoteSeat, type RemoteSeatOptions, type ServerRequest } from "../remote.js";
import { positionOf } from "./branch.js";

/** Options that read a local database only: refused against a server rather than silently ignored. */
export function refuseLocalOnly<T extends object>(options: T, names: Partial<Record<keyof T, string>>): void {
  for (const [key, why] of Object.entries(names) as Array<[keyof T, string]>)
    if (options[key] !== undefined) throw new CliError(`${why} against a server: leave it out (docs/remote-play.md)`);
}

export async function remoteState(
  request: ServerRequest,
  options: RemoteSeatOptions & { json?: boolean; turn?: string; phase?: string; seq?: string },
  io: CliIo,
  print: (line: string) => void,
): Promise<void> {
  const position = positionOf(options);
  const seat = await RemoteSeat.open(request, options, io.env);
  const state = await seat.handler.stateAt(seat.campaign, position ?? {});
  const viewer = seat.viewer;
  const heldOrders: Record<string, Order> = await ownHeldOrders(state, viewer, seat.secrets());
  if (options.json) print(JSON.stringify(seesAll(viewer) ? state : { ...state, heldOrders }, null, 2));
  else print(renderState(state, seesAll(viewer) ? {} : { viewer, heldOrders }));
}

export async function remoteLog(
  request: ServerRequest,
  options: RemoteSeatOptions & { json?: boolean; raw?: boolean },
  io: CliIo,
  print: (line: string) => void,
): Promise<void> {
  refuseLocalOnly(options, {
    raw: "--raw prints the stored log, which only its holder has (epicwar log --raw there);",
  });
  const seat = await RemoteSeat.open(request, options, io.env);
  const { events } = await seat.handler.log(seat.campaign);
  for (const event of events) print(options.json ? JSON.stringify(event) : logLine(viewedContent(event)));
}

export async function remoteTimeline(
  request: ServerRequest,
  options: RemoteSeatOptions & { json?: boolean; fromTurn?: string },
  io: CliIo,
  print: (line: string) => void,
): Promise<void> {
  if (options.fromTurn !== undefined && !/^[1-9][0-9]{0,8}$/.test(options.fromTurn))
    throw new CliError(`--from-turn must be a turn number (1, 2, ...), not "${options.fromTurn}"`);
  const seat = await RemoteSeat.open(request, options, io.env);
  const fromTurn = options.fromTurn === undefined ? 0 : Number(options.fromTurn);
  for (const entry of await seat.handler.timeline(seat.campaign))
    if (entry.turn >= fromTurn) print(options.json ? JSON.stringify(entry) : timelineLine(entry));
}
