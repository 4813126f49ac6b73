import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ashfallSetup, auth, CAMPAIGN, startTestServer, type TestServer } from "./support.js";

// One server for the file: the revocations come last.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const get = (url: string, headers: Record<string, string> = {}) => server.app.inject({ method: "GET", url, headers });

describe("seats, invites and sessions", () => {
  it("redeems an invite once, for a token of its seat and an HttpOnly SameSite=Strict session cookie", async () => {
    const invite = await server.app.inject({
      method: "POST",
      url: `/campaigns/${CAMPAIGN}/invites`,
      headers: auth(server.tokens["host"]!),
      payload: { seat: "concord" },
    });
    expect(invite.statusCode).toBe(201);
    const body = { invite: invite.json<{ invite: string }>().invite };
    const first = await server.app.inject({ method: "POST", url: "/session", payload: body });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      campaign: CAMPAIGN,
      seat: "concord",
      token: expect.stringMatching(/^ewt_[A-Za-z0-9_-]{43}$/),
    });
    expect(first.headers["set-cookie"]).toMatch(/^epicwar_session=ewt_[^;]+; Path=\/; HttpOnly; SameSite=Strict$/);
    const again = await server.app.inject({ method: "POST", url: "/session", payload: body });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ error: "unauthorized" });
  });

  it("keeps only hashes of tokens and invites in seats.json", async () => {
    const text = await readFile(join(server.dir, "db-server", "seats.json"), "utf8");
    for (const token of [server.operator, ...Object.values(server.tokens)]) expect(text).not.toContain(token.slice(4));
    const hashes = [...Object.keys(JSON.parse(text).tokens), ...Object.keys(JSON.parse(text).invites)];
    expect(hashes.length).toBeGreaterThanOrEqual(4);
    expect(hashes.every((hash) => /^[0-9a-f]{64}$/.test(hash))).toBe(true);
  });

  it("takes the session cookie instead of the header, and answers 401 without either", async () => {
    const cookie = await get(`/campaigns/${CAMPAIGN}/state`, { cookie: `epicwar_session=${server.tokens["horde"]}` });
    expect(cookie.statusCode).toBe(200);
    const none = await get(`/campaigns/${CAMPAIGN}/state`);
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ error: "unauthorized", message: expect.stringContaining("Bearer") });
    expect((await get(`/campaigns/${CAMPAIGN}/state`, auth("ewt_forged"))).statusCode).toBe(401);
  });

  it("lists a token's campaign, and every campaign for the operator, who reads none as a party", async () => {
    expect((await get("/campaigns", auth(server.tokens["concord"]!))).json()).toEqual({
      campaigns: [{ id: CAMPAIGN, seat: "concord", computer: null }],
    });
    expect((await get("/campaigns", auth(server.operator))).json()).toEqual({
      campaigns: [{ id: CAMPAIGN, seat: null, computer: null }],
    });
    const read = await get(`/campaigns/${CAMPAIGN}/state`, auth(server.operator));
    expect(read.statusCode).toBe(403);
  });

  it("answers 403 to a seat of another campaign, 404 to the operator for a campaign it does not serve", async () => {
    expect((await get("/campaigns/elsewhere/state", auth(server.tokens["concord"]!))).statusCode).toBe(403);
    const invite = await server.app.inject({
      method: "POST",
      url: "/campaigns/elsewhere/invites",
      headers: auth(server.operator),
      payload: { seat: "host" },
    });
    expect(invite.statusCode).toBe(404);
    expect(invite.json()).toMatchObject({ error: "not-found" });
  });

  it("creates campaigns for the operator only, with the catalogue in the set-up, never a file the server would read", async () => {
    const byPlayer = await server.app.inject({
      method: "POST",
      url: "/campaigns",
      headers: auth(server.tokens["host"]!),
      payload: { campaign: "other" },
    });
    expect(byPlayer.statusCode).toBe(403);
    const named = await server.app.inject({
      method: "POST",
      url: "/campaigns",
      headers: auth(server.operator),
      payload: {
        ...(await ashfallSetup()),
        campaign: "other",
        catalogue: "/etc/passwd",
      },
    });
    expect(named.statusCode).toBe(400);
    expect(named.json()).toMatchObject({ error: "invalid", field: "catalogue" });
    const again = await server.app.inject({
      method: "POST",
      url: "/campaigns",
      headers: auth(server.operator),
      payload: await ashfallSetup(),
    });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toMatchObject({ error: "refused", field: "campaign" });
  });

  it("revokes the calling token (DELETE /session) and every token of a seat (DELETE /campaigns/:id/seats/:seat)", async () => {
    const horde = auth(server.tokens["horde"]!);
    expect((await server.app.inject({ method: "DELETE", url: "/session", headers: horde })).statusCode).toBe(204);
    expect((await get(`/campaigns/${CAMPAIGN}/state`, horde)).statusCode).toBe(401);

    const concord = auth(server.tokens["concord"]!);
    const byPlayer = await server.app.inject({
      method: "DELETE",
      url: `/campaigns/${CAMPAIGN}/seats/concord`,
      headers: concord,
    });
    expect(byPlayer.statusCode).toBe(403);
    const byOrganiser = await server.app.inject({
      method: "DELETE",
      url: `/campaigns/${CAMPAIGN}/seats/concord`,
      headers: auth(server.tokens["host"]!),
    });
    // Concord's first token and the one its second invite gave (the first test).
    expect(byOrganiser.json()).toEqual({ revoked: 2 });
    expect((await get(`/campaigns/${CAMPAIGN}/state`, concord)).statusCode).toBe(401);
  });
});
