/**
 * GET /campaigns/:id/state answers a client that holds the campaign's current state with 304 Not Modified, and
 * RemoteCampaign asks so: a read while the line has not moved is neither viewed nor sent again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RemoteCampaign } from "../../src/client/remote.js";
import { ServerConnection, type Transport } from "../../src/client/server.js";
import { nodeHttpTransport } from "../../src/client/http-transport.js";
import { auth, CAMPAIGN, listenOnLoopback, PlayerClient, startTestServer, type TestServer } from "./support.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const readState = (seat: string, query = "", headers: Record<string, string> = {}) =>
  server.app.inject({
    method: "GET",
    url: `/campaigns/${CAMPAIGN}/state${query}`,
    headers: { ...auth(server.tokens[seat]!), ...headers },
  });

describe("the current state's ETag", () => {
  it("is answered 304 with no body while the line stays at its seq, 200 once it moves; one tag per seat; none for a past point", async () => {
    const first = await readState("concord");
    const tag = first.headers["etag"] as string;
    expect(first.statusCode).toBe(200);
    expect(tag).toMatch(/^"[^"]+"$/);
    expect(first.headers["cache-control"]).toBe("private, no-cache");

    const unchanged = await readState("concord", "", { "if-none-match": tag });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe("");
    expect(unchanged.headers["etag"]).toBe(tag);
    // Another seat's view of the same seq is another view: its tag differs, and concord's does not match it.
    const horde = await readState("horde");
    expect(horde.headers["etag"]).not.toBe(tag);
    expect((await readState("horde", "", { "if-none-match": tag })).statusCode).toBe(200);
    // A past point has no tag to hold.
    const past = await readState("concord", `?seq=${first.json<{ seq: number }>().seq}`);
    expect(past.statusCode).toBe(200);
    expect(past.headers["etag"]).toBeUndefined();

    await new PlayerClient(server, "concord").takeChores();
    const moved = await readState("concord", "", { "if-none-match": tag });
    expect(moved.statusCode).toBe(200);
    expect(moved.json<{ seq: number }>().seq).toBeGreaterThan(first.json<{ seq: number }>().seq);
    expect(moved.headers["etag"]).not.toBe(tag);
  });

  it("lets RemoteCampaign read the campaign again with nothing sent while it has not moved, and the new state once it has", async () => {
    const port = await listenOnLoopback(server);
    const statuses: number[] = [];
    const counting: Transport = async (request) => {
      const answer = await nodeHttpTransport(request);
      if (request.url.includes("/state")) statuses.push(answer.status);
      return answer;
    };
    const remote = new RemoteCampaign(
      new ServerConnection(`http://127.0.0.1:${port}`, server.tokens["horde"], counting),
    );
    const before = await remote.state(CAMPAIGN);
    const again = await remote.state(CAMPAIGN);
    expect(again).toBe(before);
    expect(Object.isFrozen(again.armies)).toBe(true);
    expect(statuses).toEqual([200, 304]);

    await new PlayerClient(server, "horde").takeChores();
    const after = await remote.state(CAMPAIGN);
    expect(statuses).toEqual([200, 304, 200]);
    expect(after.seq).toBeGreaterThan(before.seq);
  });
});
