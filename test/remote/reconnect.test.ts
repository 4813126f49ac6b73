/**
 * A client on a connection that reconnects (ConnectionOptions.reconnect): waits that double with jitter up to the
 * longest, and an end after the offline timeout; a command whose answer was lost is looked for in the log, not sent
 * twice; a 503 with Retry-After is waited out; the CLI gives up with exit code 4 once the server stays away too long.
 */
import { afterEach, describe, expect, it } from "vitest";
import { RemoteCampaign } from "../../src/client/remote.js";
import { Outage, type ReconnectOptions } from "../../src/client/reconnect.js";
import { ServerConnection } from "../../src/client/server.js";
import { nodeHttpRequest, nodeHttpTransport } from "../../src/client/http-transport.js";
import { spawn } from "node:child_process";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { CLI, runInProcess } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";
import { until } from "./live.js";
import { StubServer } from "./stub-server.js";

const stubs: StubServer[] = [];
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((stub) => stub.close()));
});

describe("the waits between tries", () => {
  it("double from the first up to the longest, with the jitter drawn, and end at the offline timeout", () => {
    let now = 1_000;
    const told: string[] = [];
    const outage = new Outage({
      offlineTimeoutMs: 2_000,
      firstDelayMs: 100,
      mostDelayMs: 400,
      random: () => 0.5,
      now: () => now,
      onLost: (reason, delayMs) => told.push(`${reason} ${delayMs}`),
      onBack: (offlineMs) => told.push(`back ${offlineMs}`),
    });
    const waits: Array<number | undefined> = [];
    for (let tries = 0; tries < 4; tries++) {
      waits.push(outage.failed("ECONNREFUSED"));
      now += waits.at(-1)!;
    }
    // Three quarters of each step (half of it, and half the rest drawn): 100, 200, 400, 400.
    expect(waits).toEqual([75, 150, 300, 300]);
    outage.answered();
    expect(told.at(-1)).toBe("back 825");
    // A new outage starts from the first wait again; a Retry-After longer than the step is waited in full.
    expect(outage.failed("503 unavailable", 1_000)).toBe(1_000);
    now += 1_500;
    // No longer than what is left of the offline time, then no more.
    expect(outage.failed("503 unavailable", 1_000)).toBe(500);
    now += 500;
    expect(outage.failed("503 unavailable")).toBeUndefined();
    expect(told.slice(0, 2)).toEqual(["ECONNREFUSED 75", "ECONNREFUSED 150"]);
  });
});

describe("a request to a server that says nothing", () => {
  it("is given up as cut (ETIMEDOUT) once nothing has come on it for a while, and tried again", async () => {
    // A server that takes connections and never answers: a host gone without closing them.
    const silent = createNetServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const told: string[] = [];
    const connection = new ServerConnection(url, "ewt_concord-token", (given) => nodeHttpRequest(given, 100), {
      reconnect: { offlineTimeoutMs: 400, firstDelayMs: 10, onLost: (reason) => told.push(reason) },
    });
    try {
      await expect(connection.read("/campaigns")).rejects.toThrow(/out of reach for .* \(ETIMEDOUT\).*giving up/);
      expect(told.length).toBeGreaterThan(1);
      expect(told.every((reason) => reason === "ETIMEDOUT")).toBe(true);
    } finally {
      silent.close();
    }
  });
});

describe("a command on a connection that reconnects", () => {
  const reconnect = (told: string[]): ReconnectOptions => ({
    offlineTimeoutMs: 30_000,
    firstDelayMs: 20,
    random: () => 0,
    onLost: (reason, delayMs) => told.push(`lost (${reason}) ${delayMs}`),
    onBack: () => told.push("back"),
  });
  const concord = async (told: string[]) => {
    const stub = await StubServer.ashfall();
    stubs.push(stub);
    const connection = new ServerConnection(stub.url, stub.token("concord"), nodeHttpTransport, {
      reconnect: reconnect(told),
    });
    return { stub, handler: new RemoteCampaign(connection) };
  };
  const commit = { actor: "concord", type: "CommitSeed", seedHash: "ab".repeat(32) };
  const posts = (stub: StubServer) => stub.requests.filter((r) => r.method === "POST").length;
  const commitments = (stub: StubServer) => stub.events.filter((e) => e.type === "PlayerSeedCommitted").length;

  it("written, with its answer lost: found in the log after its seq, and not sent again", async () => {
    const told: string[] = [];
    const { stub, handler } = await concord(told);
    await handler.state(stub.campaign);
    stub.loseAnswers = 1;
    const outcome = await handler.execute(stub.campaign, [commit]);
    expect(outcome).toMatchObject({ ok: true, events: [{ type: "PlayerSeedCommitted", actor: "concord" }] });
    expect(posts(stub)).toBe(1);
    expect(commitments(stub)).toBe(1);
    expect(told[0]).toMatch(/^lost \(ECONNRESET\) \d+$/);
    expect(told.at(-1)).toBe("back");
  });

  it("answered 503 with Retry-After: the wait is at least that long, then the log shows it unwritten and it is sent again", async () => {
    const told: string[] = [];
    const { stub, handler } = await concord(told);
    await handler.state(stub.campaign);
    stub.unavailable = { requests: 1, retryAfter: "1" };
    const outcome = await handler.execute(stub.campaign, [commit]);
    expect(outcome).toMatchObject({ ok: true });
    expect(told).toEqual(["lost (503 unavailable: the store failed) 1000", "back"]);
    expect(posts(stub)).toBe(2);
    expect(commitments(stub)).toBe(1);
  });

  it("reads wait out a server that answers 503 for a while", async () => {
    const told: string[] = [];
    const { stub, handler } = await concord(told);
    stub.unavailable = { requests: 3, retryAfter: "0" };
    const state = await handler.state(stub.campaign);
    expect(state.campaign).toBe(stub.campaign);
    expect(told).toEqual([...Array(3).fill(expect.stringMatching(/^lost \(503 unavailable/)), "back"]);
  });
});

describe("the CLI when the server stays away", () => {
  it("says it lost the server and retries, then gives up with exit code 4 after --offline-timeout", async () => {
    const stub = await StubServer.ashfall();
    const url = stub.url;
    await stub.close();
    const dir = await tempDir("epicwar-offline-");
    for (const [args, env] of [
      [["--offline-timeout", "1"], {}],
      [[], { EPICWAR_OFFLINE_TIMEOUT: "1" }],
    ] as const) {
      const gone = await runInProcess(["--server", url, ...args, "state", "--secrets", dir], "", {
        env: { EPICWAR_TOKEN: "ewt_concord-token", ...env },
      });
      expect(gone.code, gone.stderr).toBe(4);
      expect(gone.stderr).toMatch(
        new RegExp(`^epicwar: lost the server at ${url} \\(ECONNREFUSED\\); retrying in \\d+\\.\\d s$`, "m"),
      );
      expect(gone.stderr).toMatch(
        /epicwar: the server at \S+ has been out of reach for 1\.\d s \(ECONNREFUSED\), the offline timeout \(1\.0 s\): giving up\n$/,
      );
    }
    const bad = await runInProcess(["--server", url, "--offline-timeout", "soon", "state", "--secrets", dir], "", {
      env: { EPICWAR_TOKEN: "ewt_concord-token" },
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--offline-timeout \(or EPICWAR_OFFLINE_TIMEOUT\) must be a number of seconds/);
  });

  it("a demo whose server fails while its feed is open exits with code 4: the open feed does not keep it alive", async () => {
    const stub = await StubServer.ashfall();
    stubs.push(stub);
    const dir = await tempDir("epicwar-offline-");
    const demo = spawn(process.execPath, [CLI, "--server", stub.url, "demo", "--secrets", dir], {
      env: {
        PATH: process.env["PATH"] ?? "",
        HOME: dir,
        EPICWAR_TOKEN: stub.token("concord"),
        EPICWAR_OFFLINE_TIMEOUT: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    demo.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => demo.on("exit", resolve));
    try {
      await until(() => stub.feedResumes.length > 0 && stub.events.some((e) => e.actor === "concord"));
      // The server fails every request from now on, and the Horde's seed brings the demo an event to act on.
      stub.unavailable = { requests: Number.MAX_SAFE_INTEGER, retryAfter: "0" };
      await stub.write("horde", { type: "CommitSeed", seedHash: "cd".repeat(32) });
      expect(await exited, stderr).toBe(4);
      expect(stderr).toMatch(/lost the server at \S+ \(503 unavailable: the store failed\); retrying in/);
      expect(stderr).toMatch(/giving up\n$/);
    } finally {
      demo.kill("SIGKILL");
    }
  });
});
