/**
 * The log on PostgreSQL, shared: two `epicwar serve` instances on one database, with a player at each, play Ashfall
 * to its end, and each instance's live feed shows every event whichever instance took it; and a streaming replica
 * (`pg_basebackup -R`) of a database the demo was played on gives the same state, log, verify and audit as the
 * primary. Every CLI is a process of its own (test/slow/cli-process.ts); the clusters are the tests' own.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import type { AuditReport } from "../../replays/audit-report.js";
import { campaignResult } from "../../src/demo/play.js";
import type { CampaignView } from "../../src/views/view.js";
import { startCluster, startReplica } from "../support/postgres-cluster.js";
import { freshDatabase } from "../support/postgres.js";
import { tempDir } from "../support/tmp.js";
import {
  epicwar,
  epicwarDone,
  inviteLinkAt,
  operatorTokenOf,
  servedAt,
  twoInstances,
  type CliProcess,
} from "./cli-process.js";

const CAMPAIGN = "ashfall";

/** Homes of their own for the machines of a test, in a fresh folder. */
async function machines<M extends string>(names: readonly M[]): Promise<(machine: M) => { cwd: string; home: string }> {
  const dir = await tempDir("epicwar-pg-e2e-");
  for (const name of names) await mkdir(join(dir, name));
  return (machine) => ({ cwd: join(dir, machine), home: join(dir, machine) });
}

/** Joins a seat through a server (an invite the operator issues there), in a home. */
async function joinAt(url: string, operator: string, seat: string, at: { cwd: string; home: string }): Promise<void> {
  const joined = await epicwarDone(["join", await inviteLinkAt(url, operator, CAMPAIGN, seat)], at);
  expect(joined.code, joined.stderr).toBe(0);
}

describe("several servers on one PostgreSQL database", () => {
  it("two players at two server instances play Ashfall to a winner; every instance's feed has every event, in order", async () => {
    const store = await freshDatabase("servers");
    const at = await machines(["serverA", "serverB", "concord", "horde", "hostA", "hostB"] as const);
    const [serveA, serveB] = await twoInstances(store, at("serverA"), at("serverB"));
    const running: CliProcess[] = [serveA, serveB];
    try {
      const [urlA, urlB] = [await servedAt(serveA), await servedAt(serveB)];
      const operator = await operatorTokenOf([at("serverA").cwd, at("serverB").cwd]);
      await joinAt(urlA, operator, "concord", at("concord"));
      await joinAt(urlB, operator, "horde", at("horde"));
      await joinAt(urlA, operator, "host", at("hostA"));
      await joinAt(urlB, operator, "host", at("hostB"));
      const watchA = epicwar(["--server", urlA, "watch", "--from-seq", "0"], at("hostA"));
      const watchB = epicwar(["--server", urlB, "watch", "--from-seq", "0"], at("hostB"));
      const players = [
        epicwar(["--server", urlA, "demo"], at("concord")),
        epicwar(["--server", urlB, "demo"], at("horde")),
      ];
      running.push(watchA, watchB, ...players);
      expect(await Promise.all(players.map((p) => p.exited)), players.map((p) => p.err()).join("")).toEqual([0, 0]);
      await Promise.all([watchA.line(/CampaignFinished/), watchB.line(/CampaignFinished/)]);

      const stateA = await epicwarDone(["--server", urlA, "state", "--json"], at("hostA"));
      const stateB = await epicwarDone(["--server", urlB, "state", "--json"], at("hostB"));
      expect(stateA.code, stateA.stderr).toBe(0);
      const final = JSON.parse(stateA.stdout) as CampaignView;
      expect(final.status).toBe("finished");
      expect(final.result).not.toBeNull();
      expect(JSON.parse(stateB.stdout)).toEqual(final);
      for (const player of players) expect(player.out.at(-1)).toBe(campaignResult(final));

      // Both feeds printed every event once and in order: what the log holds.
      const log = await epicwarDone(["--server", urlA, "log"], at("hostA"));
      expect(log.code, log.stderr).toBe(0);
      expect(await watchA.stop()).toBe(0);
      expect(await watchB.stop()).toBe(0);
      const lines = log.stdout.trimEnd().split("\n");
      expect(lines.length).toBe(final.seq);
      expect(watchA.out).toEqual(lines);
      expect(watchB.out).toEqual(lines);

      // The log in the database verifies and audits clean, read by a CLI of its own.
      const audit = await epicwarDone(["audit", "--store", store, "--db", "war", "--json"], at("serverA"));
      expect(audit.code, audit.stderr).toBe(0);
      expect(JSON.parse(audit.stdout) as AuditReport).toMatchObject({ ok: true, findings: [], pending: 0 });
    } finally {
      await Promise.all(running.slice(2).map((process) => process.stop()));
      expect(await serveB.stop()).toBe(0);
      expect(await serveA.stop()).toBe(0);
    }
  }, 300_000);
});

describe("a streaming replica of the database", () => {
  it("gives the same state, raw log, verify and audit as the primary", async () => {
    const primary = await startCluster();
    let replica: Awaited<ReturnType<typeof startReplica>> | undefined;
    try {
      replica = await startReplica(primary);
      // Commits wait until the replica has applied them: what the primary acknowledged, the replica shows.
      const admin = new pg.Client({ connectionString: primary.url });
      await admin.connect();
      try {
        await admin.query("ALTER SYSTEM SET synchronous_standby_names = '*'");
        await admin.query("ALTER SYSTEM SET synchronous_commit = 'remote_apply'");
        await admin.query("SELECT pg_reload_conf()");
        await admin.query("CREATE DATABASE war");
      } finally {
        await admin.end();
      }
      const at = await machines(["organiser", "reader"] as const);
      const demo = await epicwarDone(["demo", "--store", primary.urlOf("war"), "--db", "war"], at("organiser"));
      expect(demo.code, demo.stderr).toBe(0);
      for (const command of [["state", "--json"], ["log", "--raw"], ["verify"], ["audit", "--json"]]) {
        const onPrimary = await epicwarDone(
          [...command, "--store", primary.urlOf("war"), "--db", "war"],
          at("organiser"),
        );
        // The reader names its store in the environment ($EPICWAR_STORE) rather than with --store.
        const onReplica = await epicwarDone([...command, "--db", "war"], {
          ...at("reader"),
          env: { EPICWAR_STORE: replica.urlOf("war") },
        });
        expect(onPrimary.code, onPrimary.stderr).toBe(0);
        expect(onReplica.code, onReplica.stderr).toBe(0);
        expect(onReplica.stdout, command.join(" ")).toBe(onPrimary.stdout);
      }
      const final = JSON.parse(
        (await epicwarDone(["state", "--json", "--store", replica.urlOf("war"), "--db", "war"], at("reader"))).stdout,
      ) as CampaignView;
      expect(final.status).toBe("finished");
    } finally {
      await replica?.stop();
      await primary.stop();
    }
  }, 300_000);
});
