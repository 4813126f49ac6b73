/**
 * `epicwar demo --server URL`: the demo's scripted commanders play the token's side of a campaign on a server, from
 * what that seat may see, until the campaign ends. It follows the feed as `watch` does, prints each event as the demo
 * tells its account, takes the seat's chores, and gives the seat's decisions whenever the campaign waits on it. Its
 * orders and seeds are kept in the seat's secrets folder on this machine, as for a player at the keyboard.
 */
import { HOST } from "../../../events/common.js";
import { followFeed } from "../../client/feed.js";
import type { RemoteOutcome, SeatEvent } from "../../client/remote.js";
import { ChoreRefusedError, type Table } from "../../client/table.js";
import { campaignResult } from "../../demo/play.js";
import { seatDecision, unplayableFromView } from "../../demo/seat.js";
import { describeRefusal } from "../../rules/refusal.js";
import { viewedContent, type CampaignView } from "../../views/view.js";
import { describeEvent } from "../../words/events.js";
import { CliError } from "../errors.js";
import type { CliIo } from "../io.js";
import { RemoteSeat, type RemoteSeatOptions, type ServerRequest } from "../remote.js";
import { refuseLocalOnly } from "./remote.js";

export interface RemoteDemoOptions extends RemoteSeatOptions {
  advanced?: boolean;
}

type SeatTable = Table<CampaignView, RemoteOutcome>;

/**
 * Takes the seat's chores and gives its decisions until the campaign waits on another party; returns the state then.
 * Each decision is made on the state the chores left, none due in it: the other side may append in between, and a
 * decision made on its move would come before a chore it made due (a reveal once the other side attacks an army
 * already activated, T5), and be refused. A step refused because another writer appended first (a seat's reveal, the
 * organiser's command, another instance's host step) is decided again on the new state, whether it was a chore of its
 * own or one its decision made due; one refused on the state it was decided on means the commanders cannot go on.
 */
async function playWhileWaitedOn(table: SeatTable, seat: string): Promise<CampaignView> {
  for (;;) {
    const before = await table.state();
    try {
      const state = await table.takeChores();
      const decision = seatDecision(state, seat);
      if (!decision) return state;
      const outcome = await table.submit(decision);
      if (outcome.ok || (await table.state()).seq !== state.seq) continue;
      throw new CliError(`the demo's ${decision.type} for ${seat} was refused: ${describeRefusal(outcome.refusal)}`);
    } catch (error) {
      if (error instanceof ChoreRefusedError && (await table.state()).seq !== before.seq) continue;
      throw error;
    }
  }
}

/** Prints events as the demo tells its account: a heading for each turn, each event in words, as the seat sees it. */
function printAccount(events: SeatEvent[], print: (line: string) => void): void {
  for (const event of events.map(viewedContent)) {
    if (event.type === "TurnStarted") print(`\n== Turn ${event.data.turn} ==`);
    print(`  ${describeEvent(event)}`);
  }
}

export async function playDemoOnServer(
  request: ServerRequest,
  options: RemoteDemoOptions,
  io: CliIo,
  print: (line: string) => void,
): Promise<void> {
  refuseLocalOnly(options, {
    advanced: "--advanced sets up Emberfall in a local folder; on a server the operator creates the campaign, so",
  });
  const signal = io.interruption?.() ?? new AbortController().signal;
  const seat = await RemoteSeat.open(request, options, io.env);
  if (seat.seat === HOST)
    throw new CliError(
      "this token is the organiser's (host): the demo's commanders play a player's side; the organiser follows with epicwar watch",
    );
  const table = await seat.table();
  const start = await table.state();
  const unplayable = unplayableFromView(start);
  if (unplayable) throw new CliError(unplayable);
  print(
    `The demo's scripted commanders play ${seat.seat} in ${seat.campaign} on ${seat.server.base}, from ${seat.seat}'s view; its orders and seeds are kept in ${seat.secretsDir}.`,
  );
  const state = await commandSeat(table, seat, start, signal, (events) => printAccount(events, print));
  if (state.status !== "finished") {
    print(`Stopped in turn ${state.turn}; epicwar demo --server again plays on from there.`);
    return;
  }
  print("");
  print(campaignResult(state));
}

/**
 * The demo's scripted commanders at a seat, from the state `start` until the campaign ends or `signal` stops them: the
 * state then. Every event the feed brings is told once, in order (`tell`), the seat's own included.
 */
export async function commandSeat(
  table: SeatTable,
  seat: Pick<RemoteSeat, "server" | "campaign" | "seat">,
  start: CampaignView,
  signal: AbortSignal,
  tell: (events: SeatEvent[]) => void,
): Promise<CampaignView> {
  let state = await playWhileWaitedOn(table, seat.seat);
  // Each arrival on the feed is a moment the campaign may have come to wait on this seat.
  if (state.status !== "finished") {
    // After a drop the feed yields an empty batch once connected again: what the campaign waits on is read again.
    let told = start.seq;
    const feed = followFeed(seat.server, seat.campaign, { after: start.seq, signal });
    for await (const events of feed) {
      tell(events);
      told = events.at(-1)?.seq ?? told;
      state = await playWhileWaitedOn(table, seat.seat);
      if (state.status === "finished" && told >= state.seq) break;
    }
  }
  return state;
}
