/**
 * The database goes away and comes back: two `epicwar serve` instances on one PostgreSQL database, a player's demo at
 * each and the organiser giving commands through both, while the database is shut down (`pg_ctl stop --mode fast`,
 * every connection ended) and started again, several times, with no supervisor. While it is down each instance answers
 * 503 `unavailable` with a reason; once it is back they serve again by themselves. At the end every instance is still
 * running, every command answered 200 is in the log, and the campaign was played to its end. The cluster is the test's
 * own, since it is stopped.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { startCluster } from "../support/postgres-cluster.js";
import { tempDir } from "../support/tmp.js";
import {
  epicwar,
  epicwarDone,
  finishedCampaign,
  keptLine,
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

describe("the database restarted under two server instances", () => {
  it(`${RESTARTS} shutdowns and starts of PostgreSQL: 503 while it is down, then play goes on, nothing acknowledged lost`, async () => {
    const cluster = await startCluster();
    const dir = await tempDir("epicwar-pg-restart-");
    const at = (machine: string) => ({ cwd: join(dir, machine), home: join(dir, machine) });
    for (const name of ["serverA", "serverB", "concord", "horde"]) await mkdir(join(dir, name));
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query("CREATE DATABASE war");
    await admin.end();
    const store = cluster.urlOf("war");
    const running: CliProcess[] = [];
    try {
      const [serveA, serveB] = await twoInstances(store, at("serverA"), at("serverB"));
      running.push(serveA, serveB);
      const urls = [await servedAt(serveA), await servedAt(serveB)];
      const link = async (serve: CliProcess, server: string, seat: string) =>
        (await keptLine(serve, at(server).cwd, `${CAMPAIGN} ${seat} `)).split(" ")[2]!;
      for (const [serve, server, seat] of [
        [serveA, "serverA", "concord"],
        [serveB, "serverB", "horde"],
      ] as const) {
        const joined = await epicwarDone(["join", await link(serve, server, seat)], at(seat));
        expect(joined.code, joined.stderr).toBe(0);
      }
      const hostTokens: string[] = [];
      for (const [index, [serve, server]] of (
        [
          [serveA, "serverA"],
          [serveB, "serverB"],
        ] as const
      ).entries()) {
        const invite = (await link(serve, server, "host")).split("#")[1]!;
        const session = await fetch(`${urls[index]}/session`, {
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

      const downWhile: Array<{ status: number; error: unknown; reason: unknown }> = [];
      for (let restart = 0; restart < RESTARTS; restart++) {
        await sleep(2_000);
        await cluster.shutDown();
        // Each instance answers, and says why it cannot serve, while the database is down.
        for (const [index, url] of urls.entries()) {
          const answer = await fetch(`${url}/campaigns/${CAMPAIGN}/state`, {
            headers: { authorization: `Bearer ${hostTokens[index]!}` },
          });
          const body = (await answer.json()) as { error: unknown; reason: unknown };
          downWhile.push({ status: answer.status, error: body.error, reason: typeof body.reason });
        }
        await sleep(1_000);
        await cluster.startAgain();
      }
      // Both instances take commands again by themselves after the last start.
      const before = loads.map((load) => load.acknowledged.length);
      for (let waited = 0; loads.some((load, index) => load.acknowledged.length === before[index]); waited++) {
        expect(waited, "a command acknowledged by each instance within 60 s of the last start").toBeLessThan(600);
        await sleep(100);
      }
      expect(downWhile).toEqual(
        Array.from({ length: RESTARTS * 2 }, () => ({ status: 503, error: "unavailable", reason: "string" })),
      );

      expect(await Promise.all(players.map((p) => p.exited)), players.map((p) => p.err()).join("")).toEqual([0, 0]);
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
      const reader = new pg.Client({ connectionString: store });
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
      const verified = await epicwarDone(["verify", "--store", store, "--db", "war"], at("serverA"));
      expect(verified.code, verified.stderr).toBe(0);
    } finally {
      await Promise.all(running.map((process) => process.stop()));
      await cluster.stop();
    }
  }, 400_000);
});
