/**
 * What an operator watches: /healthz (the process answers), /readyz (its log answers) and the Prometheus metrics at
 * /metrics, which only the operator token reads.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import { AppendConflictError } from "../../src/log/index.js";
import { CHORE_CONFLICTS, RESIGN_ATTEMPTS } from "../../src/client/table.js";
import { auth, CAMPAIGN, PlayerClient, startTestServer, type TestServer } from "./support.js";

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

const metricsText = async () => {
  const answer = await server.app.inject({ method: "GET", url: "/metrics", headers: auth(server.operator) });
  expect(answer.statusCode, answer.body).toBe(200);
  expect(answer.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  return answer.body;
};

/** The value of one sample of the metrics text, as `name{labels} value`; undefined when it is not there. */
const sample = (text: string, series: string) => {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe("health", () => {
  it("answers /healthz and /readyz without a token while the log answers", async () => {
    for (const [url, status] of [
      ["/healthz", "alive"],
      ["/readyz", "ready"],
    ] as const) {
      const answer = await server.app.inject({ method: "GET", url });
      expect([answer.statusCode, answer.json()]).toEqual([200, { status }]);
    }
  });

  it("answers /readyz 503 unavailable, with the reason, once the log cannot be read; /healthz still 200", async () => {
    await server.engine.store.close();
    const ready = await server.app.inject({ method: "GET", url: "/readyz" });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ error: "unavailable", reason: "the log is not open" });
    expect((await server.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
  });
});

describe("metrics", () => {
  it("are the operator's: 401 without a token, 403 with a seat's", async () => {
    expect((await server.app.inject({ method: "GET", url: "/metrics" })).statusCode).toBe(401);
    const seat = await server.app.inject({ method: "GET", url: "/metrics", headers: auth(server.tokens["concord"]!) });
    expect([seat.statusCode, seat.json<{ error: string }>().error]).toEqual([403, "forbidden"]);
  });

  it("count commands by outcome, refusals by rule, the host's steps, open feeds and request latency", async () => {
    const before = await metricsText();
    expect(sample(before, 'epicwar_commands_total{outcome="accepted"}')).toBeUndefined();
    const concord = new PlayerClient(server, "concord");
    const horde = new PlayerClient(server, "horde");
    // Both players' seeds: the host's start of turn 1 follows, a step the server takes.
    const answers = [...(await concord.takeChores()), ...(await horde.takeChores())];
    const accepted = answers.filter((answer) => answer.statusCode === 200).length;
    expect(accepted).toBeGreaterThan(0);
    const seq = (await server.engine.store.head(CAMPAIGN)).seq;
    const refused = await server.app.inject({
      method: "POST",
      url: `/campaigns/${CAMPAIGN}/commands`,
      headers: auth(server.tokens["host"]!),
      payload: { expectedSeq: seq, commands: [{ actor: "host", type: "ResumeCampaign" }] },
    });
    expect(refused.statusCode, refused.body).toBe(422);
    const { rule } = refused.json<{ rule: string }>();
    const stale = await server.app.inject({
      method: "POST",
      url: `/campaigns/${CAMPAIGN}/commands`,
      headers: auth(server.tokens["host"]!),
      payload: { expectedSeq: seq - 1, commands: [{ actor: "host", type: "ResumeCampaign" }] },
    });
    expect(stale.statusCode).toBe(409);

    const after = await metricsText();
    expect(sample(after, 'epicwar_commands_total{outcome="accepted"}')).toBe(accepted);
    expect(sample(after, 'epicwar_commands_total{outcome="refused"}')).toBe(1);
    expect(sample(after, 'epicwar_commands_total{outcome="stale"}')).toBe(1);
    expect(sample(after, `epicwar_command_refusals_total{rule="${rule}"}`)).toBe(1);
    expect(sample(after, 'epicwar_host_steps_total{result="taken"}')).toBeGreaterThanOrEqual(1);
    expect(sample(after, "epicwar_open_feeds")).toBe(0);
    expect(
      sample(
        after,
        `epicwar_request_duration_seconds_count{route="/campaigns/:id/commands",method="POST",status="200"}`,
      ),
    ).toBe(accepted);
  });
});

describe("the host's steps", () => {
  it("log a step that met another writer's append at info level, count it, and take it again", async () => {
    const { engine } = server;
    const { store } = engine;
    // As when the command's own batch takes no host's step (another instance appended it, say): the steps are taken
    // after it, in appends of their own.
    const execute = engine.execute.bind(engine);
    engine.execute = (campaign, inputs, options) => execute(campaign, inputs, { ...options, followUps: undefined });
    const append = store.append.bind(store);
    let met = 0;
    // As when another instance appends between the step's read and its own append, again and again: the start of turn
    // is beaten more often than its Table signs it again at the new seq (D2) and reads its chores again, so the step
    // fails as a conflict.
    store.append = async (stream, expectedSeq, events, options) => {
      if (events[0]?.type === "TurnStarted" && met++ < RESIGN_ATTEMPTS * CHORE_CONFLICTS)
        throw new AppendConflictError(stream, expectedSeq, expectedSeq + 1);
      return append(stream, expectedSeq, events, options);
    };
    for (const player of ["concord", "horde"]) await new PlayerClient(server, player).takeChores();
    for (let waited = 0; !(await store.readAll(CAMPAIGN)).some((event) => event.type === "TurnStarted"); waited++) {
      expect(waited, "turn 1 started within 5 s").toBeLessThan(100);
      await sleep(50);
    }
    const lines = server.logLines.map((line) => JSON.parse(line) as { level: number; msg: string });
    const conflicts = lines.filter((line) => line.msg.includes("met another writer"));
    expect(conflicts.map((line) => line.level)).toEqual([30]);
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    expect(sample(await metricsText(), 'epicwar_host_steps_total{result="conflict"}')).toBe(1);
  });
});
