/**
 * Backup and restore, as docs/scaling.md's procedure says ("Backup and restore"), on both stores. A campaign is played
 * into its turn 2 through a server and backed up: on PostgreSQL, whose instance holds the secrets key so that
 * everything a campaign needs is in the database (its log, its seats, the host's secrets and the servers' key, these
 * sealed), with `pg_dump` while the server runs, the dump holding the host's secrets only sealed; on LevelDB by copying
 * its three folders once the server has stopped. It is restored into a fresh database or folder on a machine of its
 * own, served there at the old address, and the players' demos play on, with the tokens and pinned key they had, to
 * the end; the restored log verifies and audits clean.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cp, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import type { AuditReport } from "../../replays/audit-report.js";
import { examplePath } from "../../src/setup/package-files.js";
import { loadSetupFile } from "../../src/setup/setup-loader.js";
import { freePort } from "../support/postgres-cluster.js";
import { freshDatabase } from "../support/postgres.js";
import { tempDir } from "../support/tmp.js";
import { within } from "../support/within.js";
import { epicwar, epicwarDone, finishedCampaign, operatorTokenOf, servedAt, type CliProcess } from "./cli-process.js";

const run = promisify(execFile);

/** How a store is served, backed up and restored, on the original machine and on the one restored to. */
interface Backup {
  /** `epicwar serve`'s arguments but the port, on the original (false) or the restored machine (true). */
  serve(restored: boolean): string[];
  /** Backs the campaign up, given how to stop the original server (before or after, as the store allows). */
  backUp(stopServer: () => Promise<void>): Promise<void>;
  restore(): Promise<void>;
  /** The arguments that name the restored log to `verify` and `audit`. */
  restoredLog(): string[];
}

/** Plays a campaign into its turn 2, backs it up, restores it on another machine and plays it on there to the end. */
async function playBackUpAndRestore(dir: string, backup: Backup, env: Record<string, string> = {}): Promise<void> {
  const at = (machine: string) => ({ cwd: join(dir, machine), home: join(dir, machine), env });
  for (const name of ["server", "restored", "concord", "horde"]) await mkdir(join(dir, name), { recursive: true });
  const port = String(await freePort());
  const serve = (restored: boolean) =>
    epicwar([...backup.serve(restored), "--port", port], at(restored ? "restored" : "server"));
  const running: CliProcess[] = [];
  try {
    const first = serve(false);
    running.push(first);
    const url = await servedAt(first);
    const operator = await operatorTokenOf([at("server").cwd]);
    const created = await fetch(`${url}/campaigns`, {
      method: "POST",
      headers: { authorization: `Bearer ${operator}`, "content-type": "application/json" },
      body: JSON.stringify(await loadSetupFile(examplePath("ashfall.setup.json"))),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const { invites } = (await created.json()) as { invites: Record<string, string> };
    const demos = () => ["concord", "horde"].map((seat) => epicwar(["--server", url, "demo"], at(seat)));
    for (const seat of ["concord", "horde"]) {
      const joined = await epicwarDone(["join", `${url}/join#${invites[seat]}`], at(seat));
      expect(joined.code, joined.stderr).toBe(0);
    }
    const before = demos();
    running.push(...before);
    await within(120, "turn 2 starts", () => before[0]!.out.some((line) => line.includes("== Turn 2 ==")));
    for (const demo of before) await demo.stop();
    await backup.backUp(() => first.stop().then(() => undefined));
    // The original machine is lost.
    await first.stop();
    await backup.restore();

    // Served at the old address by the new machine: the players play on with what they kept.
    const restored = serve(true);
    running.push(restored);
    expect(await servedAt(restored)).toBe(url);
    const after = demos();
    running.push(...after);
    const codes = await Promise.all(after.map((demo) => demo.exited));
    expect(codes, after.map((demo) => demo.err().split("\n").slice(-10).join("\n")).join("\n---\n")).toEqual([0, 0]);
    await finishedCampaign(url, at("concord"), after);
    // Read by a CLI of its own once the server has closed the log (a LevelDB folder has one process at a time).
    await restored.stop();

    const verified = await epicwarDone(["verify", ...backup.restoredLog()], at("restored"));
    expect(verified.code, verified.stderr).toBe(0);
    const audit = await epicwarDone(["audit", ...backup.restoredLog(), "--json"], at("restored"));
    expect(audit.code, audit.stderr).toBe(0);
    expect(JSON.parse(audit.stdout) as AuditReport).toMatchObject({ ok: true, findings: [], pending: 0 });
  } finally {
    for (const process of running) await process.stop();
  }
}

describe("a backup and its restore", () => {
  it("on PostgreSQL (pg_dump while the server runs): restored into a fresh database, played on to the end, clean", async () => {
    const store = await freshDatabase("backup");
    const restoredStore = await freshDatabase("restored");
    const dir = await tempDir("epicwar-backup-");
    const keyFile = join(dir, "secrets.key");
    await writeFile(keyFile, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600 });
    const dump = join(dir, "war.dump");
    await playBackUpAndRestore(
      dir,
      {
        serve: (restored) => ["serve", "--store", restored ? restoredStore : store, "--db", "war"],
        backUp: async () => {
          // One consistent snapshot of the database, taken while the server serves.
          await run("pg_dump", ["--format=custom", "--no-owner", "--file", dump, store]);
          const { stdout } = await run("pg_restore", ["--data-only", "--table=sealed_texts", "--file=-", dump]);
          const sealedRows = stdout.split("\n").filter((line) => /^\S+\t\S+\t/.test(line));
          expect(sealedRows.length).toBeGreaterThan(0);
          for (const row of sealedRows) expect(row).toMatch(/^[^\t]+\t\S+\tv1\.[A-Za-z0-9_-]+$/);
        },
        restore: async () => {
          await run("pg_restore", ["--no-owner", "--exit-on-error", "--dbname", restoredStore, dump]);
        },
        restoredLog: () => ["--store", restoredStore, "--db", "war"],
      },
      { EPICWAR_SECRETS_KEY_FILE: keyFile },
    );
  }, 400_000);

  it("on LevelDB (its three folders copied once the server stopped): restored elsewhere, played on to the end, clean", async () => {
    const dir = await tempDir("epicwar-backup-");
    const folders = ["war", "war-secrets", "war-server"];
    await playBackUpAndRestore(dir, {
      serve: () => ["serve", "--db", "war"],
      backUp: async (stopServer) => {
        await stopServer();
        for (const folder of folders)
          await cp(join(dir, "server", folder), join(dir, "backup", folder), { recursive: true });
      },
      restore: async () => {
        for (const folder of folders)
          await cp(join(dir, "backup", folder), join(dir, "restored", folder), { recursive: true });
      },
      restoredLog: () => ["--db", "war"],
    });
  }, 400_000);
});
