/**
 * Real play draws every seed and salt from the operating system; only the offline demo plays a fixed sequence, and
 * says so. Two campaigns served alike, or made alike with `epicwar new`, commit to different seeds; the same players'
 * draws on two servers leave the difference to the servers' own.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { StoredEvent } from "../../events/index.js";
import { examplePath } from "../../src/package-files.js";
import { RemoteCampaign } from "../../src/client/remote.js";
import { sequenceRandomHex } from "../../src/client/prepare.js";
import { FileSecrets } from "../../src/client/secrets.js";
import { ServerConnection } from "../../src/client/server.js";
import { Table } from "../../src/client/table.js";
import { Engine } from "../../src/engine.js";
import { runInProcess, show } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";
import { serveAshfall } from "../remote/served-ashfall.js";

const PLAYERS = ["concord", "horde"] as const;

/** The seed commitments of a log: each player's for turn 1, then the host's. */
function seedCommitments(events: readonly StoredEvent[]): string[] {
  const of = (type: string) => events.filter((event) => event.type === type).map((event) => event.data);
  const players = (of("PlayerSeedCommitted") as Array<{ player: string; seedHash: string }>)
    .sort((a, b) => a.player.localeCompare(b.player))
    .map((committed) => committed.seedHash);
  const host = (of("TurnStarted") as Array<{ hostSeedHash: string }>).map((started) => started.hostSeedHash);
  expect(players).toHaveLength(PLAYERS.length);
  expect(host).toHaveLength(1);
  return [...players, ...host];
}

/**
 * Ashfall served as `demo --serve` serves it, its turn 1 started by the players' Tables (each drawing from the same
 * fixed sequence on every server) and the server's host chores: the log's seed commitments.
 */
async function servedTurnOne(): Promise<string[]> {
  const served = await serveAshfall();
  const { engine, url, campaign, invites } = served;
  try {
    const tables = await Promise.all(
      PLAYERS.map(async (player) => {
        const secrets = await tempDir(`epicwar-${player}-`);
        const joined = await runInProcess(["join", `${url}/join#${invites[player]}`, "--secrets", secrets]);
        expect(joined.code, show(joined)).toBe(0);
        const { token } = JSON.parse(await readFile(join(secrets, campaign, ".token.json"), "utf8")) as {
          token: string;
        };
        return new Table(new RemoteCampaign(new ServerConnection(url, token)), campaign, {
          parties: new Set([player]),
          secrets: new FileSecrets(secrets, campaign),
          random: sequenceRandomHex(`same-on-every-server-${player}`),
        });
      }),
    );
    const started = async () => (await engine.store.readAll(campaign)).some((event) => event.type === "TurnStarted");
    for (let round = 0; !(await started()); round++) {
      expect(round, "turn 1 started within 10 rounds of chores").toBeLessThan(10);
      for (const table of tables) await table.takeChores();
    }
    return seedCommitments(await engine.store.readAll(campaign));
  } finally {
    await served.close();
  }
}

/** Ashfall made with `epicwar new` and its due steps taken by `apply` with no line: the log's seed commitments. */
async function newTurnOne(): Promise<string[]> {
  const db = join(await tempDir("epicwar-random-new-"), "db");
  const made = await runInProcess(["new", "--db", db, "--setup", examplePath("ashfall.setup.json")]);
  expect(made.code, show(made)).toBe(0);
  const applied = await runInProcess(["apply", "-", "--db", db], "");
  expect(applied.code, show(applied)).toBe(0);
  const engine = await Engine.open(db);
  try {
    return seedCommitments(await engine.store.readAll("ashfall"));
  } finally {
    await engine.close();
  }
}

describe("D1: seeds and salts from the operating system", () => {
  it("two servers give the same players different host seeds", async () => {
    const [first, second] = [await servedTurnOne(), await servedTurnOne()];
    // The players drew alike on both servers, so the host's seed is all that can differ.
    expect(second.slice(0, PLAYERS.length)).toEqual(first.slice(0, PLAYERS.length));
    expect(second.at(-1)).not.toBe(first.at(-1));
  });

  it("two campaigns made with `epicwar new` commit to different seeds, every party's", async () => {
    const [first, second] = [await newTurnOne(), await newTurnOne()];
    for (const [index, commitment] of first.entries()) expect(second[index]).not.toBe(commitment);
  });

  it("the offline demo says its seeds and salts are a fixed sequence", async () => {
    const db = join(await tempDir("epicwar-random-demo-"), "db");
    const demo = await runInProcess(["demo", "--db", db]);
    expect(demo.code, show(demo)).toBe(0);
    expect(demo.stdout).toMatch(
      /seeds and salts come from a fixed sequence, so that every run plays the same campaign; `epicwar new`, `serve` and the library draw them from the operating system/,
    );
  });
});
