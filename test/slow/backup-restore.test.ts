/**
 * Backup and restore on PostgreSQL, as docs/scaling.md's procedure says: every instance holds the secrets key, so that
 * everything a campaign needs is in the database (its log, its seats, the host's secrets and the servers' key, these
 * sealed). A campaign under way is dumped with `pg_dump` while its server runs; the dump holds the host's secrets only
 * sealed. It is restored into a fresh database, served there at the old address by an instance on a machine of its
 * own given the same key, and the players' demos play on, with the tokens and pinned key they had, to the end; the
 * restored log verifies and audits clean.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
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

describe("a backup of a PostgreSQL database with pg_dump", () => {
  it("is restored into a fresh database and played on there to the end, verifying and auditing clean", async () => {
    const store = await freshDatabase("backup");
    const dir = await tempDir("epicwar-backup-");
    const keyFile = join(dir, "secrets.key");
    await writeFile(keyFile, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600 });
    const at = (machine: string) => ({
      cwd: join(dir, machine),
      home: join(dir, machine),
      env: { EPICWAR_SECRETS_KEY_FILE: keyFile },
    });
    for (const name of ["server", "restored", "concord", "horde"]) await mkdir(join(dir, name));
    const port = String(await freePort());
    const serve = (machine: string, on: string) =>
      epicwar(["serve", "--store", on, "--db", "war", "--port", port], at(machine));
    const running: CliProcess[] = [];
    try {
      const first = serve("server", store);
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

      // The backup, taken while the server serves: one consistent snapshot of the database.
      const dump = join(dir, "war.dump");
      await run("pg_dump", ["--format=custom", "--no-owner", "--file", dump, store]);
      const { stdout: sql } = await run("pg_restore", ["--data-only", "--table=sealed_texts", "--file=-", dump]);
      const sealedRows = sql.split("\n").filter((line) => /^\S+\t\S+\t/.test(line));
      expect(sealedRows.length).toBeGreaterThan(0);
      for (const row of sealedRows) expect(row).toMatch(/^\S+\t\S+\tv1\.[A-Za-z0-9_-]+$/);

      // The old database's machine is lost: its server and the players' demos stop.
      for (const process of [...before, first]) await process.stop();
      const restoredStore = await freshDatabase("restored");
      await run("pg_restore", ["--no-owner", "--exit-on-error", "--dbname", restoredStore, dump]);

      // Served at the old address by a new machine with the same key: the players play on with what they kept.
      const restored = serve("restored", restoredStore);
      running.push(restored);
      expect(await servedAt(restored)).toBe(url);
      const after = demos();
      running.push(...after);
      const codes = await Promise.all(after.map((demo) => demo.exited));
      expect(codes, after.map((demo) => demo.err().split("\n").slice(-10).join("\n")).join("\n---\n")).toEqual([0, 0]);
      await finishedCampaign(url, at("concord"), after);

      const verified = await epicwarDone(["verify", "--store", restoredStore, "--db", "war"], at("restored"));
      expect(verified.code, verified.stderr).toBe(0);
      const audit = await epicwarDone(["audit", "--store", restoredStore, "--db", "war", "--json"], at("restored"));
      expect(audit.code, audit.stderr).toBe(0);
      expect(JSON.parse(audit.stdout) as AuditReport).toMatchObject({ ok: true, findings: [], pending: 0 });
    } finally {
      for (const process of running) await process.stop();
    }
  });
});
