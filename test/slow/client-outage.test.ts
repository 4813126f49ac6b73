/**
 * Clients left running while the server is killed with kill -9 and started again on the same folder and port: two
 * players' `demo --server`, the organiser's `watch` and a player's `apply` carry on by themselves and finish, saying on
 * stderr that they lost the server and that it is back; a client whose server never returns gives up with exit code 4
 * once its offline timeout has passed (docs/remote-play.md, "When the server goes away").
 */
import { mkdir } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/tmp.js";
import {
  epicwar,
  epicwarDone,
  finishedCampaign,
  keptLine,
  ROOT,
  type CliProcess,
  type Machine,
} from "./cli-process.js";

const CAMPAIGN = "ashfall";
const SEATS = ["host", "concord", "horde"] as const;
type Seat = (typeof SEATS)[number];

/** A port free now on loopback, for a server that is to come back at the same address. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `what` holds, checking every 50 ms; fails after `ms`. */
async function until(what: () => boolean, ms: number, why: string): Promise<void> {
  for (const start = Date.now(); !what(); await sleep(50))
    if (Date.now() - start > ms) throw new Error(`timed out after ${ms} ms waiting for ${why}`);
}

/** Ashfall set up on a folder of the organiser's machine, served on a fixed port, and every seat joined. */
async function servedAshfall() {
  const dir = await tempDir("epicwar-outage-");
  const homes = {} as Record<"server" | Seat, string>;
  for (const machine of ["server", ...SEATS] as const) await mkdir((homes[machine] = join(dir, machine)));
  const at = (machine: "server" | Seat, env: Record<string, string> = {}): Machine => ({
    cwd: homes[machine],
    home: homes[machine],
    env,
  });
  const setup = join(ROOT, "examples", "ashfall.setup.json");
  const created = await epicwarDone(["new", "--db", "war", "--setup", setup, "--as", "host"], at("server"));
  expect(created.code, created.stderr).toBe(0);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const servers: CliProcess[] = [];
  /** Starts `epicwar serve` on the folder and port, and waits until it listens. */
  const serve = async () => {
    const server = epicwar(["serve", "--db", "war", "--port", String(port)], at("server"));
    servers.push(server);
    await server.line(/^Serving war at /);
    return server;
  };
  /** Kills the running server with SIGKILL: no request in flight is answered, no feed is ended politely. */
  const kill = async () => {
    const server = servers.at(-1)!;
    server.child.kill("SIGKILL");
    expect(await server.exited).toBeNull();
  };
  const first = await serve();
  for (const seat of SEATS) {
    const link = (await keptLine(first, homes.server, `${CAMPAIGN} ${seat} `)).split(" ")[2]!;
    const joined = await epicwarDone(["join", link], at(seat));
    expect(joined.code, joined.stderr).toBe(0);
  }
  const stopServer = async () => {
    const server = servers.at(-1)!;
    if (server.child.exitCode === null && server.child.signalCode === null) expect(await server.stop()).toBe(0);
  };
  return { url, at, serve, kill, stopServer };
}

/** A client's stderr says it lost the server and that it came back, in those words. */
function toldTheOutage(client: CliProcess, url: string): void {
  expect(client.err()).toMatch(
    new RegExp(`epicwar: lost the server at ${url} \\([^)]+\\); retrying in \\d+\\.\\d s\\n`),
  );
  expect(client.err()).toMatch(new RegExp(`epicwar: back: the server at ${url} answers again, after \\d+\\.\\d s\\n`));
}

describe("clients across kill -9s of the server", () => {
  it("two players' demo commanders and the organiser's watch play Ashfall to its end through four kill -9s and restarts", async () => {
    const { url, at, serve, kill, stopServer } = await servedAshfall();
    const env = { EPICWAR_OFFLINE_TIMEOUT: "120" };
    const organiser = epicwar(["--server", url, "watch", "--from-seq", "0"], at("host", env));
    const players = (["concord", "horde"] as const).map((player) =>
      epicwar(["--server", url, "demo"], at(player, env)),
    );
    const clients = [organiser, ...players];
    try {
      // Killed while the campaign is played: at four points of its log, each time down for a moment, then back.
      for (const events of [40, 90, 140, 190]) {
        await until(
          () => organiser.out.length >= events,
          120_000,
          `the organiser's watch to print ${events} events`,
        ).catch((error: Error) => {
          const told = clients.map((client) => `${client.err()}\n${client.out.slice(-3).join("\n")}`);
          throw new Error(`${error.message}; the clients said:\n${told.join("\n---\n")}`);
        });
        await kill();
        await sleep(1_500);
        await serve();
      }
      const codes = await Promise.all(players.map((player) => player.exited));
      expect(codes, players.map((player) => player.err()).join("\n")).toEqual([0, 0]);
      const final = await finishedCampaign(url, at("host"), players);
      for (const player of players) toldTheOutage(player, url);
      // The organiser's watch printed every event once and in order: what log prints.
      await until(() => organiser.out.length >= final.seq, 30_000, "the organiser's watch to print the last event");
      expect(organiser.child.exitCode).toBeNull();
      expect(await organiser.stop()).toBe(0);
      const log = await epicwarDone(["--server", url, "log"], at("host"));
      expect(organiser.out).toEqual(log.stdout.trimEnd().split("\n"));
      toldTheOutage(organiser, url);
    } finally {
      await Promise.all(clients.map((client) => client.stop()));
      await stopServer();
    }
  }, 300_000);

  it("a player's apply started while the server is down waits for it, then takes its chore once", async () => {
    const { url, at, serve, kill, stopServer } = await servedAshfall();
    try {
      await kill();
      const apply = epicwar(["--server", url, "apply", "-"], at("concord", { EPICWAR_OFFLINE_TIMEOUT: "60" }));
      await until(() => /lost the server/.test(apply.err()), 30_000, "apply to say it lost the server");
      await sleep(1_000);
      expect(apply.child.exitCode).toBeNull();
      await serve();
      expect(await apply.exited, apply.err()).toBe(0);
      expect(apply.out.join("\n")).toMatch(/concord commits to its dice seed for turn 1/);
      toldTheOutage(apply, url);
      const log = await epicwarDone(["--server", url, "log", "--json"], at("host"));
      const committed = log.stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as { type: string; actor: string })
        .filter((event) => event.type === "PlayerSeedCommitted" && event.actor === "concord");
      expect(committed).toHaveLength(1);
    } finally {
      await stopServer();
    }
  }, 120_000);

  it("watch and demo whose server never comes back give up with exit code 4 after their offline timeout", async () => {
    const { url, at, kill } = await servedAshfall();
    const env = { EPICWAR_OFFLINE_TIMEOUT: "3" };
    const watch = epicwar(["--server", url, "watch"], at("host", env));
    const demo = epicwar(["--server", url, "demo"], at("concord", env));
    try {
      await until(() => demo.out.some((line) => /commits to its dice seed/.test(line)), 60_000, "the demo to play");
      await kill();
      const started = Date.now();
      expect(await Promise.all([watch.exited, demo.exited])).toEqual([4, 4]);
      // Given up once three seconds had passed without the server, not at once.
      expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
      for (const client of [watch, demo]) {
        expect(client.err()).toMatch(/epicwar: lost the server at \S+ \(ECONNREFUSED\); retrying in/);
        expect(client.err()).toMatch(
          /epicwar: the server at \S+ has been out of reach for 3\.\d s \(ECONNREFUSED\), the offline timeout \(3\.0 s\): giving up\n$/,
        );
      }
    } finally {
      await Promise.all([watch.stop(), demo.stop()]);
    }
  }, 120_000);
});
