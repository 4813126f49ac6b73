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
 * event of its campaign once, in order; and the CPU per command: the server process's CPU time over the play (its
 * threads together: LevelDB's are in it) and, on PostgreSQL, the CPU time of the database's processes over the same
 * play, divided by the commands played (bench/process-cpu.ts).
 *
 * Options: --seconds N (default 60), --viewers N (default 100), --json (one JSON object as the last line of stdout),
 * --postgres (the same load on PostgreSQL too, in the same run: a second server on a cluster of the load's own,
 * started with initdb on loopback and removed after, with PostgreSQL's durability as shipped; the campaigns alternate
 * between the two servers, --seconds of play each, and the run reports PostgreSQL's CPU per command against LevelDB's).
 */
import pg from "pg";
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { HOST } from "../events/common.js";
import { startCluster, type Cluster } from "../test/support/postgres-cluster.js";
import type { ViewerOutcome } from "./feed-viewers.js";
import { parentPid, processCpuMs, treeCpuMs } from "./process-cpu.js";
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
  type PlayTally,
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
const withPostgres = argv.includes("--postgres");

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

/** One server under load, on one store, and what was measured of its campaigns. */
interface Served {
  store: "LevelDB" | "PostgreSQL";
  server: Awaited<ReturnType<typeof startServe>>;
  /** The CPU time of the database's own processes so far, in ms: PostgreSQL's cluster (LevelDB runs in the server). */
  databaseCpu?: () => number;
  tally: PlayTally;
  runs: CampaignRun[];
  playedMs: number;
  /** CPU time over the play of its campaigns, in ms: the server process's, and the database's processes'. */
  serverCpuMs: number;
  databaseCpuMs: number;
  exit: number | null;
}

/** The seat of the i-th viewer: the organiser's and each player's in turn. */
const viewerSeat = (i: number) => [HOST, ...PLAYERS][i % (PLAYERS.length + 1)]!;

const served = (store: Served["store"], server: Served["server"], databaseCpu?: () => number): Served => ({
  store,
  server,
  ...(databaseCpu ? { databaseCpu } : {}),
  tally: newTally(),
  runs: [],
  playedMs: 0,
  serverCpuMs: 0,
  databaseCpuMs: 0,
  exit: null,
});

/**
 * A PostgreSQL cluster of the load's own, with a database for the server: its URL, and the CPU time of the cluster's
 * processes (its postmaster's tree: the cluster serves nothing else).
 */
async function loadCluster(): Promise<{ cluster: Cluster; url: string; cpu: () => number }> {
  const cluster = await startCluster({ durable: true });
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  try {
    await admin.query("CREATE DATABASE epicwar_load");
    const { rows } = await admin.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    const postmaster = parentPid(rows[0]!.pid);
    return { cluster, url: cluster.urlOf("epicwar_load"), cpu: () => treeCpuMs(postmaster) };
  } finally {
    await admin.end();
  }
}

/** Plays one campaign on the server with the viewers on its feed, for at most `budgetMs`, measuring its CPU time. */
async function playWatched(on: Served, viewers: FeedViewers, campaign: string, budgetMs: number): Promise<CampaignRun> {
  const { address, pid } = on.server;
  const tokens = await createServedCampaign(address, campaign);
  const seats = Array.from({ length: viewerCount }, (_, i) => viewerSeat(i));
  const viewerTokens = await seatTokens(address, campaign, tokens[HOST]!, seats);
  await viewers.watch(
    address.url,
    campaign,
    seats.map((seat, i) => ({ seat, token: viewerTokens[i]! })),
  );
  const side = servedSide(address, campaign, tokens, on.tally);
  const watchedFrom = (await side.state()).seq;
  const commandsBefore = on.tally.commands;
  const serverCpuBefore = processCpuMs(pid);
  const databaseCpuBefore = on.databaseCpu?.() ?? 0;
  const playStart = performance.now();
  const { ended } = await playCampaign(side, () => performance.now() - playStart >= budgetMs);
  const playMs = performance.now() - playStart;
  on.serverCpuMs += processCpuMs(pid) - serverCpuBefore;
  on.databaseCpuMs += (on.databaseCpu?.() ?? 0) - databaseCpuBefore;
  on.playedMs += playMs;
  const log = (await request(address, "GET", `/campaigns/${campaign}/log`, tokens[HOST]!)).body as {
    seq: number;
    events: Array<{ seq: number; at: string }>;
  };
  const report = await viewers.end(campaign, log.seq);
  const deliveryMs = log.events
    .filter((event) => event.seq > watchedFrom)
    .map((event) => (report.lastArrival[event.seq - 1] ?? NaN) - Date.parse(event.at));
  const run = {
    campaign,
    ended,
    commands: on.tally.commands - commandsBefore,
    events: log.seq,
    playMs,
    viewers: report.viewers,
    deliveryMs,
  };
  process.stderr.write(
    `${campaign} on ${on.store}: ${ended ? "played to its end" : "stopped at the time limit"}, ${run.commands} commands, ${log.seq} events in ${(playMs / 1000).toFixed(1)} s; ${report.viewers.filter((v) => v.complete).length}/${viewerCount} viewers complete\n`,
  );
  return run;
}

/** What one server's campaigns measured. */
function storeResult(on: Served) {
  const delivery = on.runs.flatMap((run) => run.deliveryMs);
  return {
    store: on.store,
    campaigns: on.runs.length,
    campaignsEnded: on.runs.filter((run) => run.ended).length,
    seconds: on.playedMs / 1000,
    commands: on.tally.commands,
    commandsPerSecond: on.tally.commands / (on.playedMs / 1000),
    commandP50Ms: quantile(on.tally.latencies, 0.5),
    commandP99Ms: quantile(on.tally.latencies, 0.99),
    events: on.runs.reduce((sum, run) => sum + run.events, 0),
    eventsDelivered: delivery.length,
    deliveryP50Ms: quantile(delivery, 0.5),
    deliveryP99Ms: quantile(delivery, 0.99),
    /** CPU time over the play, per command, in ms: the server's, the database's, and both. */
    serverCpuPerCommandMs: on.serverCpuMs / on.tally.commands,
    databaseCpuPerCommandMs: on.databaseCpuMs / on.tally.commands,
    cpuPerCommandMs: (on.serverCpuMs + on.databaseCpuMs) / on.tally.commands,
    serverExit: on.exit,
  };
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), "epicwar-load-"));
  const stores: Served[] = [];
  let postgres: Awaited<ReturnType<typeof loadCluster>> | undefined;
  const viewers = new FeedViewers();
  const started = performance.now();
  try {
    stores.push(served("LevelDB", await startServe(join(dir, "db"))));
    if (withPostgres) {
      postgres = await loadCluster();
      stores.push(served("PostgreSQL", await startServe(join(dir, "pg"), postgres.url), postgres.cpu));
    }
    // A campaign on each server first, not counted: the first commands of a process compile the code and schemas
    // they use, which would be counted to whichever store played less.
    for (const on of stores) {
      const tokens = await createServedCampaign(on.server.address, "warmup");
      await playCampaign(servedSide(on.server.address, "warmup", tokens, newTally()));
    }
    // The stores take turns, campaign by campaign, so that both meet the machine's load as it comes and goes.
    for (let n = 1; stores.some((on) => on.playedMs < seconds * 1000); n++)
      for (const on of stores)
        if (on.playedMs < seconds * 1000)
          on.runs.push(await playWatched(on, viewers, `load${n}`, seconds * 1000 - on.playedMs));
  } finally {
    await viewers.close();
    for (const on of stores) on.exit = await on.server.stop();
    await postgres?.cluster.stop();
    await rm(dir, { recursive: true, force: true });
  }

  const perStore = stores.map(storeResult);
  const allRuns = stores.flatMap((on) => on.runs);
  const allViewers = allRuns.flatMap((run) => run.viewers);
  const [leveldb, onPostgres] = perStore;
  // The LevelDB server's figures at the top, as before there was a second store; the viewers' and events' counts of both.
  const result = {
    ...leveldb!,
    wallSeconds: (performance.now() - started) / 1000,
    viewersPerCampaign: viewerCount,
    campaigns: allRuns.length,
    events: allRuns.reduce((sum, run) => sum + run.events, 0),
    eventsDelivered: allRuns.reduce((sum, run) => sum + run.deliveryMs.length, 0),
    eventsLost: allViewers.reduce((sum, viewer) => sum + viewer.missing, 0),
    outOfOrder: allViewers.reduce((sum, viewer) => sum + viewer.outOfOrder, 0),
    viewers: allViewers.length,
    viewersComplete: allViewers.filter((viewer) => viewer.complete).length,
    /** Every epicwar serve's exit code after SIGTERM: 0 when each closed cleanly, else the first other. */
    serverExit: stores.map((on) => on.exit).find((exit) => exit !== 0) ?? 0,
    stores: perStore,
    /** PostgreSQL's CPU per command (server and database) / LevelDB's (the server, LevelDB in it), with --postgres. */
    ...(onPostgres ? { cpuPerCommandRatio: onPostgres.cpuPerCommandMs / leveldb!.cpuPerCommandMs } : {}),
    machine: { nproc: cpus().length, node: process.version, loadavg: loadavg().map((l) => Number(l.toFixed(2))) },
  };
  const fmt = (n: number, digits = 1) => n.toLocaleString("en", { maximumFractionDigits: digits });
  const storeLines = (figures: ReturnType<typeof storeResult>) => [
    `${figures.store}:`,
    `  campaigns       ${figures.campaigns} (${figures.campaignsEnded} played to their end), ${fmt(figures.seconds)} s of play`,
    `  commands/s      ${fmt(figures.commandsPerSecond)} (${figures.commands} commands)`,
    `  command latency p50 ${fmt(figures.commandP50Ms)} ms, p99 ${fmt(figures.commandP99Ms)} ms`,
    `  feed delivery   p50 ${fmt(figures.deliveryP50Ms)} ms, p99 ${fmt(figures.deliveryP99Ms)} ms to the last viewer (${figures.eventsDelivered} events written while watched)`,
    `  CPU per command ${fmt(figures.cpuPerCommandMs, 2)} ms (the server ${fmt(figures.serverCpuPerCommandMs, 2)} ms, the database's processes ${fmt(figures.databaseCpuPerCommandMs, 2)} ms)`,
    `  epicwar serve   exited with ${figures.serverExit} after SIGTERM`,
  ];
  process.stdout.write(
    [
      `epicwar load: ${fmt(result.wallSeconds)} s in all on ${result.machine.nproc} CPUs, node ${result.machine.node}, load average ${result.machine.loadavg.join(" ")}; ${viewerCount} viewers on each campaign's feed`,
      ...perStore.flatMap(storeLines),
      ...(result.cpuPerCommandRatio === undefined
        ? []
        : [`CPU per command   PostgreSQL / LevelDB ${fmt(result.cpuPerCommandRatio, 2)} (goal <= 2)`]),
      `events lost       ${result.eventsLost} (out of order or twice: ${result.outOfOrder}); viewers complete ${result.viewersComplete}/${result.viewers}`,
      ...(json ? [JSON.stringify(result)] : []),
      "",
    ].join("\n"),
  );
  if (result.eventsLost > 0 || result.viewersComplete < result.viewers || result.serverExit !== 0) process.exitCode = 1;
}

await main();
