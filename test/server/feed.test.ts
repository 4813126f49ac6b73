/** The live feed over a real listening server: Server-Sent Events read from a raw HTTP request. */
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nextDecision } from "../../src/demo/play.js";
import {
  auth,
  CAMPAIGN,
  headSeq,
  listenOnLoopback,
  openFeed as openFeedOn,
  PlayerClient,
  startTestServer,
  type TestServer,
} from "./support.js";
import { KEEP_ALIVE_MS } from "../../src/server/feed.js";

let server: TestServer;
let port: number;
beforeAll(async () => {
  server = await startTestServer();
  port = await listenOnLoopback(server);
});
afterAll(() => server.close());

/** Opens the feed of this file's server, or of another (`at`), with these headers. */
const openFeed = (headers: Record<string, string>, at = { port: () => port }) => openFeedOn(at.port(), headers);

describe("the live feed", () => {
  it("sends exactly the events after Last-Event-ID, then each new one once, in seq order, as the seat sees them", async () => {
    const head = await headSeq(server);
    const feed = openFeed({ authorization: `Bearer ${server.tokens["concord"]}`, "last-event-id": String(head - 3) });
    const missed = await feed.waitFor(3);
    expect(feed.status()).toBe(200);
    expect(feed.contentType()).toMatch(/^text\/event-stream/);
    expect(missed.map((e) => e.id)).toEqual([head - 2, head - 1, head]);
    expect(missed.every((e) => e.event === "event" && e.data.seq === e.id && !("hash" in e.data))).toBe(true);

    // Both players commit their seeds: three events (the second commitment brings the host's TurnStarted).
    for (const player of ["concord", "horde"]) await new PlayerClient(server, player).takeChores();
    const after = await headSeq(server);
    const all = await feed.waitFor(3 + (after - head));
    expect(all.map((e) => e.id)).toEqual(Array.from({ length: after - head + 3 }, (_, i) => head - 2 + i));
    expect(all.at(-1)!.data.type).toBe("TurnStarted");
    feed.close();
  });

  it("reconnects from where a client stopped, with the session cookie, getting nothing twice", async () => {
    const first = openFeed({ cookie: `epicwar_session=${server.tokens["host"]}` });
    const head = await headSeq(server);
    const everything = await first.waitFor(head);
    expect(everything.every((e) => typeof e.data.hash === "string")).toBe(true);
    first.close();
    const lastSeen = everything[Math.floor(head / 2)]!.id;
    const again = openFeed({ cookie: `epicwar_session=${server.tokens["host"]}`, "last-event-id": String(lastSeen) });
    const rest = await again.waitFor(head - lastSeen);
    await new Promise((wait) => setTimeout(wait, 50));
    expect(rest.map((e) => e.id)).toEqual(Array.from({ length: head - lastSeen }, (_, i) => lastSeen + 1 + i));
    again.close();
  });

  it("sends every feed of a line each event once, in order, the feeds of one seat the same bytes, however many watch", async () => {
    // A campaign of its own, whose players keep their secrets for the whole test.
    const own = await startTestServer();
    try {
      await own.app.listen({ host: "127.0.0.1", port: 0 });
      const at = { port: () => (own.app.server.address() as AddressInfo).port };
      const players = new Map(["concord", "horde"].map((player) => [player, new PlayerClient(own, player)]));
      const seats = ["concord", "concord", "concord", "horde", "horde", "host"];
      const feeds = seats.map((seat) => openFeed({ authorization: `Bearer ${own.tokens[seat]}` }, at));
      const before = await headSeq(own);
      await Promise.all(feeds.map((feed) => feed.waitFor(before)));
      // The demo's commanders play on, each command prepared on its player's machine, its chores after it.
      for (let moves = 0; moves < 6; moves++) {
        for (const player of players.values()) await player.takeChores();
        const command = nextDecision(await own.engine.state(CAMPAIGN));
        if (!command) break;
        const { actor, ...rest } = command;
        const answer = await players.get(actor)!.submit(rest);
        expect(answer.statusCode, answer.body).toBe(200);
      }
      const head = await headSeq(own);
      expect(head).toBeGreaterThan(before);
      const received = await Promise.all(feeds.map((feed) => feed.waitFor(head)));
      for (const events of received)
        expect(events.map((e) => e.id)).toEqual(Array.from({ length: head }, (_, i) => i + 1));
      const bytes = received.map((events) => JSON.stringify(events));
      expect(new Set(bytes.slice(0, 3)).size).toBe(1);
      expect(bytes[3]).toBe(bytes[4]);
      expect(bytes[0]).not.toBe(bytes[3]);
      expect(received[5]!.every((e) => typeof e.data.hash === "string")).toBe(true);
      expect(received[0]!.some((e) => "hash" in e.data)).toBe(false);
      for (const feed of feeds) feed.close();

      // With every feed of the line closed, the next one reads the line again and gets all of it.
      await new Promise((wait) => setTimeout(wait, 50));
      const later = openFeed({ authorization: `Bearer ${own.tokens["horde"]}` }, at);
      expect(JSON.stringify(await later.waitFor(head))).toBe(bytes[3]);
      later.close();
    } finally {
      await own.close();
    }
  });

  it("answers a feed opened at the head at once, before any event or keep-alive comes (15 s)", async () => {
    const head = await headSeq(server);
    const started = Date.now();
    const feed = openFeed({ authorization: `Bearer ${server.tokens["horde"]}`, "last-event-id": String(head) });
    // Far below the keep-alive's 15 s: the answer does not wait for the first comment.
    await feed.answered(KEEP_ALIVE_MS / 3);
    expect(Date.now() - started).toBeLessThan(KEEP_ALIVE_MS / 3);
    expect(feed.status()).toBe(200);
    expect(feed.text()).toBe("");
    feed.close();
  });

  it("answers 401 without a token and 400 for a Last-Event-ID that is no seq", async () => {
    const none = openFeed({});
    const bad = openFeed({ authorization: `Bearer ${server.tokens["horde"]}`, "last-event-id": "yesterday" });
    await new Promise((wait) => setTimeout(wait, 100));
    expect(none.status()).toBe(401);
    expect(bad.status()).toBe(400);
    none.close();
    bad.close();
  });
});

/** The organiser pauses the campaign and resumes it: two events every seat sees, whatever the campaign waits on. */
async function moveOn(): Promise<void> {
  for (const command of [{ type: "PauseCampaign", reason: "a break" }, { type: "ResumeCampaign" }]) {
    const answer = await server.app.inject({
      method: "POST",
      url: `/campaigns/${CAMPAIGN}/commands`,
      headers: auth(server.tokens["host"]!),
      payload: { expectedSeq: await headSeq(server), commands: [{ actor: "host", ...command }] },
    });
    expect(answer.statusCode, answer.body).toBe(200);
  }
}

/** A fresh token of a seat: an invite the organiser issues, redeemed. */
async function newToken(server: TestServer, seat: string): Promise<string> {
  const issued = await server.app.inject({
    method: "POST",
    url: `/campaigns/${CAMPAIGN}/invites`,
    headers: auth(server.tokens["host"]!),
    payload: { seat },
  });
  const session = await server.app.inject({ method: "POST", url: "/session", payload: issued.json() });
  expect(session.statusCode, session.body).toBe(200);
  return session.json<{ token: string }>().token;
}

describe("revoking a token ends its open feeds at once", () => {
  // Last in the file: it revokes concord's seat.
  it("ends the feed of a token signed out (DELETE /session), and only that token's", async () => {
    const token = await newToken(server, "horde");
    const revoked = openFeed(auth(token));
    const kept = openFeed(auth(server.tokens["horde"]!));
    await Promise.all([revoked.waitFor(1), kept.waitFor(1)]);
    const signedOut = await server.app.inject({ method: "DELETE", url: "/session", headers: auth(token) });
    expect(signedOut.statusCode).toBe(204);
    await revoked.ended;
    const received = revoked.events.length;

    // The campaign moves on: the other feed of the seat gets it, the ended one nothing more.
    const seen = kept.events.length;
    await moveOn();
    await kept.waitFor(seen + 2);
    expect(revoked.events.length).toBe(received);
    kept.close();
  });

  it("refuses a feed whose token is revoked while the feed is being opened (its line read from the store)", async () => {
    const token = await newToken(server, "horde");
    const store = server.engine.store;
    const readAll = store.readAll.bind(store);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let reading = () => {};
    const entered = new Promise<void>((resolve) => (reading = resolve));
    store.readAll = async (...args) => {
      reading();
      await held;
      return readAll(...args);
    };
    try {
      const feed = openFeed(auth(token));
      await entered;
      const signedOut = await server.app.inject({ method: "DELETE", url: "/session", headers: auth(token) });
      expect(signedOut.statusCode).toBe(204);
      release();
      await feed.ended;
      expect(feed.status()).toBe(401);
      expect(feed.events).toHaveLength(0);
    } finally {
      store.readAll = readAll;
      release();
    }
  });

  it("ends every feed of a seat the organiser revokes (DELETE /campaigns/:id/seats/:seat)", async () => {
    const feeds = [openFeed(auth(await newToken(server, "concord"))), openFeed(auth(server.tokens["concord"]!))];
    const other = openFeed(auth(server.tokens["horde"]!));
    await Promise.all([...feeds, other].map((feed) => feed.waitFor(1)));
    const revoked = await server.app.inject({
      method: "DELETE",
      url: `/campaigns/${CAMPAIGN}/seats/concord`,
      headers: auth(server.tokens["host"]!),
    });
    expect(revoked.json()).toEqual({ revoked: 2 });
    await Promise.all(feeds.map((feed) => feed.ended));
    // Horde's feed is still open: it gets what comes next.
    const seen = other.events.length;
    await moveOn();
    await other.waitFor(seen + 2);
    other.close();
  });
});
