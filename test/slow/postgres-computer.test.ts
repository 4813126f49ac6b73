/**
 * The computer's seats on a shared PostgreSQL database (docs/scaling.md, "Every instance is alike"): a campaign of
 * Ashfall against the computer is made through instance A, which holds the host's steps' lease and so takes the
 * computer's steps; A is killed (kill -9) in turn 1 and the address moved to B, which takes the lease and the
 * computer's steps from the settings and sealed secrets in the database, and the human plays on there to a winner.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { sequenceRandomHex } from "../../src/client/prepare.js";
import { RemoteCampaign } from "../../src/client/remote.js";
import { FileSecrets } from "../../src/client/secrets.js";
import { ServerConnection } from "../../src/client/server.js";
import { Table } from "../../src/client/table.js";
import { COMPUTER, HUMAN, playHumanSide } from "../support/computer-human.js";
import { freshDatabase } from "../support/postgres.js";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy.js";
import { tempDir } from "../support/tmp.js";
import { within } from "../support/within.js";
import { alikeInstances, createAshfall, epicwarDone, TAKES_HOST_STEPS, type CliProcess } from "./cli-process.js";

const CAMPAIGN = "ashfall";
/** Polls for the computer's steps at most this many times per wait, POLL_MS apart: some 90 seconds. */
const MAX_POLLS = 900;
const POLL_MS = 100;

describe("the computer's seats on a shared PostgreSQL database", () => {
  it("a campaign against the computer made on A plays on at B when A is killed, B taking the computer's steps", async () => {
    const store = await freshDatabase("computer");
    const dir = await tempDir("epicwar-pg-computer-");
    const { at, serveA, urlA, serveB, urlB, operator } = await alikeInstances(store, dir, [HUMAN]);
    const running: CliProcess[] = [serveA, serveB];
    let address: TcpProxy | undefined;
    try {
      const invites = await createAshfall(urlA, operator, { computer: { seat: COMPUTER, level: "scripted" } });
      expect(Object.keys(invites)).not.toContain(COMPUTER);
      // B knows the computer's seat from the database, within a second of the campaign's creation at A.
      await within(10, "B serves the campaign", async () => {
        const listed = await fetch(`${urlB}/campaigns`, { headers: { authorization: `Bearer ${operator}` } });
        const { campaigns } = (await listed.json()) as { campaigns: Array<{ id: string; computer: string | null }> };
        return campaigns.some((entry) => entry.id === CAMPAIGN && entry.computer === COMPUTER);
      });

      address = await startTcpProxy(Number(new URL(urlA).port));
      const url = `http://127.0.0.1:${address.port}`;
      const secrets = join(dir, HUMAN, "secrets");
      const joined = await epicwarDone(["join", `${url}/join#${invites[HUMAN]}`, "--secrets", secrets], at(HUMAN));
      expect(joined.code, joined.stderr).toBe(0);
      const { token } = JSON.parse(await readFile(join(secrets, CAMPAIGN, ".token.json"), "utf8")) as {
        token: string;
      };
      const human = new Table(new RemoteCampaign(new ServerConnection(url, token)), CAMPAIGN, {
        parties: new Set([HUMAN]),
        secrets: new FileSecrets(secrets, CAMPAIGN),
        random: sequenceRandomHex("human-against-the-shared-computer"),
      });

      const reader = new pg.Client({ connectionString: store });
      await reader.connect();
      const computerEventsAfter = async (seq: number) =>
        Number(
          (
            await reader.query<{ count: string }>(
              "SELECT count(*) FROM events WHERE stream = $1 AND seq > $2 AND body LIKE $3",
              [CAMPAIGN, seq, `%"actor":"${COMPUTER}"%`],
            )
          ).rows[0]!.count,
        );
      let killedAt: number | undefined;
      try {
        const proxy = address;
        const state = await playHumanSide(human, {
          pollMs: POLL_MS,
          maxPolls: MAX_POLLS,
          // Turn 1 under way, the computer having taken steps at A: A, the lease's holder, is killed.
          before: async (seen) => {
            if (killedAt !== undefined || seen.turn < 1 || (await computerEventsAfter(0)) === 0) return;
            killedAt = seen.seq;
            serveA.child.kill("SIGKILL");
            await serveA.exited;
            proxy.moveTo(Number(new URL(urlB).port));
            await within(15, "B takes the host's steps", () => TAKES_HOST_STEPS.test(serveB.err()));
          },
        });
        expect(state.result).not.toBeNull();
        expect(killedAt, "A was killed during the campaign").toBeDefined();
        // The computer's steps after the kill were taken by B.
        expect(await computerEventsAfter(killedAt!)).toBeGreaterThan(0);
        expect(serveB.child.exitCode).toBe(null);

        // Its settings and its secrets are in the database, the secrets sealed; none in either instance's folder.
        const settings = await reader.query<{ campaign: string; settings: string }>(
          "SELECT campaign, settings FROM computer_seats",
        );
        expect(settings.rows.map((row) => [row.campaign, JSON.parse(row.settings).seat])).toEqual([
          [CAMPAIGN, COMPUTER],
        ]);
        const sealed = await reader.query<{ party: string; sealed: string }>(
          "SELECT party, sealed FROM sealed_texts WHERE stream = $1 ORDER BY party",
          [CAMPAIGN],
        );
        expect(sealed.rows.map((row) => row.party)).toEqual(["host", COMPUTER].sort());
        for (const { sealed: text } of sealed.rows) {
          expect(text).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
          expect(text).not.toMatch(/seeds|seatKey|privateKey|orders/);
        }
        for (const server of ["serverA", "serverB"])
          expect(existsSync(join(dir, server, "war-server", "computer")), server).toBe(false);
      } finally {
        await reader.end();
      }
    } finally {
      await Promise.all(running.map((process) => process.stop()));
      await address?.close();
    }
  }, 600_000);
});
