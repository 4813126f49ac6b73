/**
 * Every instance is alike: two `epicwar serve` instances on one PostgreSQL database, both given the same secrets key
 * and neither started with --no-host-chores. The host's secrets of a campaign live in the database, sealed with that
 * key; which instance takes the host's steps is a lease held through the database. The one that holds it is killed
 * (kill -9) in turn 1, and the instances' address (a TCP proxy) moved to the other: it takes the lease within seconds
 * and the players, who played through the address at the first, play on at the other to the end with the tokens and
 * server key they hold (docs/scaling.md, "An instance lost"). The organiser's webhook, set at A, is served by B and
 * each turn's beginning posted to it once, by whichever instance holds the lease (docs/scaling.md, "The organiser's
 * webhooks").
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
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

/** A webhook's receiver on loopback: the JSON bodies posted to it, in order. */
async function startReceiver() {
  const bodies: Array<{ kind: string; turn: number }> = [];
  const server = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    request.on("end", () => {
      bodies.push(JSON.parse(text) as { kind: string; turn: number });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("the host's steps on a shared PostgreSQL database", () => {
  it("move to the other instance when the one holding them is killed; play goes on there to the end", async () => {
    const store = await freshDatabase("lease");
    const dir = await tempDir("epicwar-lease-");
    // A first, so that it holds the lease; then B, which waits for it.
    const { at, serveA, urlA, serveB, urlB, operator } = await alikeInstances(store, dir, ["concord", "horde"]);
    const running: CliProcess[] = [serveA, serveB];
    let address: TcpProxy | undefined;
    const receiver = await startReceiver();
    try {
      // Made through A, by its operator: its host's turn-1 seed is sealed in the database, not in A's folder.
      const invites = await createAshfall(urlA, operator);

      // The organiser, seated at B, sets a webhook at A: B serves it, and its notifications are posted once each, by
      // whichever instance holds the lease.
      const organiser = await fetch(`${urlB}/session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ invite: invites["host"] }),
      });
      expect(organiser.status, await organiser.clone().text()).toBe(200);
      const { token: hostToken } = (await organiser.json()) as { token: string };
      const webhooks = [{ url: `${receiver.url}/channel-key-in-the-path`, format: "json" }];
      const set = await fetch(`${urlA}/campaigns/${CAMPAIGN}/webhooks`, {
        method: "PUT",
        headers: { authorization: `Bearer ${hostToken}`, "content-type": "application/json" },
        body: JSON.stringify({ webhooks }),
      });
      expect(set.status, await set.clone().text()).toBe(200);
      // B serves the campaign within a second of its creation at A.
      let served: unknown;
      await within(10, "B serves the webhooks", async () => {
        const answer = await fetch(`${urlB}/campaigns/${CAMPAIGN}/webhooks`, {
          headers: { authorization: `Bearer ${hostToken}` },
        });
        served = await answer.json();
        return answer.status === 200;
      });
      expect(served).toEqual({ webhooks });

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
      await within(10, "A tells the webhook turn 1 began", () =>
        receiver.bodies.some((body) => body.kind === "turn-began"),
      );
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
      const finished = await finishedCampaign(url, at("concord"), players);
      expect(serveB.child.exitCode).toBe(null);
      // Each turn's beginning was told once: turn 1 by A, the others by B, which took over.
      const began = receiver.bodies.filter((body) => body.kind === "turn-began").map((body) => body.turn);
      expect(began).toEqual(Array.from({ length: finished.turn }, (_, index) => index + 1));

      // The host's secrets are in the database, sealed: no seed nor key in the clear.
      const reader = new pg.Client({ connectionString: store });
      await reader.connect();
      const { rows } = await reader.query<{ stream: string; party: string; sealed: string }>(
        "SELECT stream, party, sealed FROM sealed_texts ORDER BY stream, party",
      );
      await reader.end();
      // The campaign's host's secrets, the one key both instances sign receipts with, and the webhooks.
      expect(rows.map(({ stream, party }) => `${stream}/${party}`)).toEqual([
        `${CAMPAIGN}/host`,
        "epicwar servers/server-key",
        "epicwar servers/webhooks",
      ]);
      for (const { sealed } of rows) {
        expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
        expect(sealed).not.toMatch(/hostSeeds|seatKey|privateKey|channel-key/);
      }
    } finally {
      await Promise.all(running.map((process) => process.stop()));
      await address?.close();
      await receiver.close();
    }
  }, 400_000);
});
