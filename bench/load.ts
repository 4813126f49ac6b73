/**
 * The load test of the campaign server (`npm run load`, after `npm run build`; the slow tier runs it through
 * test/slow/load.test.ts): a real `epicwar serve` on loopback, in its own process, two players playing Ashfall with
 * the demo's scripted commanders (bench/served-play.ts) for --seconds of play, a new campaign begun whenever one
 * ends, and --viewers viewers (a third of them the organiser's seat, a third each player's) on each campaign's live
 * feed, in a worker thread.
 *
 * It reports commands/s over the play, the p50 and p99 of a command's round trip, the feed's delivery from an event's
 * `at` (stamped by the server as it decides the command, just before the append) to the last viewer that received it,
 * p50 and p99, over the events written while the viewers watched, and the events lost: every viewer must receive every
 * event of its campaign once, in order. Options: --seconds N (default 60), --viewers N (default 100), --json (one JSON
 * object as the last line of stdout).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { HOST } from "../events/common.js";
import type { ViewerOutcome } from "./feed-viewers.js";
import {
  createServedCampaign,
  newTally,
  playCampaign,
  PLAYERS,
  quantile,
  request,
  seatTokens,
  servedSide,
  startServe,
} from "./served-play.js";
import { FeedViewers } from "./viewers.js";

const argv = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? Number(argv[at + 1]) : fallback;
};
const seconds = option("seconds", 60);
const viewerCount = option("viewers", 100);
const json = argv.includes("--json");

interface CampaignRun {
  campaign: string;
  ended: boolean;
  commands: number;
  events: number;
  playMs: number;
  viewers: ViewerOutcome[];
  /** Per event written while the viewers watched: ms from its `at` to the last viewer's receipt. */
  deliveryMs: number[];
}

/** The seat of the i-th viewer: the organiser's and each player's in turn. */
const viewerSeat = (i: number) => [HOST, ...PLAYERS][i % (PLAYERS.length + 1)]!;

async function main() {
  const dir = await mkdtemp(join(tmpdir(), "epicwar-load-"));
  const server = await startServe(join(dir, "db"));
  const viewers = new FeedViewers();
  const runs: CampaignRun[] = [];
  const tally = newTally();
  let playedMs = 0;
  let serverExit: number | null = null;
  const started = performance.now();
  try {
    for (let n = 1; playedMs < seconds * 1000; n++) {
      const campaign = `load${n}`;
      const tokens = await createServedCampaign(server.address, campaign);
      const seats = Array.from({ length: viewerCount }, (_, i) => viewerSeat(i));
      const viewerTokens = await seatTokens(server.address, campaign, tokens[HOST]!, seats);
      await viewers.watch(
        server.address.url,
        campaign,
        seats.map((seat, i) => ({ seat, token: viewerTokens[i]! })),
      );
      const side = servedSide(server.address, campaign, tokens, tally);
      const watchedFrom = (await side.state()).seq;
      const commandsBefore = tally.commands;
      const playStart = performance.now();
      const budget = seconds * 1000 - playedMs;
      const { ended } = await playCampaign(side, () => performance.now() - playStart >= budget);
      const playMs = performance.now() - playStart;
      playedMs += playMs;
      const log = (await request(server.address, "GET", `/campaigns/${campaign}/log`, tokens[HOST]!)).body as {
        seq: number;
        events: Array<{ seq: number; at: string }>;
      };
      const report = await viewers.end(campaign, log.seq);
      const deliveryMs = log.events
        .filter((event) => event.seq > watchedFrom)
        .map((event) => (report.lastArrival[event.seq - 1] ?? NaN) - Date.parse(event.at));
      runs.push({
        campaign,
        ended,
        commands: tally.commands - commandsBefore,
        events: log.seq,
        playMs,
        viewers: report.viewers,
        deliveryMs,
      });
      process.stderr.write(
        `${campaign}: ${ended ? "played to its end" : "stopped at the time limit"}, ${runs.at(-1)!.commands} commands, ${log.seq} events in ${(playMs / 1000).toFixed(1)} s; ${report.viewers.filter((v) => v.complete).length}/${viewerCount} viewers complete\n`,
      );
    }
  } finally {
    await viewers.close();
    serverExit = await server.stop();
    await rm(dir, { recursive: true, force: true });
  }

  const allViewers = runs.flatMap((run) => run.viewers);
  const delivery = runs.flatMap((run) => run.deliveryMs);
  const result = {
    seconds: playedMs / 1000,
    wallSeconds: (performance.now() - started) / 1000,
    viewersPerCampaign: viewerCount,
    campaigns: runs.length,
    campaignsEnded: runs.filter((run) => run.ended).length,
    commands: tally.commands,
    commandsPerSecond: tally.commands / (playedMs / 1000),
    commandP50Ms: quantile(tally.latencies, 0.5),
    commandP99Ms: quantile(tally.latencies, 0.99),
    events: runs.reduce((sum, run) => sum + run.events, 0),
    eventsDelivered: delivery.length,
    deliveryP50Ms: quantile(delivery, 0.5),
    deliveryP99Ms: quantile(delivery, 0.99),
    eventsLost: allViewers.reduce((sum, viewer) => sum + viewer.missing, 0),
    outOfOrder: allViewers.reduce((sum, viewer) => sum + viewer.outOfOrder, 0),
    viewers: allViewers.length,
    viewersComplete: allViewers.filter((viewer) => viewer.complete).length,
    /** epicwar serve's exit code after SIGTERM: 0 when it closed cleanly. */
    serverExit,
    machine: { nproc: cpus().length, node: process.version, loadavg: loadavg().map((l) => Number(l.toFixed(2))) },
  };
  const fmt = (n: number, digits = 1) => n.toLocaleString("en", { maximumFractionDigits: digits });
  process.stdout.write(
    [
      `epicwar load: ${fmt(result.seconds)} s of play (${fmt(result.wallSeconds)} s in all) on ${result.machine.nproc} CPUs, node ${result.machine.node}, load average ${result.machine.loadavg.join(" ")}`,
      `campaigns         ${result.campaigns} (${result.campaignsEnded} played to their end), ${viewerCount} viewers on each one's feed`,
      `commands/s        ${fmt(result.commandsPerSecond)} (${result.commands} commands)`,
      `command latency   p50 ${fmt(result.commandP50Ms)} ms, p99 ${fmt(result.commandP99Ms)} ms`,
      `feed delivery     p50 ${fmt(result.deliveryP50Ms)} ms, p99 ${fmt(result.deliveryP99Ms)} ms to the last viewer (${result.eventsDelivered} events written while watched)`,
      `events lost       ${result.eventsLost} (out of order or twice: ${result.outOfOrder}); viewers complete ${result.viewersComplete}/${result.viewers}`,
      `epicwar serve     exited with ${serverExit} after SIGTERM`,
      ...(json ? [JSON.stringify(result)] : []),
      "",
    ].join("\n"),
  );
  if (result.eventsLost > 0 || result.viewersComplete < result.viewers || serverExit !== 0) process.exitCode = 1;
}

await main();
