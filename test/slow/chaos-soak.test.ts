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
import { chaosServer, operatorLines, signInsUnlimited, type ChaosServer } from "./chaos/chaos-server.js";
import type { Browser } from "playwright-core";
import type { CampaignView } from "../../src/views/view.js";
import { launchChromium } from "./browser.js";
import { ashfallSetup, createCampaign, playWithCli, PLAYERS, SEATS, type CliCampaign } from "./chaos/cli-campaigns.js";
import { openSeatTwice, playThroughPages, signInAgain, type SeatTabs } from "./chaos/page-campaign.js";
import { followFeed, type FeedFollower } from "./chaos/feed-follower.js";
import { recordingProxy, eventIdentity, type EventIdentity, type RecordingProxy } from "./chaos/recording-proxy.js";
import { fetchThroughOutages, invite, jsonThroughOutages, signIn } from "./chaos/seat-tokens.js";
import { steadyWriter } from "./chaos/steady-writer.js";
import { acknowledgedMissing, feedFaults, SeqLedger } from "./chaos/verdict.js";

const KILLS = Math.max(30, Number(process.env["CHAOS_KILLS"] ?? 30));
const CLI_CAMPAIGNS = ["ashfall", "cinderfall"];
/**
 * Played through the web page: without the battle kit, whose decisions the page player does not click, and with one
 * battle worth the whole CVP target (B3's table, S3), so that its first battle decides it within a few minutes.
 */
const PAGE_CAMPAIGN = "pagefall";
const PAGE_OPTIONS = { vpTable: [{ upTo: 100_000, vp: 300 }] };
/** Only paused and resumed by the organiser, over and over (chaos/steady-writer.ts): not played, so never finished. */
const WRITER_CAMPAIGN = "stillfall";
const CAMPAIGNS = [...CLI_CAMPAIGNS, PAGE_CAMPAIGN, WRITER_CAMPAIGN];
/** How long the campaigns may take to reach their winners once the last restart is done. */
const FINISH_MS = 240_000;
/** How long a server whose disk was full may take to acknowledge a command again once the space is freed. */
const RECOVERY_MS = 10_000;
/** How long a revoked token's open feed may stay open. */
const REVOKED_FEED_MS = 5_000;

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
    await createCampaign(db, await ashfallSetup(dir, PAGE_CAMPAIGN, PAGE_OPTIONS), dir);
    await createCampaign(db, await ashfallSetup(dir, WRITER_CAMPAIGN), dir);

    const server = chaosServer(db, dir, { PATH: process.env["PATH"] ?? "", HOME: dir }, await signInsUnlimited(dir));
    const ledger = new SeqLedger();
    const clients: CliProcess[] = [];
    const followers: FeedFollower[] = [];
    let proxy: RecordingProxy | undefined;
    let browser: Browser | undefined;
    const stopping: Array<() => Promise<void>> = [];
    try {
      await server.start();
      proxy = await recordingProxy(() => new URL(server.url()));
      const url = proxy.url;
      // The operator token and the invite links, once the server has printed (or kept) every seat's.
      let printed: string[] = [];
      for (let polls = 0; polls < 100; polls++, await sleep(100)) {
        printed = await operatorLines(server);
        if (printed.filter((line) => /\/join#/.test(line)).length >= CAMPAIGNS.length * SEATS.length) break;
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
      for (const campaign of CAMPAIGNS) organiser.set(campaign, await signIn(url, operator!, campaign, "host"));
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
      for (const campaign of CAMPAIGNS)
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

      const writer = steadyWriter(url, WRITER_CAMPAIGN, organiser.get(WRITER_CAMPAIGN)!);
      stopping.push(() => writer.stop());

      // The page-played campaign: two tabs of each seat, its decisions clicked while the chaos goes on.
      browser = await launchChromium();
      const pages: Record<string, SeatTabs> = {};
      for (const seat of SEATS) pages[seat] = await openSeatTwice(browser, seat, links(PAGE_CAMPAIGN)[seat]!);
      const pageOrganiser = organiser.get(PAGE_CAMPAIGN)!;
      const finishBy = { at: Date.now() + 900_000 };
      const calm = { since: Infinity };
      const pageProgress = { decisions: 0, retries: 0 };
      const pagePlay = playThroughPages({
        progress: pageProgress,
        seats: pages,
        truth: async () =>
          (
            await jsonThroughOutages<{ state: CampaignView }>(url, `/campaigns/${PAGE_CAMPAIGN}/state`, {
              token: pageOrganiser,
            })
          ).state,
        waiting: () =>
          fetchThroughOutages(url, `/campaigns/${PAGE_CAMPAIGN}/waiting`, {
            headers: { authorization: `Bearer ${pageOrganiser}` },
          }).then((answer) => answer.text()),
        random,
        deadline: () => finishBy.at,
        calmSince: () => calm.since,
      });
      // Awaited after the chaos; the server run it stopped in, and that run's log, are kept from the moment it stopped.
      let pageStoppedIn = "";
      pagePlay.catch(() => {
        pageStoppedIn = ` (stopped in server run ${server.run().index}, whose log then ended: ${server.complaints().join(" | ")})`;
      });

      // The chaos: each run lives a random while, then SIGKILL; some runs start under a file-size limit.
      const revocations: Revocation[] = [];
      const heads = new Map<string, number>();
      let limitedRuns = 0;
      let runsThatFailedWrites = 0;
      let spaceFreedInPlace = 0;
      let selfExits = 0;
      let seatRevocations = 0;
      const notRecovered: string[] = [];
      const unlimitedExits: string[] = [];
      for (let kill = 1; kill <= KILLS; kill++) {
        const run = server.run();
        const uptime = 300 + Math.floor(random() * 1700);
        let until = Date.now() + uptime;
        // A run in which a token is revoked lives long enough to show whether the token's open feeds end.
        const outliveRevocation = () => (until = Math.max(until, Date.now() + REVOKED_FEED_MS + 1_000));
        // Observe every seq the run shows, again from the start of the log: an event that changed was reused.
        for (const campaign of CAMPAIGNS) heads.set(campaign, await readLog(campaign, 0).catch(() => 0));
        const revoking = kill % 6 === 3 || kill % 10 === 5;
        if (kill < KILLS && !revoking && random() < 0.3) {
          // The disk fills a moment into the run: its next writes fail, until the space is freed in place or the
          // server is killed and started again.
          await sleep(100 + Math.floor(random() * 500));
          await server.fillDisk();
          limitedRuns++;
          // A write of the server's own (an invite kept in its seats file), in case no client writes meanwhile.
          await fetch(`${url()}/campaigns/${PAGE_CAMPAIGN}/invites`, {
            method: "POST",
            headers: { authorization: `Bearer ${operator!}`, "content-type": "application/json" },
            body: JSON.stringify({ seat: "host" }),
          }).catch(() => undefined);
          if (await writeFailureWithin(server, 5_000)) runsThatFailedWrites++;
          if (random() < 0.5 && run.child.exitCode === null) {
            // Freed in place: the server must take commands again by itself, with no restart.
            await server.freeSpace();
            spaceFreedInPlace++;
            const before = writer.acknowledged();
            const freed = Date.now();
            while (writer.acknowledged() === before && Date.now() - freed < RECOVERY_MS) await sleep(100);
            if (writer.acknowledged() === before)
              notRecovered.push(
                `run ${run.index}: no command acknowledged within ${RECOVERY_MS / 1000} s of the space freed; its last requests: ${JSON.stringify(
                  server
                    .requests()
                    .filter((line) => line.run === run.index)
                    .slice(-3),
                )}`,
              );
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
            outliveRevocation();
          }
        }
        if (kill % 10 === 5) {
          // A page seat revoked by the operator mid-play: it signs in again with a fresh invite, in one of its tabs.
          const player = PLAYERS[Math.floor(random() * PLAYERS.length)]!;
          const follower = followers.find(
            (f) => f.campaign === PAGE_CAMPAIGN && followerTokens.get(f)!.seat === player,
          )!;
          const connection = follower.connection();
          await jsonThroughOutages(url, `/campaigns/${PAGE_CAMPAIGN}/seats/${player}`, {
            method: "DELETE",
            token: operator!,
          });
          const headAfter = await readLog(PAGE_CAMPAIGN, heads.get(PAGE_CAMPAIGN) ?? 0).catch(() => 0);
          revocations.push({ follower, connection, at: Date.now(), headAfter });
          outliveRevocation();
          seatRevocations++;
          await signInAgain(pages[player]!, `${url()}/join#${await invite(url, operator!, PAGE_CAMPAIGN, player)}`);
        }
        while (Date.now() < until && run.child.exitCode === null) {
          for (const campaign of CAMPAIGNS)
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
        await server.start();
        await proxy.up();
      }

      await writer.stop();

      // After the last restart: every campaign plays on to its winner, within a bound.
      const finishing = Date.now() + FINISH_MS;
      finishBy.at = finishing;
      calm.since = Date.now();
      const stuck: string[] = [];
      await pagePlay.catch((error: Error) =>
        stuck.push(`${PAGE_CAMPAIGN} (the pages): ${error.message}${pageStoppedIn}`),
      );
      const pageErrors = SEATS.flatMap((seat) => pages[seat]!.errors.map((error) => `${seat}'s page: ${error}`));
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
      if (stuck.length > 0)
        stuck.push(`server run ${server.run().index}'s log ends: ${server.complaints().join(" | ")}`);
      // The followers and watches catch up with the final log (bounded), then stop.
      const finalHeads = new Map<string, number>();
      for (const campaign of CAMPAIGNS) finalHeads.set(campaign, await readLog(campaign, 0));
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
      for (const campaign of CAMPAIGNS) {
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
          `${followers.reduce((n, f) => n + f.deliveries.length, 0)} feed deliveries over ${followers.reduce((n, f) => n + f.reconnects(), 0)} reconnects, ${revocations.length} feed tokens and ${seatRevocations} page seats revoked`,
          `the steady writer: ${writer.acknowledged()} commands acknowledged`,
          `the pages: ${pageProgress.decisions} decisions clicked, ${pageProgress.retries} tried again, ${pageErrors.length} uncaught errors`,
          `findings: ${missing.length} acknowledged missing, ${ledger.reused.length} reused seqs, ${feeds.length} feed faults, ${stuck.length} stuck, ${revokedFeeds.length} revoked-feed faults, ${watches.length} watch faults, ${notRecovered.length} not recovered after the space was freed, ${unlimitedExits.length} crashes`,
        ].join("\n"),
      );
      const findings = {
        "acknowledged (2xx) commands missing from the final log": missing,
        "seqs shown as two different events across restarts": ledger.reused,
        "feeds that missed, doubled or changed an event": feeds,
        "the organiser's watch against what log prints": watches,
        "campaigns that did not play on to their winner": stuck,
        "feeds of revoked tokens": revokedFeeds,
        "servers that took no command once the space was freed": notRecovered,
        "errors the pages threw instead of showing them": pageErrors,
        "server runs without a file-size limit that ended on their own": unlimitedExits,
      };
      for (const [what, found] of Object.entries(findings))
        if (found.length > 0) console.log(`${what} (${found.length}):\n  ${found.slice(0, 8).join("\n  ")}`);
      for (const [what, found] of Object.entries(findings)) expect(found, what).toEqual([]);
      expect(verify.code, verify.stdout + verify.stderr).toBe(0);
      expect(verify.stdout).not.toMatch(/broken|mismatch/i);
      // The soak did what it says: kills, real write failures, revocations, acknowledged commands.
      expect(runsThatFailedWrites, "runs that met a real write failure").toBeGreaterThan(0);
      expect(revocations.length).toBeGreaterThan(0);
      expect(seatRevocations).toBeGreaterThan(0);
      expect(acknowledged.length).toBeGreaterThan(KILLS);
    } finally {
      await Promise.all(followers.map((follower) => follower.stop()));
      await Promise.all(clients.map((client) => client.stop()));
      await Promise.all(stopping.map((stop) => stop()));
      await browser?.close();
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
