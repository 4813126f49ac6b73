/**
 * The seats live in the database: two servers on one PostgreSQL database admit the same players. An invite made at A
 * is redeemed at B and its token acts at A; a revoked token (a session's own, or every token of a seat) is refused at
 * both within a second, and a feed it opened at the other server ends; the database holds only hashes; both servers
 * sign receipts with one key, the key sealed in the database.
 */
import { createHash, randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/server/serve.js";
import { freshDatabase } from "../support/postgres.js";
import { tempDir } from "../support/tmp.js";
import { within } from "../support/within.js";
import { ashfallSetup } from "../server/support.js";

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

describe("seats on a shared PostgreSQL database", () => {
  it("an invite made at one server is redeemed at the other and acts at both; a revoked token is refused at both", async () => {
    const store = await freshDatabase("seats");
    const dir = await tempDir("epicwar-seats-");
    const keyFile = join(dir, "secrets.key");
    await writeFile(keyFile, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600 });
    const servers: RunningServer[] = [];
    const printed: string[][] = [];
    try {
      for (const name of ["a", "b"]) {
        const lines: string[] = [];
        printed.push(lines);
        servers.push(
          await startServer(
            {
              db: join(dir, name),
              store,
              secretsKeyFile: keyFile,
              host: "127.0.0.1",
              port: 0,
              secrets: join(dir, `${name}-secrets`),
              serverData: join(dir, `${name}-server`),
              printSecrets: true,
            },
            (line) => void lines.push(line),
          ),
        );
      }
      const [a, b] = servers as [RunningServer, RunningServer];
      // One operator token for the database, made by the first server to start.
      const operatorLines = printed.map((lines) => lines.filter((line) => line.startsWith("Operator token")));
      expect(operatorLines.map((lines) => lines.length)).toEqual([1, 0]);
      const operator = /: (ewt_\S+)$/.exec(operatorLines[0]![0]!)![1]!;
      const request = (server: RunningServer, method: string, url: string, token?: string, body?: unknown) =>
        fetch(`${server.url}${url}`, {
          method,
          headers: { ...(token ? auth(token) : {}), ...(body ? { "content-type": "application/json" } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });

      const created = await request(a, "POST", "/campaigns", operator, await ashfallSetup());
      expect(created.status, await created.clone().text()).toBe(201);
      const { invites } = (await created.json()) as { invites: Record<string, string> };

      // An invite made at A, redeemed at B: its token acts at A at once (a command), and at B.
      const issued = await request(a, "POST", "/campaigns/ashfall/invites", operator, { seat: "concord" });
      expect(issued.status).toBe(201);
      const { invite } = (await issued.json()) as { invite: string };
      const redeemed = await request(b, "POST", "/session", undefined, { invite });
      expect(redeemed.status, await redeemed.clone().text()).toBe(200);
      const { token: concord } = (await redeemed.json()) as { token: string };
      // Spent everywhere.
      expect((await request(a, "POST", "/session", undefined, { invite })).status).toBe(401);
      const { seq } = (await (await request(a, "GET", "/campaigns/ashfall/state", concord)).json()) as { seq: number };
      const seedHash = createHash("sha256").update(randomBytes(32).toString("hex")).digest("hex");
      const committed = await request(a, "POST", "/campaigns/ashfall/commands", concord, {
        expectedSeq: seq,
        commands: [{ actor: "concord", type: "CommitSeed", seedHash }],
      });
      expect(committed.status, await committed.clone().text()).toBe(200);
      // B serves a campaign made at A within a second (docs/scaling.md).
      await expect
        .poll(async () => (await request(b, "GET", "/campaigns/ashfall/state", concord)).status, { timeout: 2_000 })
        .toBe(200);

      // One key signs the receipts of both: a receipt verifies whichever server answered.
      const keyOf = async (server: RunningServer) =>
        ((await (await request(server, "GET", "/server-key")).json()) as { publicKey: string }).publicKey;
      expect(await keyOf(a)).toBe(await keyOf(b));

      // A session ended at B: its token is refused at B at once, and at A within a second.
      expect((await request(b, "DELETE", "/session", concord)).status).toBe(204);
      expect((await request(b, "GET", "/campaigns/ashfall/state", concord)).status).toBe(401);
      await within(
        2,
        "A refuses the token revoked at B",
        async () => (await request(a, "GET", "/campaigns/ashfall/state", concord)).status === 401,
      );

      // Every token of a seat revoked at A: refused at B within a second, and its feed open at B ends.
      const horde = (await (await request(b, "POST", "/session", undefined, { invite: invites["horde"] })).json()) as {
        token: string;
      };
      const feed = await request(b, "GET", "/campaigns/ashfall/feed", horde.token);
      expect(feed.status).toBe(200);
      const feedEnded = (async () => {
        const reader = feed.body!.getReader();
        while (!(await reader.read()).done);
        return true;
      })();
      const revoked = await request(a, "DELETE", "/campaigns/ashfall/seats/horde", operator);
      expect(await revoked.json()).toEqual({ revoked: 1 });
      await within(
        2,
        "B refuses the seat's token revoked at A",
        async () => (await request(b, "GET", "/campaigns/ashfall/state", horde.token)).status === 401,
      );
      await within(3, "the feed at B of the revoked token ends", () =>
        Promise.race([feedEnded, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 100))]),
      );
      expect((await request(a, "GET", "/campaigns/ashfall/state", horde.token)).status).toBe(401);

      // The database holds hashes only: no token or invite as issued.
      const client = new pg.Client({ connectionString: store });
      await client.connect();
      try {
        const { rows } = await client.query<{ text: string }>(
          "SELECT string_agg(hash, ' ') AS text FROM (SELECT hash FROM seat_tokens UNION ALL SELECT hash FROM seat_invites) AS hashes",
        );
        const stored = rows[0]!.text;
        expect(stored).toMatch(/^[0-9a-f]{64}( [0-9a-f]{64})+$/);
        for (const secret of [operator, concord, horde.token, invite, ...Object.values(invites)])
          expect(stored).not.toContain(secret);
      } finally {
        await client.end();
      }
    } finally {
      for (const server of servers) await server.close();
    }
  });
});
