/**
 * Campaigns made anywhere are served everywhere: two servers on one PostgreSQL database, each with seats of its own.
 * A campaign made through one (POST /campaigns) or beside them (`epicwar new --store`) is served by both within a
 * second or so, without a restart: listed to the operator, seated with invites kept in the server's invites file, and
 * its host's steps taken by the server that takes them, whichever made it.
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
        operators.push(
          /^Operator token .*: (ewt_\S+)$/.exec(printed.find((l) => l.startsWith("Operator token"))!)![1]!,
        );
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
      // A seated it as at a start (just after listing it): its invites are in A's invites file, and one of them is
      // redeemed at A.
      const keptAtA = () => readFile(join(serverData("a"), INVITES_FILE), "utf8");
      const inviteLine = /^ashfall concord \S+\/join#(\S+)$/m;
      await within(2, "A keeps invites to the campaign made through B", async () => inviteLine.test(await keptAtA()));
      const invite = inviteLine.exec(await keptAtA())![1]!;
      const session = await a.app.inject({ method: "POST", url: "/session", payload: { invite } });
      expect(session.statusCode, session.body).toBe(200);
      const concordAtA = session.json<{ token: string }>().token;
      expect(
        (await a.app.inject({ method: "GET", url: "/campaigns/ashfall/state", headers: auth(concordAtA) })).statusCode,
      ).toBe(200);

      // Its players commit their seeds through B: A, which holds the host's secrets, starts turn 1.
      const { invites } = created.json<{ invites: Record<string, string> }>();
      for (const player of ["concord", "horde"]) {
        const token = (
          await b.app.inject({ method: "POST", url: "/session", payload: { invite: invites[player] } })
        ).json<{ token: string }>().token;
        const { seq } = (
          await b.app.inject({ method: "GET", url: "/campaigns/ashfall/state", headers: auth(token) })
        ).json<{ seq: number }>();
        const seedHash = createHash("sha256").update(randomBytes(32).toString("hex")).digest("hex");
        const committed = await b.app.inject({
          method: "POST",
          url: "/campaigns/ashfall/commands",
          headers: auth(token),
          payload: { expectedSeq: seq, commands: [{ actor: player, type: "CommitSeed", seedHash }] },
        });
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
      for (const [index, server] of servers.entries()) {
        await within(2, `instance ${index} lists the campaign made by the CLI`, async () =>
          (await listed(server, operators[index]!)).includes("emberfall"),
        );
        // And seats it, each in its own invites file.
        const kept = join(serverData(["a", "b"][index]!), INVITES_FILE);
        await within(2, `instance ${index} keeps invites to the campaign made by the CLI`, async () =>
          /^emberfall \S+ \S+\/join#\S+$/m.test(await readFile(kept, "utf8")),
        );
      }
    } finally {
      for (const server of servers) await server.close();
    }
  });
});
