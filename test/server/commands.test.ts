import { readFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nextActivator, unactivatedArmies } from "../../src/rules/action-common.js";
import { HIDDEN } from "../../src/views/view.js";
import {
  ashfallSetup,
  auth,
  CAMPAIGN,
  headHash,
  headSeq,
  PlayerClient,
  startTestServer,
  type TestServer,
} from "./support.js";

let server: TestServer;
let concord: PlayerClient;
let horde: PlayerClient;
beforeAll(async () => {
  server = await startTestServer();
  concord = new PlayerClient(server, "concord");
  horde = new PlayerClient(server, "horde");
});
afterAll(() => server.close());

const post = (token: string | undefined, payload: unknown, headers: Record<string, string> = {}) =>
  server.app.inject({
    method: "POST",
    url: `/campaigns/${CAMPAIGN}/commands`,
    headers: { ...(token ? auth(token) : {}), ...headers },
    ...(typeof payload === "string" ? { body: payload } : { payload: payload as object }),
  });
/** A seat's commands at the campaign's current seq, with any other members of the body. */
const commandsOf = async (seat: string, commands: object[], body: object = {}) =>
  post(server.tokens[seat], { expectedSeq: await headSeq(server), commands, ...body });
/** The server's seats file: the hashes of every token and invite it holds. */
const seatsFile = () => readFile(join(server.dir, "db-server", "seats.json"), "utf8");
const read = (seat: string, path: string) =>
  server.app.inject({ method: "GET", url: `/campaigns/${CAMPAIGN}/${path}`, headers: auth(server.tokens[seat]!) });

describe("commands", () => {
  it("runs the host's chores after the players' commands: both seeds committed start the turn", async () => {
    expect((await read("host", "waiting")).json()).toEqual({
      parties: {
        host: [],
        concord: [{ what: "seedCommitment", command: "CommitSeed" }],
        horde: [{ what: "seedCommitment", command: "CommitSeed" }],
      },
    });
    const [first] = await concord.takeChores();
    expect(first!.json<{ events: Array<{ type: string }> }>().events.map((e) => e.type)).toEqual([
      "PlayerSeedCommitted",
    ]);
    // The host's steps a command makes due go in the command's own batch: one append, one flush to disk.
    const { store } = server.engine;
    const append = store.append.bind(store);
    const batches: string[][] = [];
    store.append = (stream, expectedSeq, events, options) => {
      batches.push(events.map((event) => `${event.actor} ${event.type}`));
      return append(stream, expectedSeq, events, options);
    };
    const [second] = await horde.takeChores().finally(() => (store.append = append));
    expect(batches).toEqual([["horde PlayerSeedCommitted", "host TurnStarted"]]);
    const events = second!.json<{
      seq: number;
      events: Array<{ type: string; actor: string }>;
      receipt: { signed: string };
    }>();
    expect(events.events.map((e) => `${e.actor} ${e.type}`)).toEqual(["horde PlayerSeedCommitted", "host TurnStarted"]);
    expect(events.seq).toBe(await headSeq(server));
    // The receipt accepts the seat's own event only: the host's step after it is not the seat's.
    expect(JSON.parse(events.receipt.signed)).toMatchObject({
      seq: events.seq,
      accepted: { from: events.seq - 1, to: events.seq - 1 },
    });
    await concord.takeChores();
    const rolled = await horde.takeChores();
    expect(rolled.at(-1)!.json<{ events: Array<{ actor: string }> }>().events.at(-1)!.actor).toBe("host");
  });

  const refusals: Array<[string, () => Promise<{ statusCode: number; json: () => unknown }>, number, object]> = [
    ["no token", async () => post(undefined, { expectedSeq: 0, commands: [{}] }), 401, { error: "unauthorized" }],
    [
      "a revoked or unknown token",
      async () => post("ewt_unknown", { expectedSeq: 0, commands: [{}] }),
      401,
      { error: "unauthorized" },
    ],
    [
      "malformed JSON",
      async () =>
        post(server.tokens["concord"], '{"expectedSeq": 1, "commands": [', { "content-type": "application/json" }),
      400,
      { error: "invalid", field: "(body)" },
    ],
    [
      "an unknown field",
      () => commandsOf("concord", [{ actor: "concord", type: "ClaimStall" }], { extra: 1 }),
      400,
      { error: "invalid", field: "extra" },
    ],
    [
      "a command of the wrong shape",
      () => commandsOf("concord", [{ actor: "concord", type: "ActivateArmy", army: "c1", commitment: "no", path: [] }]),
      400,
      { error: "invalid", field: "commands[0].commitment", index: 0 },
    ],
    [
      "a forged actor",
      () => commandsOf("concord", [{ actor: "horde", type: "ClaimStall" }]),
      403,
      { error: "forbidden", field: "commands[0].actor" },
    ],
    [
      "a host step the server takes itself",
      () => commandsOf("host", [{ actor: "host", type: "EndTurn", hostSeed: "ab".repeat(32) }]),
      403,
      { error: "forbidden", field: "commands[0].type" },
    ],
    [
      "a token of another campaign",
      async () =>
        server.app.inject({
          method: "POST",
          url: "/campaigns/elsewhere/commands",
          headers: auth(server.tokens["concord"]!),
          payload: { expectedSeq: 0, commands: [{ actor: "concord", type: "ClaimStall" }] },
        }),
      403,
      { error: "forbidden" },
    ],
    ["no such route", async () => read("concord", "nothing"), 404, { error: "not-found" }],
    [
      "a stale seq",
      async () =>
        post(server.tokens["concord"], { expectedSeq: 1, commands: [{ actor: "concord", type: "ClaimStall" }] }),
      409,
      { error: "stale" },
    ],
    [
      "a body over 1 MiB",
      async () =>
        post(server.tokens["concord"], {
          expectedSeq: 0,
          commands: [{ actor: "concord", type: "ClaimStall", pad: "x".repeat(1100 * 1024) }],
        }),
      413,
      { error: "too-large" },
    ],
    [
      "a command a rule refuses",
      () => commandsOf("concord", [{ actor: "concord", type: "FinishEndPhase" }]),
      422,
      { error: "refused", index: 0, rule: expect.any(String), message: expect.any(String) },
    ],
  ];
  it.each(refusals)("answers %s with its status and the log unchanged", async (_what, request, status, body) => {
    const before = await headHash(server);
    const answer = await request();
    expect(answer.statusCode).toBe(status);
    expect(answer.json()).toMatchObject(body);
    expect(await headHash(server)).toBe(before);
  });

  it("answers a stale seq with the current one", async () => {
    const answer = await post(server.tokens["concord"], {
      expectedSeq: 2,
      commands: [{ actor: "concord", type: "ClaimStall" }],
    });
    expect(answer.json()).toMatchObject({ error: "stale", seq: await headSeq(server) });
  });
});

describe("reads, each as the seat may see it", () => {
  const commanders = (
    events: Array<{ type: string; data: { player?: string; commander?: unknown } }>,
    player: string,
  ) => events.filter((e) => e.type === "ArmyRegistered" && e.data.player === player).map((e) => e.data.commander);

  it("hides the other side's commanders and the chain's hashes from a player; the host sees the log as stored", async () => {
    const horde = (await read("concord", "log")).json<{
      seq: number;
      events: Array<{ type: string; data: { player?: string; commander?: unknown }; hash?: string }>;
    }>();
    expect(horde.seq).toBe(await headSeq(server));
    expect(commanders(horde.events, "horde").every((c) => c === HIDDEN)).toBe(true);
    expect(commanders(horde.events, "concord").every((c) => c !== HIDDEN)).toBe(true);
    expect(horde.events.some((e) => "hash" in e)).toBe(false);
    const host = (await read("host", "log")).json<{
      events: Array<{ type: string; data: { player?: string; commander?: unknown }; hash?: string }>;
    }>();
    expect(commanders(host.events, "horde").some((c) => c === HIDDEN)).toBe(false);
    expect(host.events.every((e) => typeof e.hash === "string")).toBe(true);
  });

  it("never holds a player's order, which only its own machine keeps", async () => {
    const state = await concord.state();
    const first = state.turnState!.first ?? state.turnState!.initiativeWinner!;
    const chooser = first === "concord" ? concord : horde;
    expect((await chooser.submit({ type: "ChooseFirst", first: chooser.player })).statusCode).toBe(200);
    const army = Object.values((await chooser.state()).armies).find((a) => a.player === chooser.player && a.at)!;
    const activated = await chooser.submit({ type: "ActivateArmy", army: army.id, order: "fortify", path: [] });
    expect(activated.statusCode, activated.body).toBe(200);
    const held = await chooser.secrets.order(chooser.player, state.turn, army.id);
    for (const seat of ["host", "concord", "horde"])
      for (const path of ["log", "state", "timeline", "audit", "branches", "waiting"]) {
        const answer = await read(seat, path);
        expect(answer.statusCode, `${seat} ${path}`).toBe(200);
        expect(answer.body).not.toContain(held!.salt);
      }
  });

  it("shows a past state, a timeline, an audit, the branches and who the campaign waits on", async () => {
    const past = (await read("horde", "state?seq=3")).json<{ seq: number; state: { seq: number } }>();
    expect(past).toMatchObject({ seq: 3, state: { seq: 3 } });
    expect((await read("horde", "state?turn=9")).statusCode).toBe(404);
    expect((await read("horde", "state?branch=nope")).json()).toMatchObject({ error: "not-found" });
    expect((await read("horde", "state?seq=x")).json()).toMatchObject({ error: "invalid", field: "seq" });
    const timeline = (await read("horde", "timeline")).json<{ entries: Array<{ text: string }> }>();
    expect(timeline.entries).toHaveLength(await headSeq(server));
    expect((await read("horde", "audit")).json()).toMatchObject({ ok: true });
    expect((await read("horde", "branches")).json()).toMatchObject({ campaign: CAMPAIGN, main: { stream: CAMPAIGN } });
    expect((await read("horde", "branches")).json<{ main: object }>().main).not.toHaveProperty("headHash");
    expect((await read("horde", "diff?a=main&b=main")).json()).toMatchObject({ differences: [] });
    const waiting = (await read("host", "waiting")).json<{ parties: Record<string, Array<{ command: string }>> }>();
    const owed = Object.values(waiting.parties).flat();
    expect(owed.length).toBeGreaterThan(0);
    expect(new Set(owed.map((item) => item.command))).toEqual(new Set(["ActivateArmy"]));
  });

  it("hides the other side's strength under fog of war (Emberfall): a player sees its own, the organiser every army's", async () => {
    const created = await server.app.inject({
      method: "POST",
      url: "/campaigns",
      headers: auth(server.operator),
      payload: await ashfallSetup("emberfall.setup.json"),
    });
    expect(created.statusCode, created.body).toBe(201);
    const { invites } = created.json<{ invites: Record<string, string> }>();
    const stateOf = async (seat: string) => {
      const session = await server.app.inject({ method: "POST", url: "/session", payload: { invite: invites[seat] } });
      const answer = await server.app.inject({
        method: "GET",
        url: "/campaigns/emberfall/state",
        headers: auth(session.json<{ token: string }>().token),
      });
      return Object.values(
        answer.json<{ state: { armies: Record<string, { player: string; points: unknown }> } }>().state.armies,
      );
    };
    const concordSees = await stateOf("concord");
    expect(concordSees.filter((a) => a.player === "horde").every((a) => a.points === HIDDEN)).toBe(true);
    expect(concordSees.filter((a) => a.player === "concord").every((a) => typeof a.points === "number")).toBe(true);
    expect((await stateOf("host")).every((a) => typeof a.points === "number")).toBe(true);
  });
});

describe("security: each request the server refuses is a clear 4xx, and the log is left exactly as it was", () => {
  /** Expects the answer's status and error body, and the head of every campaign unchanged by it. */
  const expectRefused = async (
    request: () => Promise<{ statusCode: number; json: () => unknown; body: string }>,
    status: number,
    body: object,
  ) => {
    const before = await Promise.all((await server.engine.listCampaigns()).map((c) => headHash(server, c)));
    const answer = await request();
    expect(answer.statusCode, answer.body).toBe(status);
    expect(answer.json()).toMatchObject(body);
    expect(await Promise.all((await server.engine.listCampaigns()).map((c) => headHash(server, c)))).toEqual(before);
  };
  const invite = async (seat: string) => {
    const answer = await server.app.inject({
      method: "POST",
      url: `/campaigns/${CAMPAIGN}/invites`,
      headers: auth(server.tokens["host"]!),
      payload: { seat },
    });
    return answer.json<{ invite: string }>().invite;
  };
  const redeem = async (invite: string) =>
    (await server.app.inject({ method: "POST", url: "/session", payload: { invite } })).json<{ token: string }>().token;

  it("refuses a token its seat has revoked (DELETE /session), though it was valid a moment before", async () => {
    const token = await redeem(await invite("concord"));
    const claim = async () => post(token, { expectedSeq: await headSeq(server), commands: [{}] });
    expect((await claim()).statusCode).toBe(400);
    const revoked = await server.app.inject({ method: "DELETE", url: "/session", headers: auth(token) });
    expect(revoked.statusCode).toBe(204);
    await expectRefused(claim, 401, { error: "unauthorized", message: expect.stringContaining("revoked") });
  });

  it("refuses the organiser's token acting as a player, and a player's acting as the organiser", async () => {
    await expectRefused(() => commandsOf("host", [{ actor: "concord", type: "ClaimStall" }]), 403, {
      error: "forbidden",
      field: "commands[0].actor",
    });
    await expectRefused(() => commandsOf("horde", [{ actor: "host", type: "CloseActionPhase" }]), 403, {
      error: "forbidden",
      field: "commands[0].actor",
    });
  });

  it("refuses a seat of another campaign served by the same server, on every campaign route", async () => {
    const created = await server.app.inject({
      method: "POST",
      url: "/campaigns",
      headers: auth(server.operator),
      payload: { ...(await ashfallSetup()), campaign: "ashfall2" },
    });
    expect(created.statusCode, created.body).toBe(201);
    const other = await redeem(created.json<{ invites: Record<string, string> }>().invites["concord"]!);
    const as = (method: "GET" | "POST", path: string, payload?: object) => () =>
      server.app.inject({ method, url: `/campaigns/${CAMPAIGN}/${path}`, headers: auth(other), payload });
    await expectRefused(
      as("POST", "commands", { expectedSeq: 0, commands: [{ actor: "concord", type: "ClaimStall" }] }),
      403,
      { error: "forbidden", message: expect.stringContaining("another campaign") },
    );
    await expectRefused(as("POST", "invites", { seat: "concord" }), 403, { error: "forbidden" });
    for (const path of ["state", "log", "timeline", "audit", "branches", "diff?a=main&b=main", "waiting", "feed"])
      await expectRefused(as("GET", path), 403, { error: "forbidden" });
  });

  it("refuses a replayed reveal: the same request again is stale, and the same reveal at the new seq breaks T5", async () => {
    const state = await concord.state();
    const next = nextActivator(state)!;
    const client = next === "concord" ? concord : horde;
    const army = unactivatedArmies(state).find((a) => a.player === next)!;
    const activated = await client.submit({ type: "ActivateArmy", army: army.id, order: "fortify", path: [] });
    expect(activated.statusCode, activated.body).toBe(200);
    const reveal = await client.prepare({ type: "RevealOrder", army: army.id });
    const revealed = await post(server.tokens[next], reveal);
    expect(revealed.statusCode, revealed.body).toBe(200);
    expect(revealed.json<{ events: Array<{ type: string }> }>().events[0]!.type).toBe("OrderRevealed");
    await expectRefused(() => post(server.tokens[next], reveal), 409, {
      error: "stale",
      seq: revealed.json<{ seq: number }>().seq,
    });
    await expectRefused(async () => post(server.tokens[next], { ...reveal, expectedSeq: await headSeq(server) }), 422, {
      error: "refused",
      rule: "T5",
      index: 0,
      message: expect.stringContaining("revealed once"),
    });
  });

  it("answers a 10 MB batch sent over a real socket with 413, the server still answering after it", async () => {
    await server.app.listen({ host: "127.0.0.1", port: 0 });
    const { port } = server.app.server.address() as AddressInfo;
    const pad = "x".repeat(10 * 1024 * 1024);
    const body = JSON.stringify({
      expectedSeq: await headSeq(server),
      commands: [{ actor: "concord", type: "ClaimStall", pad }],
    });
    await expectRefused(
      () =>
        new Promise((resolve, reject) => {
          const request = httpRequest({
            host: "127.0.0.1",
            port,
            method: "POST",
            path: `/campaigns/${CAMPAIGN}/commands`,
            headers: { ...auth(server.tokens["concord"]!), "content-type": "application/json" },
          });
          request.on("response", (response) => {
            let text = "";
            response.setEncoding("utf8");
            response.on("data", (chunk: string) => (text += chunk));
            response.on("end", () =>
              resolve({ statusCode: response.statusCode ?? 0, body: text, json: () => JSON.parse(text) }),
            );
          });
          // The server may answer and close before the last byte is written: the answer is what is judged.
          request.on("error", (error: NodeJS.ErrnoException) => {
            if (error.code !== "EPIPE" && error.code !== "ECONNRESET") reject(error);
          });
          request.end(body);
        }),
      413,
      { error: "too-large" },
    );
    expect((await read("concord", "waiting")).statusCode).toBe(200);
  });

  const unknownInBody: Array<[string, () => Promise<LightMyRequestResponse>, string]> = [
    [
      "POST /session",
      () => server.app.inject({ method: "POST", url: "/session", payload: { invite: "x", extra: 1 } }),
      "extra",
    ],
    [
      "POST /campaigns/:id/invites",
      () =>
        server.app.inject({
          method: "POST",
          url: `/campaigns/${CAMPAIGN}/invites`,
          headers: auth(server.tokens["host"]!),
          payload: { seat: "concord", extra: 1 },
        }),
      "extra",
    ],
    [
      "POST /campaigns",
      async () =>
        server.app.inject({
          method: "POST",
          url: "/campaigns",
          headers: auth(server.operator),
          payload: { ...(await ashfallSetup()), campaign: "ashfall3", extra: 1 },
        }),
      "extra",
    ],
    [
      "POST /campaigns/:id/commands",
      () => commandsOf("concord", [{ actor: "concord", type: "ClaimStall" }], { extra: 1 }),
      "extra",
    ],
    [
      "a command in POST /campaigns/:id/commands",
      () => commandsOf("concord", [{ actor: "concord", type: "ClaimStall", extra: 1 }]),
      "commands[0].extra",
    ],
  ];
  it.each(unknownInBody)(
    "refuses an unknown field in the body of %s with 400 and the field",
    async (_route, request, field) => {
      await expectRefused(request, 400, { error: "invalid", field });
    },
  );

  const routes: Array<[string, string, object?]> = [
    ["GET", "/campaigns"],
    ["POST", "/session", { invite: "x" }],
    ["DELETE", "/session"],
    ["POST", `/campaigns/${CAMPAIGN}/invites`, { seat: "concord" }],
    ["DELETE", `/campaigns/${CAMPAIGN}/seats/horde`],
    ["POST", `/campaigns/${CAMPAIGN}/commands`, { expectedSeq: 0, commands: [{ actor: "host", type: "ClaimStall" }] }],
    ["GET", `/campaigns/${CAMPAIGN}/state`],
    ["GET", `/campaigns/${CAMPAIGN}/log`],
    ["GET", `/campaigns/${CAMPAIGN}/timeline`],
    ["GET", `/campaigns/${CAMPAIGN}/audit`],
    ["GET", `/campaigns/${CAMPAIGN}/branches`],
    ["GET", `/campaigns/${CAMPAIGN}/diff?a=main&b=main`],
    ["GET", `/campaigns/${CAMPAIGN}/waiting`],
    ["GET", `/campaigns/${CAMPAIGN}/battles/t1b1/sheet`],
    ["GET", `/campaigns/${CAMPAIGN}/feed`],
  ];
  it.each(routes)(
    "refuses an unknown field in the query of %s %s with 400 and the field",
    async (method, url, payload) => {
      // A token of its own: were the query let through, DELETE /session would revoke it.
      const token = await redeem(await invite("host"));
      const before = await seatsFile();
      await expectRefused(
        () =>
          server.app.inject({
            method: method as "GET",
            url: `${url}${url.includes("?") ? "&" : "?"}extra=1`,
            headers: auth(token),
            ...(payload ? { payload } : {}),
          }),
        400,
        { error: "invalid", field: "extra" },
      );
      // Nor is a seat's token revoked, nor an invite issued, by a request refused for its query.
      expect(await seatsFile()).toEqual(before);
    },
  );
});
