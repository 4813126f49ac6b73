import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, brotliCompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, CAMPAIGN, startTestServer, type TestServer } from "./support.js";

const PAGE = "<!doctype html><title>page</title>";
const SCRIPT = "console.log('page');";

describe("the web page and branches on the server (docs/web.md)", () => {
  let server: TestServer;
  let page: string;

  beforeAll(async () => {
    page = await mkdtemp(join(tmpdir(), "epicwar-page-"));
    await mkdir(join(page, "assets"));
    await writeFile(join(page, "index.html"), PAGE);
    await writeFile(join(page, "assets", "main.js"), SCRIPT);
    await writeFile(join(page, "assets", "main.js.br"), brotliCompressSync(SCRIPT));
    await writeFile(join(page, "index.html.br"), brotliCompressSync(PAGE));
    server = await startTestServer({ webPage: page });
  });
  afterAll(async () => {
    await server.close();
    await rm(page, { recursive: true, force: true });
  });

  it("serves the page's files at /, /join and /new (the start screen) without a session, and nothing else", async () => {
    for (const url of ["/", "/join", "/new"]) {
      const answer = await server.app.inject({ method: "GET", url });
      expect(answer.statusCode, url).toBe(200);
      expect(answer.body).toBe(PAGE);
      expect(answer.headers["content-type"]).toMatch(/^text\/html/);
    }
    const script = await server.app.inject({ method: "GET", url: "/assets/main.js" });
    expect(script.statusCode).toBe(200);
    expect(script.body).toBe(SCRIPT);
    // A path the build did not make is no public route: it asks a session, as any other route does.
    for (const url of ["/assets/../../etc/passwd", "/assets/other.js", "/index.html/../../x"]) {
      const answer = await server.app.inject({ method: "GET", url });
      expect(answer.statusCode, url).toBe(401);
      expect(answer.json(), url).toMatchObject({ error: "unauthorized" });
    }
    const missing = await server.app.inject({
      method: "GET",
      url: "/assets/other.js",
      headers: auth(server.tokens["concord"]!),
    });
    expect(missing.statusCode).toBe(404);
  });

  it("sends the build's brotli copy to a browser that takes it, and lets hashed assets be kept for good", async () => {
    const compressed = await server.app.inject({
      method: "GET",
      url: "/assets/main.js",
      headers: { "accept-encoding": "gzip, deflate, br" },
    });
    expect(compressed.statusCode).toBe(200);
    expect(compressed.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(compressed.rawPayload).toString("utf8")).toBe(SCRIPT);
    expect(compressed.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const plain = await server.app.inject({ method: "GET", url: "/assets/main.js" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    for (const url of ["/", "/join"]) {
      const index = await server.app.inject({
        method: "GET",
        url,
        headers: { "accept-encoding": "gzip, deflate, br" },
      });
      expect(index.statusCode, url).toBe(200);
      expect(index.headers["cache-control"], url).toBe("no-cache");
      const body =
        index.headers["content-encoding"] === "br" ? brotliDecompressSync(index.rawPayload) : index.rawPayload;
      expect(body.toString("utf8"), url).toBe(PAGE);
    }
  });

  it("still asks a session of every campaign route", async () => {
    const answer = await server.app.inject({ method: "GET", url: `/campaigns/${CAMPAIGN}/state` });
    expect(answer.statusCode).toBe(401);
  });

  it("lets the organiser fork a branch after an event, which every seat then reads and diffs", async () => {
    const created = await server.app.inject({
      method: "POST",
      url: `/campaigns/${CAMPAIGN}/branches`,
      headers: auth(server.tokens["host"]!),
      payload: { name: "what-if", seq: 20 },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ branch: "what-if", forkSeq: 20 });
    const lines = await server.app.inject({
      method: "GET",
      url: `/campaigns/${CAMPAIGN}/branches`,
      headers: auth(server.tokens["concord"]!),
    });
    expect(lines.json().branches.map((b: { name: string }) => b.name)).toEqual(["what-if"]);
    const diff = await server.app.inject({
      method: "GET",
      url: `/campaigns/${CAMPAIGN}/diff?a=main&b=what-if`,
      headers: auth(server.tokens["horde"]!),
    });
    expect(diff.statusCode).toBe(200);
    expect(diff.json().differences.length).toBeGreaterThan(0);
  });

  it("D1 plays a branch on with the seats' commands (?branch=NAME), leaving the campaign's own line as it was", async () => {
    const head = (await server.engine.store.head(CAMPAIGN)).seq;
    const created = await server.app.inject({
      method: "POST",
      url: `/campaigns/${CAMPAIGN}/branches`,
      headers: auth(server.tokens["host"]!),
      payload: { name: "played", seq: head },
    });
    expect(created.statusCode, created.body).toBe(201);
    const seedHash = "ab".repeat(32);
    const command = await server.app.inject({
      method: "POST",
      url: `/campaigns/${CAMPAIGN}/commands?branch=played`,
      headers: auth(server.tokens["concord"]!),
      payload: { expectedSeq: head, commands: [{ actor: "concord", type: "CommitSeed", seedHash }] },
    });
    expect(command.statusCode, command.body).toBe(200);
    expect(command.json()).toMatchObject({ seq: head + 1, events: [{ type: "PlayerSeedCommitted" }] });
    expect((await server.engine.store.head(CAMPAIGN)).seq).toBe(head);
    const branch = await server.app.inject({
      method: "GET",
      url: `/campaigns/${CAMPAIGN}/state?branch=played`,
      headers: auth(server.tokens["horde"]!),
    });
    expect(branch.json().state.seedCommitments).toEqual({ concord: seedHash });
    const unknown = await server.app.inject({
      method: "POST",
      url: `/campaigns/${CAMPAIGN}/commands?branch=nowhere`,
      headers: auth(server.tokens["concord"]!),
      payload: { expectedSeq: head, commands: [{ actor: "concord", type: "CommitSeed", seedHash }] },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it("refuses a branch from a player (403), a name taken (422, name) and an event not in the log (400, seq)", async () => {
    const post = (seat: string, payload: object) =>
      server.app.inject({
        method: "POST",
        url: `/campaigns/${CAMPAIGN}/branches`,
        headers: auth(server.tokens[seat]!),
        payload,
      });
    const before = await server.engine.store.readAll(CAMPAIGN);
    expect((await post("concord", { name: "mine", seq: 10 })).statusCode).toBe(403);
    await post("host", { name: "taken", seq: 10 });
    const taken = await post("host", { name: "taken", seq: 12 });
    expect(taken.statusCode).toBe(422);
    expect(taken.json()).toMatchObject({ error: "refused", field: "name" });
    const beyond = await post("host", { name: "later", seq: 100000 });
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json()).toMatchObject({ error: "invalid", field: "seq" });
    expect(await server.engine.store.readAll(CAMPAIGN)).toEqual(before);
  });
});
