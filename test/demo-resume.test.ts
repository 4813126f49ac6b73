/**
 * `epicwar demo` in a folder where the demo campaign was stopped before its end (a demo killed part-way, or the
 * campaign only set up with `new`): it says where it stopped, plays it on to the end with the scripted commanders
 * and fresh draws of their own, and its last words match the campaign's state. Run by the CLI in this process, on a
 * real LevelDB in a temp folder.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { defaultSecretsDir } from "../src/cli/seat.js";
import { sequenceRandomHex } from "../src/client/prepare.js";
import { FileSecrets } from "../src/client/secrets.js";
import { Table } from "../src/client/table.js";
import { nextDecision, playCampaign } from "../src/demo/play.js";
import { Engine } from "../src/engine/engine.js";
import { loadSetupFile } from "../src/setup/setup-loader.js";
import { setupCommands } from "../src/setup/setup-file.js";
import { runInProcess, show } from "./support/cli.js";
import { tempDir } from "./support/tmp.js";

const ASHFALL = fileURLToPath(new URL("../examples/ashfall.setup.json", import.meta.url));

/** The demo as a first run leaves it when killed part-way: its own draws, three turns played and turn 4 begun. */
async function killedDemo(db: string): Promise<void> {
  const engine = await Engine.open(db);
  try {
    const setup = await loadSetupFile(ASHFALL);
    const created = await engine.create(setupCommands(setup).map((step) => step.command));
    if (!created.ok) throw new Error(JSON.stringify(created.refusal));
    const table = new Table(engine, setup.campaign, {
      secrets: new FileSecrets(defaultSecretsDir(db), setup.campaign),
      random: sequenceRandomHex("ashfall-demo"),
    });
    await playCampaign(table, () => {}, 3);
    for (let i = 0; i < 3; i++) {
      const outcome = await table.submit(nextDecision(await table.state()));
      if (!outcome.ok) throw new Error(JSON.stringify(outcome.refusal));
    }
  } finally {
    await engine.close();
  }
}

interface StateJson {
  status: string;
  turn: number;
  setup: { cvpTarget: number; players: Array<{ id: string; name: string }> };
  result: { winner: string | null; turn: number } | null;
}

async function stateOf(db: string): Promise<StateJson> {
  const run = await runInProcess(["state", "--db", db, "--json"]);
  expect(run.code, show(run)).toBe(0);
  return JSON.parse(run.stdout) as StateJson;
}

/** Runs the demo on a campaign stopped in turn `turn` and checks what it says against the campaign it leaves. */
async function expectResumed(db: string, turn: number): Promise<void> {
  const before = await stateOf(db);
  expect(before).toMatchObject({ status: "active", turn });

  const demo = await runInProcess(["demo", "--db", db]);
  expect(demo.code, show(demo)).toBe(0);
  expect(demo.stderr).toBe("");
  expect(demo.stdout).toContain(
    `The demo campaign in ${db} was stopped in turn ${turn} before its end; the scripted commanders play it on to the end.`,
  );
  expect(demo.stdout).not.toContain("already in");
  expect(demo.stdout).not.toContain("Created campaign");

  const after = await stateOf(db);
  expect(after.turn).toBeGreaterThan(turn);
  const lines = demo.stdout.trimEnd().split("\n");
  expect(lines.at(-1)).toMatch(/^Hash chain: ashfall: intact, \d+ events/);
  const verdict = lines.at(-2);
  if (after.status === "finished") {
    const winner = after.setup.players.find((p) => p.id === after.result!.winner);
    expect(verdict).toBe(
      winner
        ? `${winner.name} win the campaign in turn ${after.result!.turn}.`
        : `The campaign ends in a draw in turn ${after.result!.turn}.`,
    );
  } else {
    expect(after.turn).toBeGreaterThan(30);
    expect(verdict).toBe(`No side reached ${after.setup.cvpTarget} CVPs in 30 turns.`);
  }
  // The account is the whole campaign's, read back from the log: the turns before the stop as well.
  expect(demo.stdout).toContain("This is its account, read back from the log.");
  expect(demo.stdout).toContain("\n== Turn 1 ==\n");
  expect(demo.stdout).toContain(`\n== Turn ${after.result?.turn ?? after.turn} ==\n`);

  // No draw of the first run comes again: every seed and salt the log reveals is its own (a salt is a draw's first half).
  const log = await runInProcess(["log", "--json", "--db", db]);
  expect(log.code, show(log)).toBe(0);
  const draws = log.stdout
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as { data: { hostSeed?: string; seed?: string; salt?: string } })
    .flatMap(({ data }) =>
      [data.hostSeed, data.seed, data.salt]
        .filter((draw): draw is string => draw !== undefined)
        .map((draw) => draw.slice(0, 32)),
    );
  expect(draws.length).toBeGreaterThan(20);
  expect(new Set(draws).size).toBe(draws.length);

  const audit = await runInProcess(["audit", "--db", db]);
  expect(audit.code, show(audit)).toBe(0);

  // Run again, the campaign is told from the log and nothing is added.
  const again = await runInProcess(["demo", "--db", db]);
  expect(again.code, show(again)).toBe(0);
  expect(again.stdout).toContain(`The demo campaign is already in ${db}; this is its account, read back from the log.`);
  expect(again.stdout.trimEnd().split("\n").at(-2)).toBe(verdict);
  expect(await stateOf(db)).toEqual(after);
}

describe("demo on a campaign stopped before its end", () => {
  it("killed part-way in turn 4: plays it on to the end with draws of its own, and says how it ended", async () => {
    const db = join(await tempDir("epicwar-demo-resume-"), "db");
    await killedDemo(db);
    await expectResumed(db, 4);
  }, 120_000);

  it("only set up by new: plays it from turn 1 to the end", async () => {
    const db = join(await tempDir("epicwar-demo-resume-"), "db");
    const created = await runInProcess(["new", "--db", db, "--setup", ASHFALL]);
    expect(created.code, show(created)).toBe(0);
    await expectResumed(db, 1);
  }, 120_000);
});
