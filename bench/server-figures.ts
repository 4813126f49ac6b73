/**
 * The campaign server's figures of the bench (bench/main.ts), each a ratio of two things measured in the same run, on
 * a real `epicwar serve` on loopback in its own process:
 *
 *   httpCommandRatio  commands/s given through the server / commands/s given to an in-process Engine, the same
 *                     scripted commanders playing Ashfall on each (bench/served-play.ts), one campaign after the
 *                     other, alternating; a command's time is from giving it to its answer, the host's steps after it
 *                     included on both sides (the server takes them before it answers)
 *   feedFanoutRatio   events/s each of 100 feed viewers receives / events/s a single viewer receives, while the
 *                     scripted commanders play a campaign through the server (the same append load), alternating
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HOST } from "../events/common.js";
import { Engine } from "../src/engine/engine.js";
import { cpuMsSince, fmt, median, type Figure } from "./figure.js";
import {
  engineSide,
  createServedCampaign,
  newTally,
  playCampaign,
  PLAYERS,
  seatTokens,
  servedSide,
  startServe,
  type PlayTally,
  type ServerAddress,
} from "./served-play.js";
import { processCpuMs } from "./process-cpu.js";
import { FeedViewers } from "./viewers.js";
import { withProgress } from "./progress.js";

const FANOUT_VIEWERS = 100;
/**
 * Campaigns played each way before the timed ones (about ten seconds). A process compiles its code as it runs it, and
 * each side's commands kept getting faster over its first fifteen or so campaigns (docs/performance.md, Figures of
 * 2026-11-29): with one, both sides were timed still compiling. A server plays for weeks: the figure compares the two
 * as each keeps running.
 */
const WARM_UP_CAMPAIGNS = 20;

const commandRate = (tally: PlayTally) => tally.commands / (tally.latencies.reduce((sum, ms) => sum + ms, 0) / 1000);

/**
 * Plays a campaign through the server with `seats` watching its feed: the events/s each viewer received, from the
 * first command to its last event, over the events written while it watched.
 */
async function watchedPlay(
  server: ServerAddress,
  viewers: FeedViewers,
  campaign: string,
  seats: readonly string[],
): Promise<number[]> {
  const tokens = await createServedCampaign(server, campaign);
  const viewerTokens = await seatTokens(server, campaign, tokens[HOST]!, seats);
  await viewers.watch(
    server.url,
    campaign,
    seats.map((seat, i) => ({ seat, token: viewerTokens[i]! })),
  );
  const side = servedSide(server, campaign, tokens, newTally());
  const watchedFrom = (await side.state()).seq;
  const start = Date.now();
  await playCampaign(side);
  const head = (await side.state()).seq;
  const report = await viewers.end(campaign, head);
  return report.viewers.map((viewer) => {
    if (!viewer.complete || viewer.lastReceivedAt === null)
      throw new Error(`a viewer of ${campaign} did not receive every event once, in order`);
    return (head - watchedFrom) / ((viewer.lastReceivedAt - start) / 1000);
  });
}

export async function serverFigures(runs: number): Promise<Figure[]> {
  const dir = await mkdtemp(join(tmpdir(), "epicwar-bench-server-"));
  const server = await startServe(join(dir, "served"));
  // The engine's default, as the server's: every append flushed to disk.
  const engine = await Engine.open(join(dir, "in-process"));
  const hostSecrets = join(dir, "in-process-secrets");
  const viewers = new FeedViewers();
  const http = newTally();
  const inProcess = newTally();
  const single: number[] = [];
  const each: number[] = [];
  // CPU time of whole plays (the commanders' reads and decisions too), per command given, for the detail.
  const served = { client: 0, server: 0 };
  let inProcessCpuMs = 0;
  try {
    await withProgress(
      `Ashfall through epicwar serve and in-process (after ${WARM_UP_CAMPAIGNS} each way not timed), then with 1 and ${FANOUT_VIEWERS} feed viewers, ${runs} runs`,
      runs * 4,
      async (tick) => {
        // Campaigns each way first, not counted, until both sides play at the speed they keep (WARM_UP_CAMPAIGNS).
        for (let warm = 0; warm < WARM_UP_CAMPAIGNS; warm++) {
          const tokens = await createServedCampaign(server.address, `warmup${warm}`);
          await playCampaign(servedSide(server.address, `warmup${warm}`, tokens, newTally()));
          await playCampaign(await engineSide(engine, `warmup${warm}`, newTally(), hostSecrets));
        }
        for (let run = 0; run < runs; run++) {
          const tokens = await createServedCampaign(server.address, `http${run}`);
          const [clientStart, serverStart] = [process.cpuUsage(), processCpuMs(server.pid)];
          await playCampaign(servedSide(server.address, `http${run}`, tokens, http));
          served.client += cpuMsSince(clientStart);
          served.server += processCpuMs(server.pid) - serverStart;
          tick(run * 4 + 1);
          const engineStart = process.cpuUsage();
          await playCampaign(await engineSide(engine, `engine${run}`, inProcess, hostSecrets));
          inProcessCpuMs += cpuMsSince(engineStart);
          tick(run * 4 + 2);
          single.push(...(await watchedPlay(server.address, viewers, `one${run}`, [PLAYERS[0]])));
          tick(run * 4 + 3);
          const seats = Array.from({ length: FANOUT_VIEWERS }, (_, i) => [HOST, ...PLAYERS][i % 3]!);
          each.push(median(await watchedPlay(server.address, viewers, `many${run}`, seats)));
          tick(run * 4 + 4);
        }
      },
    );
  } finally {
    await viewers.close();
    await server.stop();
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  }
  const httpRatio = commandRate(http) / commandRate(inProcess);
  const perCommand = (ms: number, tally: PlayTally) => fmt(ms / tally.commands, 2);
  const cpu = `; CPU a command, the whole play: served ${perCommand(served.client + served.server, http)} ms (players and commanders ${perCommand(served.client, http)}, server ${perCommand(served.server, http)}) vs in-process ${perCommand(inProcessCpuMs, inProcess)} ms`;
  const fanout = median(each) / median(single);
  return [
    {
      name: "httpCommandRatio",
      value: httpRatio,
      unit: "",
      goal: ">= 0.5",
      met: httpRatio >= 0.5,
      detail: `through epicwar serve ${fmt(commandRate(http))} commands/s vs in-process Engine ${fmt(commandRate(inProcess))} commands/s (${http.commands} and ${inProcess.commands} commands of ${runs} Ashfall campaigns each, sync true)${cpu}`,
    },
    {
      name: "feedFanoutRatio",
      value: fanout,
      unit: "",
      goal: ">= 0.5",
      met: fanout >= 0.5,
      detail: `each of ${FANOUT_VIEWERS} viewers (median) ${fmt(median(each), 1)} ev/s vs a single viewer ${fmt(median(single), 1)} ev/s, while Ashfall is played through the server (median of ${runs})`,
    },
  ];
}
