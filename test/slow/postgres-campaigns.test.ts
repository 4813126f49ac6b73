/**
 * Campaigns made anywhere are served everywhere: two servers on one PostgreSQL database, whose seats are kept in it.
 * A campaign made through one (POST /campaigns) or beside them (`epicwar new --store`) is served by both within a
 * second or so, without a restart: listed to the operator, seated once (its invites, good at either server, kept in
 * the invites file of the server that found it first), and its host's steps taken by the server that takes them,
 * whichever made it.
 */
import { createHash, randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { examplePath } from "../../src/setup/package-files.js";
import { INVITES_FILE } from "../../src/server/invites-file.js";
import { startServer, type RunningServer } from "../../src/server/serve.js";
import { runInProcess } from "../support/cli.js";
import { freshDatabase } from "../support/postgres.js";
import { tempDir } from "../support/tmp.js";
import { within } from "../support/within.js";
import { ashfallSetup } from "../server/support.js";

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

describe("campaigns made on one instance, or by the CLI, on a shared PostgreSQL database", () => {
  it("are served by every instance without a restart, seated there, their host's steps taken", async () => {
    const store = await freshDatabase("found");
    const dir = await tempDir("epicwar-found-");
    const servers: RunningServer[] = [];
    const operators: string[] = [];
    const serverData = (name: string) => join(dir, `${name}-server`);
    try {
      for (const [name, hostChores] of [
        ["a", true],
        ["b", false],
      ] as const) {
        const printed: string[] = [];
        const server = await startServer(
          {
            db: join(dir, name),
            store,
            hostChores,
            host: "127.0.0.1",
            port: 0,
            secrets: join(dir, "a-secrets"),
            serverData: serverData(name),
            printSecrets: true,
          },
          (line) => void printed.push(line),
        );
        servers.push(server);
        // The first to start makes the database's operator token; the second makes none, and uses the same.
        const made = printed.find((l) => l.startsWith("Operator token"));
        operators.push(made ? /^Operator token .*: (ewt_\S+)$/.exec(made)![1]! : operators[0]!);
        expect(made === undefined).toBe(name === "b");
      }
      const [a, b] = servers as [RunningServer, RunningServer];
      const listed = async (server: RunningServer, operator: string) =>
        (await server.app.inject({ method: "GET", url: "/campaigns", headers: auth(operator) }))
          .json<{ campaigns: Array<{ id: string }> }>()
          .campaigns.map((campaign) => campaign.id);

      // Made through B, which takes no host's steps: A serves it too, and takes them.
      const created = await b.app.inject({
        method: "POST",
        url: "/campaigns",
        headers: auth(operators[1]!),
        payload: await ashfallSetup(),
      });
      expect(created.statusCode, created.body).toBe(201);
      await within(2, "A lists the campaign made through B", async () =>
        (await listed(a, operators[0]!)).includes("ashfall"),
      );
      // B seated it with the campaign, so A issues no invites of its own for it; B's invite is redeemed at A.
      const { invites } = created.json<{ invites: Record<string, string> }>();
      const session = await a.app.inject({ method: "POST", url: "/session", payload: { invite: invites["concord"] } });
      expect(session.statusCode, session.body).toBe(200);
      const concordAtA = session.json<{ token: string }>().token;
      expect(
        (await a.app.inject({ method: "GET", url: "/campaigns/ashfall/state", headers: auth(concordAtA) })).statusCode,
      ).toBe(200);
      const kept = (name: string) => readFile(join(serverData(name), INVITES_FILE), "utf8").catch(() => "");
      expect(await kept("a")).not.toMatch(/^ashfall /m);

      // Its players commit their seeds through B: A, which holds the host's secrets, starts turn 1.
      // Concord's token, issued at A, acts at B.
      const hordeAtB = (
        await b.app.inject({ method: "POST", url: "/session", payload: { invite: invites["horde"] } })
      ).json<{ token: string }>().token;
      for (const [player, token] of [
        ["concord", concordAtA],
        ["horde", hordeAtB],
      ] as const) {
        const seedHash = createHash("sha256").update(randomBytes(32).toString("hex")).digest("hex");
        // A takes the host's steps of the campaign it found as they fall due, between these requests: a command
        // decided on a seq A has just moved past is stale, and is read and sent again, as a client does.
        const commit = async () => {
          const { seq } = (
            await b.app.inject({ method: "GET", url: "/campaigns/ashfall/state", headers: auth(token) })
          ).json<{ seq: number }>();
          return b.app.inject({
            method: "POST",
            url: "/campaigns/ashfall/commands",
            headers: auth(token),
            payload: { expectedSeq: seq, commands: [{ actor: player, type: "CommitSeed", seedHash }] },
          });
        };
        let committed = await commit();
        for (let tries = 1; committed.statusCode === 409 && tries < 5; tries++) committed = await commit();
        expect(committed.statusCode, committed.body).toBe(200);
      }
      const turnStarted = async () =>
        (await a.app.inject({ method: "GET", url: "/campaigns/ashfall/log", headers: auth(concordAtA) }))
          .json<{ events: Array<{ type: string }> }>()
          .events.some((event) => event.type === "TurnStarted");
      await within(5, "A starts turn 1 of the campaign made through B", turnStarted);

      // Made by `epicwar new --store` beside the servers (its host's secrets where A keeps them): both serve it.
      const made = await runInProcess([
        "new",
        "--store",
        store,
        "--db",
        join(dir, "a"),
        "--secrets",
        join(dir, "a-secrets"),
        "--setup",
        examplePath("emberfall.setup.json"),
        "--as",
        "host",
      ]);
      expect(made.code, made.stderr).toBe(0);
      for (const [index, server] of servers.entries())
        await within(2, `instance ${index} lists the campaign made by the CLI`, async () =>
          (await listed(server, operators[index]!)).includes("emberfall"),
        );
      // And one of them seats it: one invite per seat, in the invites file of the one that found it first.
      const inviteLines = /^emberfall \S+ \S+\/join#\S+$/gm;
      const seatedBy = async () => [
        (await kept("a")).match(inviteLines) ?? [],
        (await kept("b")).match(inviteLines) ?? [],
      ];
      await within(2, "the campaign made by the CLI is seated", async () => (await seatedBy()).flat().length > 0);
      const [atA, atB] = await seatedBy();
      expect([atA!.length, atB!.length].sort()).toEqual([0, 3]);
    } finally {
      for (const server of servers) await server.close();
    }
  });
});
