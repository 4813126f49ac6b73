import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fastify } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nextDecision } from "../../src/demo/play.js";
import { Engine } from "../../src/engine/engine.js";
import { WebhookNotifier } from "../../src/server/webhooks.js";
import { auth, CAMPAIGN, PlayerClient, startTestServer, type TestServer } from "./support.js";

/** A channel's receiver on loopback: every body posted to it, by path. */
interface Received {
  path: string;
  body: Record<string, unknown>;
  text: string;
}

describe("the organiser's webhooks (docs/web.md)", () => {
  let server: TestServer;
  let receiver: Server;
  let base: string;
  const received: Received[] = [];

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      let text = "";
      request.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
      request.on("end", () => {
        received.push({ path: request.url!, body: JSON.parse(text) as Record<string, unknown>, text });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  const put = (seat: string, webhooks: unknown) =>
    server.app.inject({
      method: "PUT",
      url: `/campaigns/${CAMPAIGN}/webhooks`,
      headers: auth(server.tokens[seat]!),
      payload: { webhooks },
    });

  /** Waits (at most 10 s) until the receiver holds a body that passes the test. */
  const until = async (what: string, test: (r: Received) => boolean): Promise<Received> => {
    for (let tries = 0; tries < 200; tries++) {
      const found = received.find(test);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no webhook came for ${what}; received: ${received.map((r) => r.text).join("\n")}`);
  };

  it("lets only the organiser set them, a URL and a format each, kept beside the seats", async () => {
    const concord = await put("concord", [{ url: `${base}/json`, format: "json" }]);
    expect(concord.statusCode).toBe(403);
    expect(concord.json()).toMatchObject({ error: "forbidden" });
    const bad = await put("host", [{ url: "ftp://example", format: "json" }]);
    expect(bad.statusCode).toBe(400);
    const hooks = [
      { url: `${base}/json`, format: "json" },
      { url: `${base}/discord`, format: "discord" },
      { url: `${base}/slack`, format: "slack" },
    ];
    const set = await put("host", hooks);
    expect(set.statusCode).toBe(200);
    const read = await server.app.inject({
      method: "GET",
      url: `/campaigns/${CAMPAIGN}/webhooks`,
      headers: auth(server.tokens["host"]!),
    });
    expect(read.json()).toEqual({ webhooks: hooks });
    const kept = JSON.parse(await readFile(join(server.dir, "db-server", "webhooks.json"), "utf8")) as object;
    expect(kept).toEqual({ [CAMPAIGN]: hooks });
  });

  it("tells each channel, in its own body, that a turn began, who the campaign waits on, and a result to confirm; no secret in any", async () => {
    const players = { concord: new PlayerClient(server, "concord"), horde: new PlayerClient(server, "horde") };
    for (let steps = 0; steps < 400; steps++) {
      for (const player of Object.values(players)) await player.takeChores();
      const state = await server.engine.state(CAMPAIGN);
      if (Object.values(state.battles).some((battle) => battle.report)) break;
      // Between decisions the players' chores (reveals) fall due: taken at the top of the next step.
      const command = nextDecision(state);
      const player = command && players[command.actor as keyof typeof players];
      if (!player) continue;
      const answer = await player.submit(command as unknown as Record<string, unknown>);
      expect(answer.statusCode, answer.body).toBe(200);
    }
    const turn = await until("turn 1", (r) => r.path === "/json" && r.body["kind"] === "turn-began");
    expect(turn.body).toMatchObject({ campaign: CAMPAIGN, turn: 1, text: expect.stringMatching(/: turn 1 began\.$/) });
    const waiting = await until("waiting", (r) => r.path === "/json" && r.body["kind"] === "waiting-on");
    expect(waiting.body["text"]).toMatch(/ waits on .* \(to (choose who activates first|activate an army)/);
    const result = await until(
      "a result",
      (r) => r.path === "/json" && r.body["kind"] === "result-awaits-confirmation",
    );
    expect(result.body["text"]).toMatch(/reported the result of battle .*; it awaits .*'s confirmation\.$/);
    // Discord takes `content`, Slack `text`: the same words.
    const discord = await until("discord", (r) => r.path === "/discord" && r.text.includes("awaits"));
    expect(Object.keys(discord.body)).toEqual(["content"]);
    const slack = await until("slack", (r) => r.path === "/slack" && r.text.includes("awaits"));
    expect(Object.keys(slack.body)).toEqual(["text"]);
    // No token, and none of the log's salts, seeds or commitments, is in any body.
    const secrets = [server.operator, ...Object.values(server.tokens)];
    for (const event of await server.engine.store.readAll(CAMPAIGN))
      secrets.push(...(JSON.stringify(event.data).match(/[0-9a-f]{32,}/g) ?? []));
    expect(secrets.length).toBeGreaterThan(10);
    for (const body of received) for (const secret of secrets) expect(body.text).not.toContain(secret);
  }, 120_000);
});

describe("webhooks kept in a folder, when the server moves to a shared database with a secrets key", () => {
  it("are sealed into the database once, those it holds already kept, and the folder's file renamed", async () => {
    const folder = await mkdtemp(join(tmpdir(), "epicwar-hooks-"));
    const engine = await Engine.open(join(folder, "db"));
    try {
      const inFolder = {
        ashfall: [{ url: "http://127.0.0.1:1/from-the-folder", format: "json" }],
        emberfall: [{ url: "http://127.0.0.1:1/folder-emberfall", format: "slack" }],
      };
      await writeFile(join(folder, "webhooks.json"), JSON.stringify(inFolder));
      const texts = new Map<string, string>();
      const sealedTexts = {
        read: async (stream: string, party: string) => texts.get(`${stream}/${party}`),
        update: async (stream: string, party: string, change: (text: string | undefined) => string) =>
          void texts.set(`${stream}/${party}`, change(texts.get(`${stream}/${party}`))),
      };
      const key = randomBytes(32);
      const sealed = { texts: sealedTexts, key };
      const log = fastify({ logger: false }).log;
      // Another instance set emberfall's webhooks in the database already: they are not replaced by the folder's.
      const other = await WebhookNotifier.open(await mkdtemp(join(tmpdir(), "epicwar-hooks-")), engine, log, {
        sealed,
      });
      const databases = [{ url: "http://127.0.0.1:1/set-in-the-database", format: "discord" as const }];
      await other.set("emberfall", databases);
      other.close();

      const notifier = await WebhookNotifier.open(folder, engine, log, { sealed });
      notifier.close();
      expect(await notifier.of("ashfall")).toEqual(inFolder.ashfall);
      expect(await notifier.of("emberfall")).toEqual(databases);
      expect([...texts.values()].join("")).not.toContain("from-the-folder");
      expect(await readdir(folder)).toContain("webhooks.imported.json");
      expect(await readdir(folder)).not.toContain("webhooks.json");
      // Once: a second start finds nothing to add.
      const again = await WebhookNotifier.open(folder, engine, log, { sealed });
      again.close();
      expect(await again.of("ashfall")).toEqual(inFolder.ashfall);
    } finally {
      await engine.close();
    }
  });
});
