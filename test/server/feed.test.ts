/** The live feed over a real listening server: Server-Sent Events read from a raw HTTP request. */
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { headSeq, openFeed as openFeedOn, PlayerClient, startTestServer, type TestServer } from "./support.js";

let server: TestServer;
let port: number;
beforeAll(async () => {
  server = await startTestServer();
  await server.app.listen({ host: "127.0.0.1", port: 0 });
  port = (server.app.server.address() as AddressInfo).port;
});
afterAll(() => server.close());

const openFeed = (headers: Record<string, string>) => openFeedOn(port, headers);

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
