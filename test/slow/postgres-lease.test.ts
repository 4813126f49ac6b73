/**
 * Every instance is alike: two `epicwar serve` instances on one PostgreSQL database, both given the same secrets key
 * and neither started with --no-host-chores. The host's secrets of a campaign live in the database, sealed with that
 * key; which instance takes the host's steps is a lease held through the database. The one that holds it is killed
 * (kill -9) in turn 1, and the instances' address (a TCP proxy) moved to the other: it takes the lease within seconds
 * and the players, who played through the address at the first, play on at the other to the end with the tokens and
 * server key they hold (docs/scaling.md, "An instance lost").
 */
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { freshDatabase } from "../support/postgres.js";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy.js";
import { tempDir } from "../support/tmp.js";
import { within } from "../support/within.js";
import {
  alikeInstances,
  createAshfall,
  epicwar,
  epicwarDone,
  finishedCampaign,
  TAKES_HOST_STEPS,
  type CliProcess,
} from "./cli-process.js";

const CAMPAIGN = "ashfall";

describe("the host's steps on a shared PostgreSQL database", () => {
  it("move to the other instance when the one holding them is killed; play goes on there to the end", async () => {
    const store = await freshDatabase("lease");
    const dir = await tempDir("epicwar-lease-");
    // A first, so that it holds the lease; then B, which waits for it.
    const { at, serveA, urlA, serveB, urlB, operator } = await alikeInstances(store, dir, ["concord", "horde"]);
    const running: CliProcess[] = [serveA, serveB];
    let address: TcpProxy | undefined;
    try {
      // Made through A, by its operator: its host's turn-1 seed is sealed in the database, not in A's folder.
      const invites = await createAshfall(urlA, operator);

      // The players join and play through the instances' address (a TCP proxy standing for a load balancer), which
      // sends them to A.
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
