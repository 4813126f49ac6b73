/**
 * The chaos soak (slow tier; `npm run build` first): one `epicwar serve` on one folder and port, killed with SIGKILL
 * at seeded random moments and started again, some of its runs under a file-size limit so that its writes really fail
 * (EFBIG) until the space is freed; feed tokens revoked mid-play and signed in again; campaigns played meanwhile by
 * clients started once and never restarted by the test: the CLI's `--server demo` for each player and `watch` for the
 * organiser, and the web page with two tabs of each seat. Every client talks through a recording proxy on loopback.
 *
 * At the end, after a last restart: no command answered 2xx is missing from the log, no seq was shown as two events,
 * no feed missed or doubled an event, every campaign was played to its winner, and `epicwar verify` finds every chain
 * intact. `CHAOS_SEED` repeats a run; `CHAOS_KILLS` sets the number of kills (at least 30).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { seededRandom } from "../../src/demo/rng.js";
import { tempDir } from "../support/tmp.js";
import { epicwarDone, type CliProcess } from "./cli-process.js";
import { chaosServer, operatorLines, type ChaosServer } from "./chaos/chaos-server.js";
import { ashfallSetup, createCampaign, playWithCli, SEATS, type CliCampaign } from "./chaos/cli-campaigns.js";
import { followFeed, type FeedFollower } from "./chaos/feed-follower.js";
import { recordingProxy, eventIdentity, type EventIdentity, type RecordingProxy } from "./chaos/recording-proxy.js";
import { fetchThroughOutages, jsonThroughOutages, signIn } from "./chaos/seat-tokens.js";
import { acknowledgedMissing, feedFaults, SeqLedger } from "./chaos/verdict.js";

const KILLS = Math.max(30, Number(process.env["CHAOS_KILLS"] ?? 30));
const CLI_CAMPAIGNS = ["ashfall", "cinderfall"];
/** How long the campaigns may take to reach their winners once the last restart is done. */
const FINISH_MS = 240_000;
/** How long a revoked token's open feed may stay open. */
const REVOKED_FEED_MS = 5_000;
/** The margin over the largest file the server writes that a limited run may still write. */
const LIMIT_MARGIN = 4 * 1024;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Revocation {
  follower: FeedFollower;
  connection: number;
  at: number;
  /** The campaign's head read right after the revocation was answered: a later event was written after it. */
  headAfter: number;
}

describe("chaos soak: one server killed, starved of disk and its tokens revoked while clients play on", () => {
  it(`${KILLS} kills at random moments, real write failures, revoked tokens: nothing acknowledged lost, no seq reused, no feed missed or doubled an event, every campaign played to its winner`, async () => {
    const seed = process.env["CHAOS_SEED"] ?? String(Math.floor(Math.random() * 2 ** 32));
    console.log(`chaos soak seed ${seed} (repeat with CHAOS_SEED=${seed})`);
    const random = seededRandom(seed);
    const dir = await tempDir("epicwar-chaos-");
    const db = join(dir, "war");
    for (const campaign of CLI_CAMPAIGNS) await createCampaign(db, await ashfallSetup(dir, campaign), dir);

    const server = chaosServer(db, dir, { PATH: process.env["PATH"] ?? "", HOME: dir });
    const ledger = new SeqLedger();
    const clients: CliProcess[] = [];
    const followers: FeedFollower[] = [];
    let proxy: RecordingProxy | undefined;
    try {
      expect(await server.start(), server.runs[0]?.err()).toBe(true);
      proxy = await recordingProxy(() => new URL(server.url()));
      const url = proxy.url;
      // The operator token and the invite links, once the server has printed (or kept) every seat's.
      let printed: string[] = [];
      for (let polls = 0; polls < 100; polls++, await sleep(100)) {
        printed = await operatorLines(server);
        if (printed.filter((line) => /\/join#/.test(line)).length >= CLI_CAMPAIGNS.length * SEATS.length) break;
      }
      const operator = printed.map((line) => /^Operator token.*: (ewt_[\w-]+)$/.exec(line)?.[1]).find(Boolean);
      expect(operator, `the operator token, printed or kept by the server: ${printed.join("\n")}`).toBeDefined();
      const links = (campaign: string) =>
        Object.fromEntries(
          printed
            .map((line) => /^(\S+) (\S+) http:\/\/[^/]+(\/join#\S+)$/.exec(line))
            .filter((match) => match?.[1] === campaign)
            .map((match) => [match![2]!, `${url()}${match![3]}`]),
        );

      // The test's own organiser token per campaign: its reads of the log are observations of every seq's event.
      const organiser = new Map<string, string>();
      for (const campaign of CLI_CAMPAIGNS) organiser.set(campaign, await signIn(url, operator!, campaign, "host"));
      const readLog = async (campaign: string, after: number) => {
        const { events } = await jsonThroughOutages<{ events: EventIdentity[] }>(
          url,
          `/campaigns/${campaign}/log?after=${after}`,
          { token: organiser.get(campaign)! },
        );
        for (const event of events)
          ledger.observe(eventIdentity(event), `log read in server run ${server.runs.length}`);
        return events.at(-1)?.seq ?? after;
      };

      // Clients started once: each player's demo, the organiser's watch; and a feed follower for every seat.
      const played: CliCampaign[] = [];
      for (const campaign of CLI_CAMPAIGNS) {
        const cli = await playWithCli(dir, campaign, links(campaign), url());
        played.push(cli);
        clients.push(...cli.players, cli.watch);
      }
      const followerTokens = new Map<FeedFollower, { seat: string; token: string }>();
      for (const campaign of CLI_CAMPAIGNS)
        for (const seat of SEATS) {
          const key = { seat, token: await signIn(url, operator!, campaign, seat) };
          const follower = followFeed({
            url,
            campaign,
            token: () => key.token,
            signIn: async () => void (key.token = await signIn(url, operator!, campaign, seat)),
            onEvent: (event) => ledger.observe(event, `${campaign} ${seat}'s feed`),
          });
          followers.push(follower);
          followerTokens.set(follower, key);
        }
      const tokenOf = (follower: FeedFollower) => followerTokens.get(follower)!.token;

      // The chaos: each run lives a random while, then SIGKILL; some runs start under a file-size limit.
      const revocations: Revocation[] = [];
      const heads = new Map<string, number>();
      let limitedRuns = 0;
      let runsThatFailedWrites = 0;
      let spaceFreedInPlace = 0;
      let selfExits = 0;
      const unlimitedExits: string[] = [];
      for (let kill = 1; kill <= KILLS; kill++) {
        const run = server.run();
        const uptime = 300 + Math.floor(random() * 1700);
        const until = Date.now() + uptime;
        // Observe every seq the run shows, again from the start of the log: an event that changed was reused.
        for (const campaign of CLI_CAMPAIGNS) heads.set(campaign, await readLog(campaign, 0).catch(() => 0));
        if (run.fileSizeLimit !== undefined) {
          const failed = await writeFailureWithin(server, 5_000);
          if (failed) runsThatFailedWrites++;
          if (random() < 0.5 && run.child.exitCode === null) {
            await server.freeSpace();
            spaceFreedInPlace++;
          }
        }
        if (kill % 6 === 3) {
          // A feed token revoked mid-play (DELETE /session): its open feed must end; the follower signs in again.
          const follower = followers[Math.floor(random() * followers.length)]!;
          const connection = follower.connection();
          const answer = await fetch(`${url()}/session`, {
            method: "DELETE",
            headers: { authorization: `Bearer ${tokenOf(follower)}` },
          }).catch(() => undefined);
          if (answer?.status === 204) {
            const headAfter = await readLog(follower.campaign, heads.get(follower.campaign) ?? 0).catch(() => 0);
            revocations.push({ follower, connection, at: Date.now(), headAfter });
          }
        }
        while (Date.now() < until && run.child.exitCode === null) {
          for (const campaign of CLI_CAMPAIGNS)
            heads.set(campaign, await readLog(campaign, heads.get(campaign) ?? 0).catch(() => 0));
          await sleep(100);
        }
        if (run.child.exitCode !== null) {
          selfExits++;
          if (run.fileSizeLimit === undefined) unlimitedExits.push(`run ${run.index}: ${run.err().slice(-2000)}`);
        }
        await server.kill();
        await proxy.down();
        await sleep(Math.floor(random() * 800));
        const limited = kill < KILLS && random() < 0.25;
        const fileSizeLimit = limited ? (await server.largestWrittenFile()) + LIMIT_MARGIN : undefined;
        if (limited) limitedRuns++;
        if (!(await server.start({ fileSizeLimit }))) {
          // Its first writes refused before it listened: the space freed, it starts again.
          runsThatFailedWrites++;
          expect(await server.start(), server.run().err()).toBe(true);
        }
        await proxy.up();
      }

      // After the last restart: every campaign plays on to its winner, within a bound.
      const finishing = Date.now() + FINISH_MS;
      const stuck: string[] = [];
      for (const cli of played) {
        for (const [index, player] of cli.players.entries()) {
          const code = await Promise.race([
            player.exited,
            sleep(Math.max(0, finishing - Date.now())).then(() => "stuck"),
          ]);
          if (code !== 0)
            stuck.push(
              `${cli.campaign}: ${["concord", "horde"][index]}'s demo ${code === "stuck" ? "still running" : `exited ${code}`}; last output ${JSON.stringify(player.out.slice(-3))}; stderr ${JSON.stringify(player.err().slice(-600))}`,
            );
        }
        const state = await jsonThroughOutages<{ state: { status: string; turn: number } }>(
          url,
          `/campaigns/${cli.campaign}/state`,
          { token: organiser.get(cli.campaign)! },
        );
        if (state.state.status !== "finished") {
          const waiting = await fetchThroughOutages(url, `/campaigns/${cli.campaign}/waiting`, {
            headers: { authorization: `Bearer ${organiser.get(cli.campaign)!}` },
          }).then((answer) => answer.text());
          stuck.push(`${cli.campaign} is ${state.state.status} in turn ${state.state.turn}, waiting on ${waiting}`);
        }
      }
      // The followers and watches catch up with the final log (bounded), then stop.
      const finalHeads = new Map<string, number>();
      for (const campaign of CLI_CAMPAIGNS) finalHeads.set(campaign, await readLog(campaign, 0));
      const caughtUp = Date.now() + 30_000;
      while (
        Date.now() < caughtUp &&
        followers.some((f) => (f.deliveries.at(-1)?.event.seq ?? 0) < finalHeads.get(f.campaign)!)
      )
        await sleep(200);
      await Promise.all(followers.map((follower) => follower.stop()));
      const watchOutputs = new Map<string, string[]>();
      for (const cli of played) {
        await cli.watch.stop();
        watchOutputs.set(cli.campaign, cli.watch.out);
      }
      const printedLogs = new Map<string, string[]>();
      for (const cli of played) {
        const log = await epicwarDone(["--server", url(), "log"], cli.machines.host);
        printedLogs.set(cli.campaign, log.stdout.trimEnd().split("\n"));
      }
      await proxy.close();
      expect(await server.stop(), server.run().err().slice(-2000)).toBe(0);

      // The final log as the folder holds it, and its chains.
      const finalLogs = new Map<string, EventIdentity[]>();
      for (const campaign of CLI_CAMPAIGNS) {
        const log = await epicwarDone(["log", "--db", db, "--campaign", campaign, "--json"], { cwd: dir, home: dir });
        expect(log.code, log.stderr).toBe(0);
        const events = log.stdout
          .trim()
          .split("\n")
          .map((line) => eventIdentity(JSON.parse(line) as EventIdentity));
        finalLogs.set(campaign, events);
        for (const event of events) ledger.observe(event, "the final log");
      }
      const verify = await epicwarDone(["verify", "--db", db], { cwd: dir, home: dir });

      const acknowledged = proxy.answers.filter((a) => a.status >= 200 && a.status <= 299);
      const statuses = new Map<number, number>();
      for (const answer of proxy.answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      const missing = acknowledgedMissing(proxy.answers, finalLogs);
      const feeds = followers.flatMap((f) =>
        feedFaults(`${f.campaign} ${followerTokens.get(f)!.seat}'s feed`, f.deliveries, finalLogs.get(f.campaign)!),
      );
      const watches = played.flatMap((cli) =>
        JSON.stringify(watchOutputs.get(cli.campaign)) === JSON.stringify(printedLogs.get(cli.campaign))
          ? []
          : [
              `${cli.campaign}: the organiser's watch printed ${watchOutputs.get(cli.campaign)!.length} lines, log prints ${printedLogs.get(cli.campaign)!.length}; first difference at line ${firstDifference(watchOutputs.get(cli.campaign)!, printedLogs.get(cli.campaign)!)}`,
            ],
      );
      const revokedFeeds = revocations.flatMap(({ follower, connection, at, headAfter }) => {
        if (connection === 0) return [];
        const late = follower.deliveries.filter((d) => d.connection === connection && d.event.seq > headAfter);
        const endedAt = follower.ended.get(connection);
        return [
          ...late.map((d) => `${follower.campaign}: revoked feed still delivered #${d.event.seq} ${d.event.type}`),
          ...(endedAt === undefined || endedAt - at > REVOKED_FEED_MS
            ? [
                `${follower.campaign}: a revoked token's feed stayed open ${endedAt ? endedAt - at : "until the end"} ms`,
              ]
            : []),
        ];
      });
      console.log(
        [
          `chaos soak seed ${seed}: ${KILLS} kills over ${server.runs.length} server runs, ${limitedRuns} limited (${runsThatFailedWrites} met a write failure, ${spaceFreedInPlace} freed in place), ${selfExits} ended on their own`,
          `${proxy.answers.length} command answers (${[...statuses].map(([s, n]) => `${n}x${s}`).join(", ")}), ${acknowledged.reduce((n, a) => n + a.events.length, 0)} acknowledged events, ${ledger.observations} sightings of seqs`,
          `${followers.reduce((n, f) => n + f.deliveries.length, 0)} feed deliveries over ${followers.reduce((n, f) => n + f.reconnects(), 0)} reconnects, ${revocations.length} revocations`,
          `findings: ${missing.length} acknowledged missing, ${ledger.reused.length} reused seqs, ${feeds.length} feed faults, ${stuck.length} stuck, ${revokedFeeds.length} revoked-feed faults, ${watches.length} watch faults, ${unlimitedExits.length} crashes`,
        ].join("\n"),
      );
      expect(missing, "acknowledged (2xx) commands missing from the final log").toEqual([]);
      expect(ledger.reused, "seqs shown as two different events across restarts").toEqual([]);
      expect(feeds, "feeds that missed, doubled or changed an event").toEqual([]);
      expect(watches, "the organiser's watch against what log prints").toEqual([]);
      expect(stuck, "campaigns that did not play on to their winner").toEqual([]);
      expect(revokedFeeds, "feeds of revoked tokens").toEqual([]);
      expect(unlimitedExits, "server runs without a file-size limit that ended on their own").toEqual([]);
      expect(verify.code, verify.stdout + verify.stderr).toBe(0);
      expect(verify.stdout).not.toMatch(/broken|mismatch/i);
      // The soak did what it says: kills, real write failures, revocations, acknowledged commands.
      expect(runsThatFailedWrites, "runs that met a real write failure").toBeGreaterThan(0);
      expect(revocations.length).toBeGreaterThan(0);
      expect(acknowledged.length).toBeGreaterThan(KILLS);
    } finally {
      await Promise.all(followers.map((follower) => follower.stop()));
      await Promise.all(clients.map((client) => client.stop()));
      await proxy?.close();
      if (server.runs.length > 0 && server.run().child.exitCode === null) await server.kill();
    }
  }, 900_000);
});

function firstDifference(a: string[], b: string[]): string {
  const index = a.findIndex((line, i) => line !== b[i]);
  const at = index < 0 ? Math.min(a.length, b.length) : index;
  return `${at + 1}: ${JSON.stringify(a[at])} against ${JSON.stringify(b[at])}`;
}

/** Whether the running server met a write failure within `ms`: a 5xx in its request log, or its end. */
async function writeFailureWithin(server: ChaosServer, ms: number): Promise<boolean> {
  const run = server.run();
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (run.child.exitCode !== null) return true;
    if (server.requests().some((line) => line.run === run.index && line.status >= 500)) return true;
    if (/EFBIG|LEVEL_IO_ERROR|file too large/i.test(run.err())) return true;
    await sleep(100);
  }
  return false;
}
