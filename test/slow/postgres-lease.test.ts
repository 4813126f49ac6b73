/**
 * Every instance is alike: two `epicwar serve` instances on one PostgreSQL database, both given the same secrets key
 * and neither started with --no-host-chores. The host's secrets of a campaign live in the database, sealed with that
 * key; which instance takes the host's steps is a lease held through the database. The one that holds it is killed
 * (kill -9) in turn 1, and the instances' address (a TCP proxy) moved to the other: it takes the lease within seconds
 * and the players, who played through the address at the first, play on at the other to the end with the tokens and
 * server key they hold (docs/scaling.md, "An instance lost").
 */
import { mkdir, writeFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { examplePath } from "../../src/setup/package-files.js";
import { loadSetupFile } from "../../src/setup/setup-loader.js";
import { freshDatabase } from "../support/postgres.js";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy.js";
import { tempDir } from "../support/tmp.js";
import { within } from "../support/within.js";
import { epicwar, epicwarDone, finishedCampaign, keptLine, servedAt, type CliProcess } from "./cli-process.js";

const CAMPAIGN = "ashfall";
/** What an instance logs when it comes to hold the host's steps' lease. */
const TAKES_HOST_STEPS = /takes the host's steps/;

describe("the host's steps on a shared PostgreSQL database", () => {
  it("move to the other instance when the one holding them is killed; play goes on there to the end", async () => {
    const store = await freshDatabase("lease");
    const dir = await tempDir("epicwar-lease-");
    const at = (machine: string) => ({
      cwd: join(dir, machine),
      home: join(dir, machine),
      env: { EPICWAR_SECRETS_KEY_FILE: join(dir, "secrets.key") },
    });
    for (const name of ["serverA", "serverB", "concord", "horde"]) await mkdir(join(dir, name));
    await writeFile(join(dir, "secrets.key"), `${randomBytes(32).toString("hex")}\n`, { mode: 0o600 });
    const running: CliProcess[] = [];
    let address: TcpProxy | undefined;
    const serve = (machine: string) => epicwar(["serve", "--store", store, "--db", "war", "--port", "0"], at(machine));
    try {
      // A first, so that it holds the lease; then B, which waits for it.
      const serveA = serve("serverA");
      running.push(serveA);
      const urlA = await servedAt(serveA);
      await within(30, "A takes the host's steps", () => TAKES_HOST_STEPS.test(serveA.err()));
      const serveB = serve("serverB");
      running.push(serveB);
      const urlB = await servedAt(serveB);

      // Made through A, by its operator: its host's turn-1 seed is sealed in the database, not in A's folder.
      const operator = (await keptLine(serveA, at("serverA").cwd, "Operator token")).split(": ")[1]!;
      const created = await fetch(`${urlA}/campaigns`, {
        method: "POST",
        headers: { authorization: `Bearer ${operator}`, "content-type": "application/json" },
        body: JSON.stringify(await loadSetupFile(examplePath("ashfall.setup.json"))),
      });
      expect(created.status, await created.clone().text()).toBe(201);

      // The players join and play through the instances' address (a TCP proxy standing for a load balancer), which
      // sends them to A.
      const { invites } = (await created.json()) as { invites: Record<string, string> };
      address = await startTcpProxy(Number(new URL(urlA).port));
      const url = `http://127.0.0.1:${address.port}`;
      const players: CliProcess[] = [];
      for (const seat of ["concord", "horde"]) {
        const joined = await epicwarDone(["join", `${url}/join#${invites[seat]}`], at(seat));
        expect(joined.code, joined.stderr).toBe(0);
        players.push(epicwar(["--server", url, "demo"], at(seat)));
      }
      running.push(...players);

      // Turn 1 under way (A rolled its initiative): A, the lease's holder, is killed.
      await within(60, "turn 1 starts", () => players[0]!.out.some((line) => line.includes("== Turn 1 ==")));
      expect(TAKES_HOST_STEPS.test(serveB.err())).toBe(false);
      serveA.child.kill("SIGKILL");
      await serveA.exited;
      // The load balancer sends them to B from now on: their tokens and the key they pinned hold there.
      address.moveTo(Number(new URL(urlB).port));
      await within(15, "B takes the host's steps", () => TAKES_HOST_STEPS.test(serveB.err()));

      const tails = () =>
        [serveB, ...players].map((process) => process.err().split("\n").slice(-15).join("\n")).join("\n---\n");
      const ended = await Promise.race([
        Promise.all(players.map((player) => player.exited)),
        sleep(240_000).then(() => "stuck"),
      ]);
      expect(ended, tails()).toEqual([0, 0]);
      await finishedCampaign(url, at("concord"), players);
      expect(serveB.child.exitCode).toBe(null);

      // The host's secrets are in the database, sealed: no seed nor key in the clear.
      const reader = new pg.Client({ connectionString: store });
      await reader.connect();
      const { rows } = await reader.query<{ stream: string; party: string; sealed: string }>(
        "SELECT stream, party, sealed FROM sealed_texts ORDER BY stream, party",
      );
      await reader.end();
      // The campaign's host's secrets, and the one key both instances sign receipts with.
      expect(rows.map(({ stream, party }) => `${stream}/${party}`)).toEqual([
        `${CAMPAIGN}/host`,
        "epicwar servers/server-key",
      ]);
      for (const { sealed } of rows) {
        expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
        expect(sealed).not.toMatch(/hostSeeds|seatKey|privateKey/);
      }
    } finally {
      await Promise.all(running.map((process) => process.stop()));
      await address?.close();
    }
  }, 400_000);
});
