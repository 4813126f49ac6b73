/**
 * POST /campaigns/:id/forecast: each seat forecasts from what it may see (a player from its own view only, the
 * organiser from the whole truth or a player's view), nothing is written to the log, bad bodies are refused by field.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forecast } from "../../src/forecast/forecast.js";
import { forecastStart } from "../../src/forecast/start.js";
import type { AddressInfo } from "node:net";
import { auth, CAMPAIGN, headSeq, openFeed, startTestServer, type TestServer } from "./support.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const quick = { runs: 2, turns: 1, seed: "served" };
const post = (seat: string, payload: object) =>
  server.app.inject({
    method: "POST",
    url: `/campaigns/${CAMPAIGN}/forecast`,
    headers: auth(server.tokens[seat]!),
    payload,
  });

describe("POST /campaigns/:id/forecast", () => {
  it("forecasts a player's odds from its own view, and the organiser's from the truth, writing nothing", async () => {
    const before = await headSeq(server);
    const state = await server.engine.state(CAMPAIGN);
    const asPlayer = await post("concord", quick);
    expect(asPlayer.statusCode, asPlayer.body).toBe(200);
    const expected = await forecast({
      start: forecastStart({ state }, "concord", false),
      ...quick,
      policy: "scripted",
      workers: 0,
    });
    expect(asPlayer.json()).toEqual(JSON.parse(JSON.stringify(expected)));
    expect((await post("concord", { ...quick, as: "concord" })).json()).toEqual(asPlayer.json());
    const organiser = await post("host", quick);
    expect(organiser.statusCode, organiser.body).toBe(200);
    const truth = await forecast({ start: forecastStart({ state }, "host", false), ...quick, policy: "scripted" });
    expect(organiser.json()).toEqual(JSON.parse(JSON.stringify(truth)));
    const organiserAsPlayer = await post("host", { ...quick, as: "concord" });
    expect(organiserAsPlayer.json()).toEqual(asPlayer.json());
    expect(await headSeq(server)).toBe(before);
  });

  it("compares two lines from the same seed, run for run, from the seat's view", async () => {
    const answer = await post("concord", { ...quick, compare: ["main", "main"] });
    expect(answer.statusCode, answer.body).toBe(200);
    const { a, b, differences } = answer.json<{
      a: { seat: string };
      b: object;
      differences: { win: Record<string, object>; draw: object };
    }>();
    expect(a).toEqual(b);
    expect(a.seat).toBe("concord");
    for (const d of [...Object.values(differences.win), differences.draw])
      expect(d).toEqual({ difference: 0, low: 0, high: 0 });
  });

  it("refuses a player that asks for another seat's view, and bodies outside the protocol, naming the field", async () => {
    const cases: Array<[string, object, number, string]> = [
      ["concord", { ...quick, as: "horde" }, 403, "as"],
      ["concord", { ...quick, as: "host" }, 403, "as"],
      ["host", { ...quick, as: "nobody" }, 400, "as"],
      ["concord", { ...quick, runs: 0 }, 400, "runs"],
      ["concord", { ...quick, runs: 10_001 }, 400, "runs"],
      ["concord", { ...quick, phase: "battle" }, 400, "phase"],
      ["concord", { ...quick, policy: "clever" }, 400, "policy"],
      ["concord", { ...quick, turn: 9 }, 404, ""],
      ["concord", { ...quick, compare: ["main"] }, 400, "compare"],
      ["concord", { ...quick, compare: ["main", "main"], branch: "main" }, 400, "compare"],
      ["concord", { ...quick, compare: ["main", "nowhere"] }, 404, ""],
    ];
    for (const [seat, body, status, field] of cases) {
      const answer = await post(seat, body);
      expect(answer.statusCode, `${JSON.stringify(body)}: ${answer.body}`).toBe(status);
      if (field) expect(answer.json<{ field?: string }>().field ?? answer.body).toContain(field);
    }
  });

  it("tells the seat's own feeds how far its forecast is, and no other seat's", async () => {
    await server.app.listen({ host: "127.0.0.1", port: 0 });
    const { port } = server.app.server.address() as AddressInfo;
    const head = await headSeq(server);
    const feeds = Object.fromEntries(
      ["concord", "horde"].map((seat) => [seat, openFeed(port, auth(server.tokens[seat]!))]),
    );
    try {
      for (const feed of Object.values(feeds)) await feed.waitForSeq(head);
      const progress = (seat: string) =>
        feeds[seat]!.events.filter((e) => e.event === "forecast").map((e) => e.data as unknown);
      for (const [seat, runs] of [
        ["concord", 12],
        ["horde", 5],
      ] as const) {
        const answer = await post(seat, { ...quick, runs, seed: seat });
        expect(answer.statusCode, answer.body).toBe(200);
        await feeds[seat]!.waitFor(head + runs);
        expect(progress(seat)).toHaveLength(runs);
        expect(progress(seat).at(-1)).toMatchObject({ seed: seat, runs, of: runs });
      }
      expect(progress("horde").every((p) => (p as { seed: string }).seed === "horde")).toBe(true);
      expect(progress("concord").every((p) => (p as { seed: string }).seed === "concord")).toBe(true);
    } finally {
      for (const feed of Object.values(feeds)) feed.close();
    }
  });
});
