/**
 * Every answer has the protocol's shape and says what was wrong: a point of the log before a player joined, a seq no
 * number can be, a URL or header Fastify or Node cannot read, a link to the page with a query, the browser's favicon.
 */
import { connect } from "node:net";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, CAMPAIGN, headSeq, listenOnLoopback, startTestServer, type TestServer } from "./support.js";

/** Sends raw bytes over one connection and returns everything the server answers before it closes it. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(request));
    let answer = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => (answer += chunk));
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as Record<string, unknown>;

describe("answers with the protocol's shape, naming what was wrong", () => {
  let server: TestServer;
  let page: string;
  let port: number;

  beforeAll(async () => {
    page = await mkdtemp(join(tmpdir(), "epicwar-page-"));
    await writeFile(join(page, "index.html"), "<!doctype html><title>page</title>");
    server = await startTestServer({ webPage: page });
    port = await listenOnLoopback(server);
  });
  afterAll(async () => {
    await server.close();
    await rm(page, { recursive: true, force: true });
  });

  it("answers a player's state and battle sheet at seq 0, before it joined, with 404 naming seq, not 500", async () => {
    for (const path of ["state?seq=0", "battles/b1/sheet?seq=0"]) {
      const answer = await server.app.inject({
        method: "GET",
        url: `/campaigns/${CAMPAIGN}/${path}`,
        headers: auth(server.tokens["concord"]!),
      });
      expect(answer.statusCode, `${path}: ${answer.body}`).toBe(404);
      expect(answer.json(), path).toMatchObject({ error: "not-found", field: "seq" });
      expect(answer.json().message, path).toMatch(/concord is not yet a player of ashfall at seq 0/);
    }
    // The organiser sees the campaign from its very start.
    const host = await server.app.inject({
      method: "GET",
      url: `/campaigns/${CAMPAIGN}/state?seq=0`,
      headers: auth(server.tokens["host"]!),
    });
    expect(host.statusCode, host.body).toBe(200);
    expect(host.json().seq).toBe(0);
  });

  it("refuses an expectedSeq or seq no safe integer can be (1e300, 2^53+1) with 400 naming the field", async () => {
    const before = await headSeq(server);
    for (const expectedSeq of ["1e300", "9007199254740993"]) {
      const answer = await server.app.inject({
        method: "POST",
        url: `/campaigns/${CAMPAIGN}/commands`,
        headers: { ...auth(server.tokens["concord"]!), "content-type": "application/json" },
        payload: `{"expectedSeq":${expectedSeq},"commands":[{"actor":"concord","type":"CommitSeed","seedHash":"${"ab".repeat(32)}"}]}`,
      });
      expect(answer.statusCode, `${expectedSeq}: ${answer.body}`).toBe(400);
      expect(answer.json()).toMatchObject({ error: "invalid", field: "expectedSeq" });
    }
    const read = await server.app.inject({
      method: "GET",
      url: `/campaigns/${CAMPAIGN}/log?after=9007199254740993`,
      headers: auth(server.tokens["concord"]!),
    });
    expect(read.statusCode, read.body).toBe(400);
    expect(read.json()).toMatchObject({ error: "invalid", field: "after" });
    expect(await headSeq(server)).toBe(before);
  });

  it("answers a URL it cannot decode, and a malformed header, with the documented error body", async () => {
    const badUrl = await server.app.inject({
      method: "GET",
      url: `/campaigns/%E0%A4%A/state`,
      headers: auth(server.tokens["concord"]!),
    });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json()).toEqual({ error: "invalid", message: expect.stringMatching(/URL/), field: "(url)" });

    const badHeader = await rawExchange(port, "GET /campaigns HTTP/1.1\r\nHost: x\r\nBad Header: x\r\n\r\n");
    expect(badHeader).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(badHeader)).toEqual({ error: "invalid", message: expect.any(String), field: "(request)" });

    const tooLarge = await rawExchange(
      port,
      `GET /campaigns HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20000)}\r\n\r\n`,
    );
    expect(tooLarge).toMatch(/^HTTP\/1\.1 431 /);
    expect(bodyOf(tooLarge)).toEqual({ error: "headers-too-large", message: expect.any(String) });
  });

  it("serves an invite link's page whatever query it carries, and refuses a query on the API as before", async () => {
    const join = await server.app.inject({ method: "GET", url: "/join?x=1&utm_source=chat" });
    expect(join.statusCode, join.body).toBe(200);
    expect(join.body).toMatch(/<title>page<\/title>/);
    const api = await server.app.inject({ method: "GET", url: "/campaigns?x=1", headers: auth(server.operator) });
    expect(api.statusCode).toBe(400);
    expect(api.json()).toMatchObject({ error: "invalid" });
  });

  it("answers /favicon.ico without a session (204 when the page has no icon of its own)", async () => {
    const icon = await server.app.inject({ method: "GET", url: "/favicon.ico" });
    expect(icon.statusCode).toBe(204);
  });

  it("serves the page's own favicon.ico when the build made one", async () => {
    await writeFile(join(page, "favicon.ico"), "icon");
    const withIcon = await startTestServer({ webPage: page });
    try {
      const icon = await withIcon.app.inject({ method: "GET", url: "/favicon.ico" });
      expect(icon.statusCode).toBe(200);
      expect(icon.body).toBe("icon");
    } finally {
      await withIcon.close();
    }
  });
});
