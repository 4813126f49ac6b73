/**
 * The database goes away and comes back under two `epicwar serve` instances, a player's demo at each and the organiser
 * giving commands through both, with no supervisor: shut down (`pg_ctl stop --mode fast`, every connection ended) and
 * started again several times; and failed over to a streaming replica, promoted, behind the database's address. While
 * it is away each instance answers 503 `unavailable` with a reason; once it is back they serve again by themselves. At
 * the end every instance is still running, every command answered 200 is in the log, and the campaign was played to
 * its end. The clusters are the test's own, since they are stopped.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { clusterWith, startReplica, type Cluster } from "../support/postgres-cluster.js";
import { startTcpProxy } from "../support/tcp-proxy.js";
import { tempDir } from "../support/tmp.js";
import {
  epicwar,
  epicwarDone,
  finishedCampaign,
  inviteLinkAt,
  operatorTokenOf,
  servedAt,
  twoInstances,
  type CliProcess,
} from "./cli-process.js";

const CAMPAIGN = "ashfall";
const RESTARTS = 4;

/** An event a server acknowledged: its seq and hash, which the log must hold. */
type Acknowledged = { seq: number; hash: string };

/** The organiser's commands through one instance, one after another until stopped: what each was answered. */
function organiserLoad(url: string, token: string) {
  const statuses = new Map<number, number>();
  const acknowledged: Acknowledged[] = [];
  const unavailable: Array<{ error: string; reason: unknown }> = [];
  let stopped = false;
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const round = async (index: number) => {
    const read = await fetch(`${url}/campaigns/${CAMPAIGN}/state`, { headers });
    count(read.status);
    if (read.status !== 200) {
      if (read.status === 503) unavailable.push((await read.json()) as { error: string; reason: unknown });
      return;
    }
    const { seq } = (await read.json()) as { seq: number };
    const command = {
      actor: "host",
      type: "SetActionDeadline",
      at: new Date(Date.UTC(2100, 0, 1) + index * 60_000).toISOString(),
    };
    const answer = await fetch(`${url}/campaigns/${CAMPAIGN}/commands`, {
      method: "POST",
      headers,
      body: JSON.stringify({ expectedSeq: seq, commands: [command] }),
    });
    count(answer.status);
    const body = (await answer.json()) as { events?: Acknowledged[]; error?: string; reason?: unknown };
    if (answer.status === 200) acknowledged.push(...body.events!.map(({ seq, hash }) => ({ seq, hash })));
    if (answer.status === 503) unavailable.push({ error: body.error!, reason: body.reason });
  };
  const running = (async () => {
    for (let index = 0; !stopped && index < 100_000; index++) {
      // A server that cannot be reached at all is counted as status 0: it must never happen.
      await round(index).catch(() => count(0));
      await sleep(50);
    }
  })();
  return {
    statuses,
    acknowledged,
    unavailable,
    stop: async () => {
      stopped = true;
      await running;
    },
  };
}

/** Each instance's answer to a read while the database is away: 503 unavailable with a reason, for every one. */
async function whileAway(urls: readonly string[], tokens: readonly string[]) {
  const answers = [];
  for (const [index, url] of urls.entries()) {
    const answer = await fetch(`${url}/campaigns/${CAMPAIGN}/state`, {
      headers: { authorization: `Bearer ${tokens[index]!}` },
    });
    const body = (await answer.json()) as { error: unknown; reason: unknown };
    answers.push({ status: answer.status, error: body.error, reason: typeof body.reason });
  }
  return answers;
}

/**
 * Two instances on the database at `store` (instance A takes the host's steps), a player's demo at each and the
 * organiser's commands through both, while `outages` takes the database away and back: then every instance is still
 * running, took commands again, answered nothing outside the protocol, every command it acknowledged is in the log
 * (read at `finalStore`, the database the campaign ends on) and the campaign was played to its end.
 */
async function playThrough(
  store: string,
  finalStore: () => string,
  outages: (urls: readonly string[], tokens: readonly string[]) => Promise<void>,
): Promise<void> {
  const dir = await tempDir("epicwar-pg-away-");
  const at = (machine: string) => ({ cwd: join(dir, machine), home: join(dir, machine) });
  for (const name of ["serverA", "serverB", "concord", "horde"]) await mkdir(join(dir, name));
  const running: CliProcess[] = [];
  try {
    const [serveA, serveB] = await twoInstances(store, at("serverA"), at("serverB"));
    running.push(serveA, serveB);
    const urls = [await servedAt(serveA), await servedAt(serveB)];
    const operator = await operatorTokenOf([at("serverA").cwd, at("serverB").cwd]);
    for (const [url, seat] of [
      [urls[0]!, "concord"],
      [urls[1]!, "horde"],
    ] as const) {
      const joined = await epicwarDone(["join", await inviteLinkAt(url, operator, CAMPAIGN, seat)], at(seat));
      expect(joined.code, joined.stderr).toBe(0);
    }
    const hostTokens: string[] = [];
    for (const url of urls) {
      const invite = (await inviteLinkAt(url, operator, CAMPAIGN, "host")).split("#")[1]!;
      const session = await fetch(`${url}/session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ invite }),
      });
      expect(session.status).toBe(200);
      hostTokens.push(((await session.json()) as { token: string }).token);
    }
    const players = [
      epicwar(["--server", urls[0]!, "demo"], at("concord")),
      epicwar(["--server", urls[1]!, "demo"], at("horde")),
    ];
    running.push(...players);
    const loads = urls.map((url, index) => organiserLoad(url, hostTokens[index]!));

    await outages(urls, hostTokens);
    // Both instances serve again by themselves once the database is back.
    for (const [index, url] of urls.entries())
      for (let waited = 0; ; waited++) {
        const read = await fetch(`${url}/campaigns/${CAMPAIGN}/state`, {
          headers: { authorization: `Bearer ${hostTokens[index]!}` },
        });
        if (read.status === 200) break;
        expect(waited, `instance ${index} serves within 60 s of the database's return`).toBeLessThan(600);
        await sleep(100);
      }
    // Played to the end within 3 minutes, or what the servers and players said.
    const tails = () =>
      [serveA, serveB, ...players].map((process) => process.err().split("\n").slice(-15).join("\n")).join("\n---\n");
    const ended = await Promise.race([Promise.all(players.map((p) => p.exited)), sleep(180_000).then(() => "stuck")]);
    expect(ended, tails()).toEqual([0, 0]);
    await finishedCampaign(urls[0]!, at("concord"), players);
    for (const load of loads) await load.stop();

    // Every instance is still running, and answered nothing but what the protocol says.
    expect([serveA.child.exitCode, serveB.child.exitCode], serveA.err() + serveB.err()).toEqual([null, null]);
    for (const load of loads) {
      expect([...load.statuses.keys()].filter((status) => ![200, 409, 422, 503].includes(status))).toEqual([]);
      expect(load.statuses.get(200)).toBeGreaterThan(0);
      for (const answer of load.unavailable) expect(answer).toMatchObject({ error: "unavailable" });
    }
    // Every event a server acknowledged is in the log, as it was acknowledged.
    const reader = new pg.Client({ connectionString: finalStore() });
    await reader.connect();
    const { rows } = await reader.query<{ seq: string; hash: string }>(
      "SELECT seq, hash FROM events WHERE stream = $1",
      [CAMPAIGN],
    );
    await reader.end();
    const logged = new Map(rows.map((row) => [Number(row.seq), row.hash]));
    const acknowledged = loads.flatMap((load) => load.acknowledged);
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(acknowledged.filter(({ seq, hash }) => logged.get(seq) !== hash)).toEqual([]);
    const verified = await epicwarDone(["verify", "--store", finalStore(), "--db", "war"], at("serverA"));
    expect(verified.code, verified.stderr).toBe(0);
  } finally {
    await Promise.all(running.map((process) => process.stop()));
  }
}

const AWAY = { status: 503, error: "unavailable", reason: "string" };

describe("the database going away under two server instances", () => {
  it(`${RESTARTS} shutdowns and starts of PostgreSQL: 503 while it is down, then play goes on, nothing acknowledged lost`, async () => {
    const cluster = await clusterWith("war");
    try {
      const downWhile: Array<{ status: number; error: unknown; reason: unknown }> = [];
      await playThrough(
        cluster.urlOf("war"),
        () => cluster.urlOf("war"),
        async (urls, tokens) => {
          for (let restart = 0; restart < RESTARTS; restart++) {
            await sleep(2_000);
            await cluster.shutDown();
            // Each instance answers, and says why it cannot serve, while the database is down.
            downWhile.push(...(await whileAway(urls, tokens)));
            await sleep(1_000);
            await cluster.startAgain();
          }
        },
      );
      expect(downWhile).toEqual(Array.from({ length: RESTARTS * 2 }, () => AWAY));
    } finally {
      await cluster.stop();
    }
  }, 400_000);

  it("a failover to a promoted streaming replica behind the database's address: 503 meanwhile, then play goes on there", async () => {
    const primary = await clusterWith("war");
    let replica: Cluster | undefined;
    // The database's address, as a virtual IP or a DNS name is: moved to the replica once it is promoted.
    const address = await startTcpProxy(primary.port);
    try {
      replica = await startReplica(primary);
      const promoted = replica;
      const store = new URL(primary.urlOf("war"));
      store.port = String(address.port);
      const downWhile: Array<{ status: number; error: unknown; reason: unknown }> = [];
      await playThrough(
        store.toString(),
        () => promoted.urlOf("war"),
        async (urls, tokens) => {
          await sleep(3_000);
          // The primary stops (a fast shutdown sends the standby every commit it acknowledged first).
          await primary.shutDown();
          downWhile.push(...(await whileAway(urls, tokens)));
          await promoted.promote();
          address.moveTo(promoted.port);
        },
      );
      expect(downWhile).toEqual([AWAY, AWAY]);
    } finally {
      await address.close();
      await replica?.stop();
      await primary.stop();
    }
  }, 400_000);
});
