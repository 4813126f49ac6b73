/**
 * The scale-out soak (slow tier; `npm run build` first): three `epicwar serve` instances on one PostgreSQL database,
 * every one alike (one secrets key, host's steps by the lease), and 50 campaigns played to their ends by the demo's
 * commanders through RemoteCampaign, two seats each, every seat a client of its own that moves to another instance
 * when its own cannot be reached. Meanwhile instances are killed with SIGKILL and started again as a supervisor would
 * (the lease's holder among them), the database is shut down and started again, and a streaming replica is promoted
 * and the database's address moved to it; and the organiser races the same command at the same expectedSeq through
 * two instances at once, over and over, on two campaigns kept for it.
 *
 * At the end: no command answered 200 is missing from the log, no seq was shown as two events and every chain
 * verifies (no fork), no race had two winners, every campaign reached its winner, and every instance is running, none
 * having ended on its own. `SOAK_SEED` repeats the order of the kills. A campaign that did not finish is described, its
 * seats' files kept (soak/stuck-campaigns.ts).
 */
import { randomBytes } from "node:crypto";
import { setMaxListeners } from "node:events";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { commandSeat } from "../../src/cli/commands/demo-remote.js";
import { RemoteSeat } from "../../src/cli/remote.js";
import { seededRandom } from "../../src/demo/rng.js";
import { examplePath } from "../../src/setup/package-files.js";
import { loadSetupFile } from "../../src/setup/setup-loader.js";
import type { CampaignView } from "../../src/views/view.js";
import { clusterWith, startReplica, type Cluster } from "../support/postgres-cluster.js";
import { startTcpProxy } from "../support/tcp-proxy.js";
import { tempDir } from "../support/tmp.js";
import { within } from "../support/within.js";
import { epicwarDone } from "./cli-process.js";
import { eventIdentity, type CommandAnswer, type EventIdentity } from "./chaos/recording-proxy.js";
import { jsonThroughOutages } from "./chaos/seat-tokens.js";
import { acknowledgedMissing, SeqLedger } from "./chaos/verdict.js";
import { decided, raceOn, type Race } from "./soak/races.js";
import { RoamingConnection } from "./soak/roaming-connection.js";
import { describeStuck, type StuckSeat } from "./soak/stuck-campaigns.js";
import {
  holdsLease,
  kill,
  leaseTakes,
  operatorToken,
  seatTokens,
  selfExits,
  startInstance,
  type SoakInstance,
} from "./soak/soak-instances.js";

const INSTANCES = 3;
const CAMPAIGNS = 50;
const KILLS = 12;
/** Of the kills, these (by number) kill the instance that holds the lease. */
const HOLDER_KILLS = new Set([3, 7, 11]);
const DATABASE_RESTARTS = 3;
const RACES = 1_000;
const RACE_CAMPAIGNS = ["race-1", "race-2", "race-3", "race-4"];
const PLAYERS = ["concord", "horde"] as const;
/** The pause between two blows of the chaos. */
const BLOW_EVERY_MS = 4_000;
/** How long the campaigns may take to reach their winners once the chaos is over. */
const FINISH_MS = 240_000;
/**
 * One battle's VPs are worth the whole CVP target (B3's table, S3): a campaign is decided by its first battle, a few
 * turns in, so that 50 of them end within the soak.
 */
const SHORT = { vpTable: [{ upTo: 100_000, vp: 300 }] };

const campaignIds = Array.from({ length: CAMPAIGNS }, (_, index) => `soak-${String(index + 1).padStart(2, "0")}`);

/** Every event of the campaigns as the database at `url` holds them, by campaign. */
async function finalLogs(url: string, campaigns: readonly string[]): Promise<Map<string, EventIdentity[]>> {
  const reader = new pg.Client({ connectionString: url });
  await reader.connect();
  try {
    const { rows } = await reader.query<{ stream: string; seq: string; hash: string; body: string }>(
      "SELECT stream, seq, hash, body FROM events WHERE stream = ANY($1) ORDER BY stream, seq",
      [campaigns],
    );
    const logs = new Map<string, EventIdentity[]>(campaigns.map((campaign) => [campaign, []]));
    for (const row of rows) {
      const body = JSON.parse(row.body) as { type: string; actor: string; at: string };
      logs.get(row.stream)!.push(eventIdentity({ ...body, stream: row.stream, seq: Number(row.seq), hash: row.hash }));
    }
    return logs;
  } finally {
    await reader.end();
  }
}

const seconds = (ms: number) => (ms / 1000).toFixed(0);

/** How often each deadline was set (ActionDeadlineSet) in the campaigns, as the database at `url` holds them. */
async function deadlinesSet(url: string, campaigns: readonly string[]): Promise<Map<string, number>> {
  const reader = new pg.Client({ connectionString: url });
  await reader.connect();
  try {
    const { rows } = await reader.query<{ body: string }>(
      "SELECT body FROM events WHERE stream = ANY($1) AND body LIKE '%ActionDeadlineSet%'",
      [campaigns],
    );
    const counts = new Map<string, number>();
    for (const row of rows) {
      const event = JSON.parse(row.body) as { type: string; data: { deadline: string } };
      if (event.type === "ActionDeadlineSet")
        counts.set(event.data.deadline, (counts.get(event.data.deadline) ?? 0) + 1);
    }
    return counts;
  } finally {
    await reader.end();
  }
}

describe("scale-out soak: three instances on one PostgreSQL database, killed, the database restarted and failed over", () => {
  it(`${CAMPAIGNS} campaigns to their ends through ${KILLS} kills, ${DATABASE_RESTARTS} database restarts and a promoted replica; ${RACES}+ cross-instance races`, async () => {
    const seed = process.env["SOAK_SEED"] ?? String(Math.floor(Math.random() * 2 ** 32));
    console.log(`scale-out soak seed ${seed} (repeat with SOAK_SEED=${seed})`);
    const random = seededRandom(seed);
    const dir = await tempDir("epicwar-soak-");
    const primary = await clusterWith("war");
    let replica: Cluster | undefined;
    // The database's address, as a virtual IP or a DNS name is: moved to the replica once it is promoted.
    const address = await startTcpProxy(primary.port);
    const instances: SoakInstance[] = [];
    const stopping = new AbortController();
    // Every seat's feed listens for the end of the soak.
    setMaxListeners(CAMPAIGNS * PLAYERS.length * 2, stopping.signal);
    const stops: Array<() => Promise<void>> = [];
    try {
      replica = await startReplica(primary);
      const promoted = replica;
      const store = new URL(primary.urlOf("war"));
      store.port = String(address.port);
      const keyFile = join(dir, "secrets.key");
      await writeFile(keyFile, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600 });
      // One after the other: the first holds the lease.
      for (let index = 0; index < INSTANCES; index++)
        instances.push(await startInstance(dir, index, store.toString(), keyFile));
      await within(30, "the first instance takes the host's steps", () => holdsLease(instances[0]!));
      const urls = instances.map((instance) => instance.url);
      const operator = await operatorToken(instances[0]!);

      // The campaigns, made through the first instance by its operator; the others find them within a second.
      const setup = await loadSetupFile(examplePath("ashfall.setup.json"));
      for (const campaign of [...campaignIds, ...RACE_CAMPAIGNS])
        await jsonThroughOutages(urls[0]!, "/campaigns", {
          method: "POST",
          token: operator,
          status: 201,
          body: JSON.stringify({ ...setup, campaign, options: SHORT }),
        });
      for (const instance of instances)
        await within(30, "every instance serves every campaign", async () => {
          const { campaigns } = await jsonThroughOutages<{ campaigns: unknown[] }>(instance.url, "/campaigns", {
            token: operator,
          });
          return campaigns.length === CAMPAIGNS + RACE_CAMPAIGNS.length;
        });
      const seatsOf = new Map<string, readonly string[]>([
        ...campaignIds.map((campaign) => [campaign, [...PLAYERS]] as const),
        ...RACE_CAMPAIGNS.map((campaign) => [campaign, ["host", ...PLAYERS]] as const),
      ]);
      const tokens = await seatTokens(instances[0]!, operator, seatsOf);

      // Every seat a client of its own, starting at an instance of its own and moving when it must.
      const answers: CommandAnswer[] = [];
      const ledger = new SeqLedger();
      const connections: RoamingConnection[] = [];
      const seats = new Map<string, StuckSeat>();
      const seatAt = async (campaign: string, player: string, start: number) => {
        const connection = RoamingConnection.open(
          urls.map((url) => url()),
          tokens.get(campaign)![player]!,
          start % INSTANCES,
          { offlineTimeoutMs: 180_000, firstDelayMs: 100, mostDelayMs: 2_000 },
          answers,
        );
        connections.push(connection);
        const secrets = join(dir, "seats", `${campaign}-${player}`);
        await mkdir(secrets, { recursive: true });
        const seat = await RemoteSeat.seated(connection, secrets, { campaign });
        const table = await seat.table();
        seats.set(`${campaign} ${player}`, { player, toldSeq: 0, state: () => table.state(), secretsDir: secrets });
        return { seat, table };
      };
      const outcomes = new Map<string, Promise<CampaignView | Error>>();
      /** When each seat's commanders saw their campaign's end. */
      const finishedAt: number[] = [];
      const playStarted = Date.now();
      for (const [index, campaign] of campaignIds.entries())
        for (const [side, player] of PLAYERS.entries())
          outcomes.set(
            `${campaign} ${player}`,
            (async () => {
              const { seat, table } = await seatAt(campaign, player, index * PLAYERS.length + side);
              const end = await commandSeat(table, seat, await table.state(), stopping.signal, (events) => {
                for (const event of events) ledger.observe(eventIdentity(event), `${campaign} ${player}'s feed`);
                const told = seats.get(`${campaign} ${player}`)!;
                told.toldSeq = events.at(-1)?.seq ?? told.toldSeq;
              });
              finishedAt.push(Date.now());
              return end;
            })().catch((error: Error) => error),
          );

      // The races' campaigns are brought to turn 1's Action phase (the players' seeds, then the lease's holder's
      // initiative), where they wait on the players' first activation for good; then raced on, while the chaos goes.
      const hostOf = (campaign: string) => tokens.get(campaign)!["host"]!;
      const races: Race[] = [];
      const racing = Promise.all(
        RACE_CAMPAIGNS.map(async (campaign, index) => {
          const tables = await Promise.all(PLAYERS.map(async (player) => (await seatAt(campaign, player, 0)).table));
          await within(120, `${campaign} in turn 1's Action phase`, async () => {
            for (const table of tables) await table.takeChores();
            const { events } = await jsonThroughOutages<{ events: Array<{ type: string }> }>(
              urls[index % INSTANCES]!,
              `/campaigns/${campaign}/log`,
              { token: hostOf(campaign) },
            );
            return events.some((event) => event.type === "InitiativeRolled");
          });
          stops.push(raceOn(campaign, urls, hostOf(campaign), answers, races, Date.UTC(2100 + index, 0, 1)));
        }),
      ).catch((error: Error) => error);

      // The chaos: kills (the lease's holder among them) and, between them, the database restarted, then failed over.
      const blows: Array<"kill" | "restart" | "promote"> = [];
      for (let killed = 1; killed <= KILLS; killed++) {
        blows.push("kill");
        if (killed % 3 === 2 && blows.filter((blow) => blow === "restart").length < DATABASE_RESTARTS)
          blows.push("restart");
        if (killed === KILLS - 2) blows.push("promote");
      }
      const chaosStarted = Date.now();
      let database = primary;
      let kills = 0;
      let holderKills = 0;
      let restarts = 0;
      let promotions = 0;
      const leaseMoves: number[] = [];
      for (const blow of blows) {
        await sleep(BLOW_EVERY_MS / 2 + Math.floor(random() * BLOW_EVERY_MS));
        if (blow === "kill") {
          kills++;
          if (HOLDER_KILLS.has(kills))
            await within(30, "an instance holds the lease", () => instances.some(holdsLease));
          const holder = instances.find(holdsLease);
          const victim =
            HOLDER_KILLS.has(kills) && holder ? holder : instances[Math.floor(random() * instances.length)]!;
          if (victim === holder) holderKills++;
          const killedAt = Date.now();
          await kill(victim);
          // Another instance takes the lease within seconds, while the supervisor starts the killed one again.
          const leaseTaken =
            victim === holder &&
            within(30, "the lease taken again after its holder was killed", () => instances.some(holdsLease)).then(() =>
              leaseMoves.push(Date.now() - killedAt),
            );
          await sleep(300 + Math.floor(random() * 1_200));
          await victim.server.start();
          await leaseTaken;
        } else if (blow === "restart") {
          await database.shutDown();
          await sleep(500 + Math.floor(random() * 1_500));
          await database.startAgain();
          restarts++;
        } else {
          // The primary stops (a fast shutdown sends the standby every commit first); the replica is promoted and
          // the address moved to it, as docs/scaling.md's procedure says.
          await primary.shutDown();
          await promoted.promote();
          address.moveTo(promoted.port);
          database = promoted;
          promotions++;
        }
      }
      const chaosOver = Date.now();

      // Every campaign plays on to its winner, within a bound; the races go on until enough were decided.
      const finishing = chaosOver + FINISH_MS;
      const ended = new Map<string, CampaignView | Error | "still playing">();
      for (const [seat, outcome] of outcomes)
        ended.set(
          seat,
          await Promise.race([outcome, sleep(Math.max(0, finishing - Date.now()), "still playing" as const)]),
        );
      stopping.abort();
      const raceSetUp = await racing;
      if (raceSetUp instanceof Error) throw raceSetUp;
      for (let waited = 0; races.filter(decided).length < RACES && waited < 120_000; waited += 200) await sleep(200);
      const racesOver = Date.now();
      for (const stop of stops) await stop();
      stops.length = 0;

      // What the database holds at the end (the promoted replica), and whether every chain verifies.
      const finalStore = promoted.urlOf("war");
      const logs = await finalLogs(finalStore, [...campaignIds, ...RACE_CAMPAIGNS]);
      for (const [, events] of logs) for (const event of events) ledger.observe(event, "the final log");
      for (const answer of answers) for (const event of answer.events) ledger.observe(event, "a command's answer");
      const verify = await epicwarDone(["verify", "--store", finalStore, "--db", join(dir, "war")], {
        cwd: dir,
        home: dir,
      });

      const stuck = [...ended].flatMap(([seat, outcome]) =>
        outcome instanceof Error
          ? [`${seat}: ${outcome.name}: ${outcome.message}`]
          : outcome === "still playing"
            ? [`${seat}: still playing ${FINISH_MS / 1000} s after the chaos`]
            : outcome.status !== "finished"
              ? [`${seat}: ${outcome.status} in turn ${outcome.turn}`]
              : [],
      );
      const unfinished = campaignIds.filter(
        (campaign) => !logs.get(campaign)!.some((e) => e.type === "CampaignFinished"),
      );
      const missing = acknowledgedMissing(answers, logs);
      const decidedRaces = races.filter(decided);
      const doubleWinners = decidedRaces.filter((race) => race.statuses.every((status) => status === 200));
      // Each race's deadline is in the log as often as it had winners: once, or never if another write came first.
      const raceEvents = await deadlinesSet(finalStore, RACE_CAMPAIGNS);
      const racesMislogged = decidedRaces.filter(
        (race) => (raceEvents.get(race.deadline) ?? 0) !== race.statuses.filter((status) => status === 200).length,
      );
      const exits = instances.flatMap((instance, index) => selfExits(instance, `instance ${index}`));
      const running = instances.map((instance) => instance.server.run().child.exitCode === null);
      const statuses = new Map<number, number>();
      for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      const pairs = new Map<string, number>();
      for (const race of races) {
        const pair = [...race.statuses].sort().join("/");
        pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
      }
      const acknowledged = answers.filter((answer) => answer.status === 200);
      console.log(
        [
          `scale-out soak seed ${seed}: ${INSTANCES} instances, ${CAMPAIGNS} campaigns (${campaignIds.length - unfinished.length} finished, ${logs.get(campaignIds[0]!)!.length} events each or so)`,
          `times from the first seat's start: chaos ${seconds(chaosStarted - playStarted)}-${seconds(chaosOver - playStarted)} s, seats at their campaign's end ${seconds(Math.min(...finishedAt) - playStarted)}-${seconds(Math.max(...finishedAt) - playStarted)} s, races until ${seconds(racesOver - playStarted)} s`,
          `chaos: ${kills} kills (${holderKills} of the lease's holder; lease taken again in ${leaseMoves.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(", ")}), ${restarts} database restarts, ${promotions} replica promoted; ${instances.map(leaseTakes).reduce((a, b) => a + b, 0)} lease takes in all`,
          `clients: ${connections.reduce((n, c) => n + c.moves, 0)} moves to another instance; ${answers.length} command answers (${[...statuses].map(([s, n]) => `${n}x${s}`).join(", ")}), ${acknowledged.reduce((n, a) => n + a.events.length, 0)} acknowledged events, ${ledger.observations} sightings of seqs`,
          `races: ${races.length} run, ${decidedRaces.length} decided (${[...pairs].map(([p, n]) => `${n}x${p}`).join(", ")}), ${doubleWinners.length} double winners`,
          `other race answers, e.g.: ${[...new Set(races.flatMap((race) => race.said.map((text) => text.slice(0, 160))))].slice(0, 3).join(" | ")}`,
          `findings: ${missing.length} acknowledged missing, ${ledger.reused.length} seqs shown as two events, ${stuck.length} seats stuck, ${unfinished.length} campaigns unfinished, ${racesMislogged.length} races logged otherwise than answered, ${exits.length} instance runs ended on their own`,
        ].join("\n"),
      );
      const findings = {
        "acknowledged (200) commands missing from the final log": missing,
        "seqs shown as two different events (a fork)": ledger.reused,
        "seats that did not play on to their winner": stuck,
        "campaigns without a winner": unfinished,
        "races with two winners": doubleWinners.map((race) => JSON.stringify(race)),
        "races whose log disagrees with their answers": racesMislogged.map((race) => JSON.stringify(race)),
        "instance runs that ended on their own": exits,
      };
      for (const [what, found] of Object.entries(findings))
        if (found.length > 0) console.log(`${what} (${found.length}):\n  ${found.slice(0, 8).join("\n  ")}`);
      const stuckSeats = new Map(
        unfinished.map((campaign) => [campaign, PLAYERS.map((player) => seats.get(`${campaign} ${player}`)!)]),
      );
      for (const line of await describeStuck(finalStore, stuckSeats)) console.log(line);
      for (const [what, found] of Object.entries(findings)) expect(found, what).toEqual([]);
      expect(verify.code, verify.stdout + verify.stderr).toBe(0);
      expect(running, "every instance still running").toEqual(instances.map(() => true));
      // The soak did what it says.
      expect({ kills, restarts, promotions }).toEqual({ kills: KILLS, restarts: DATABASE_RESTARTS, promotions: 1 });
      expect(holderKills).toBeGreaterThanOrEqual(HOLDER_KILLS.size);
      expect(decidedRaces.length).toBeGreaterThanOrEqual(RACES);
      expect(connections.reduce((n, c) => n + c.moves, 0)).toBeGreaterThan(0);
    } finally {
      stopping.abort();
      for (const stop of stops) await stop();
      for (const instance of instances) if (instance.server.run().child.exitCode === null) await instance.server.kill();
      await address.close();
      await replica?.stop();
      await primary.stop();
    }
  }, 900_000);
});
