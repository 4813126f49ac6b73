/**
 * Slow and many connections (docs/server.md, "Limits"): a body sent a byte at a time is cut off by the request timeout
 * while the server answers everyone else, and a connection over the cap is closed at once.
 */
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { auth, listenOnLoopback, openFeed, PlayerClient, startTestServer, type TestServer } from "./support.js";

/** A connection to the server, with everything it answered and whether it has been closed. */
function open(port: number) {
  const socket = connect(port, "127.0.0.1");
  const connection = { socket, received: "", closed: false };
  socket.setEncoding("utf8").on("data", (chunk: string) => (connection.received += chunk));
  socket.on("error", () => {});
  socket.on("close", () => (connection.closed = true));
  return connection;
}

/** Waits until `done`, checking every 50 ms, at most `limit` ms; returns whether it came. */
async function eventually(done: () => boolean | Promise<boolean>, limit: number): Promise<boolean> {
  for (const start = Date.now(); !(await done());) {
    if (Date.now() - start > limit) return false;
    await new Promise((wait) => setTimeout(wait, 50));
  }
  return true;
}

describe("slow and many connections", () => {
  let server: TestServer;
  const sockets: Socket[] = [];
  afterEach(async () => {
    sockets.splice(0).forEach((socket) => socket.destroy());
    await server.close();
  });

  it("closes 200 slow bodies (a sign-in sent a byte at a time) with 408 once the request timeout is up, answering others meanwhile", async () => {
    server = await startTestServer({
      serving: { limits: { requestTimeout: 1500, headersTimeout: 1000, timeoutCheckInterval: 100 } },
    });
    const port = await listenOnLoopback(server);
    const slow = Array.from({ length: 200 }, () => open(port));
    sockets.push(...slow.map((connection) => connection.socket));
    for (const { socket } of slow)
      socket.write(
        "POST /session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{",
      );
    const drip = setInterval(() => slow.forEach(({ socket }) => socket.writable && socket.write(" ")), 200);
    try {
      // While every one of them is open, the server answers a reader.
      const listed = await fetch(`http://127.0.0.1:${port}/campaigns`, { headers: auth(server.operator) });
      expect(listed.status).toBe(200);
      expect(slow.filter((connection) => connection.closed)).toHaveLength(0);
      // Then the timeout cuts each off: bounded by the test's own wait, not timed.
      const allClosed = await eventually(() => slow.every((connection) => connection.closed), 20_000);
      expect(slow.filter((connection) => !connection.closed)).toHaveLength(0);
      expect(allClosed).toBe(true);
    } finally {
      clearInterval(drip);
    }
    for (const { received } of slow) {
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
      expect(JSON.parse(received.slice(received.indexOf("\r\n\r\n") + 4))).toMatchObject({ error: "timeout" });
    }
    const after = await fetch(`http://127.0.0.1:${port}/campaigns`, { headers: auth(server.operator) });
    expect(after.status).toBe(200);
  });

  it("keeps a feed open past the request timeout: the timeout is the request's arrival, not its answer", async () => {
    server = await startTestServer({
      serving: { limits: { requestTimeout: 500, headersTimeout: 400, timeoutCheckInterval: 100 } },
    });
    const port = await listenOnLoopback(server);
    const feed = openFeed(port, auth(server.tokens["horde"]!));
    await feed.waitFor(1);
    let ended = false;
    void feed.ended.then(() => (ended = true));
    // Four times the timeout, its check running every 100 ms.
    await new Promise((wait) => setTimeout(wait, 2000));
    expect(ended).toBe(false);
    const seen = feed.events.length;
    await new PlayerClient(server, "horde").takeChores();
    await feed.waitFor(seen + 1);
    feed.close();
  });

  it("closes a connection over the cap at once, and takes new ones once others have gone", async () => {
    server = await startTestServer({ serving: { limits: { maxConnections: 20 } } });
    const port = await listenOnLoopback(server);
    const held = Array.from({ length: 20 }, () => open(port));
    sockets.push(...held.map((connection) => connection.socket));
    await Promise.all(held.map(({ socket }) => new Promise((ready) => socket.once("connect", ready))));
    // The server counts a connection once it has accepted it: wait until it holds all twenty.
    const connections = () =>
      new Promise<number>((resolve) => server.app.server.getConnections((_error, count) => resolve(count)));
    expect(await eventually(async () => (await connections()) === 20, 10_000)).toBe(true);

    const extra = open(port);
    sockets.push(extra.socket);
    extra.socket.write("GET /campaigns HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(await eventually(() => extra.closed, 10_000)).toBe(true);
    expect(extra.received).toBe("");
    expect(held.some((connection) => connection.closed)).toBe(false);

    held.forEach(({ socket }) => socket.destroy());
    expect(await eventually(async () => (await connections()) === 0, 10_000)).toBe(true);
    const listed = await fetch(`http://127.0.0.1:${port}/campaigns`, { headers: auth(server.operator) });
    expect(listed.status).toBe(200);
  });
});
