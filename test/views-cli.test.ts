/**
 * Player views end to end through the CLI (run in this process), on a real LevelDB
 * in a temp folder: `log --as`, `state --as` (text and JSON) and `apply --as` show a player only what it may see (S8).
 * The campaign is test/golden/fixtures/ready.json with each commander's formation renamed "cmd-<army>-7f3a", so that a
 * commander can be searched for: `"formation":"cmd-r1-7f3a","unitType":"command-stand"` is r1's commander. (The id
 * itself is on the public roster too, so the search is for the pair, as JSON writes a commander.)
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInProcess, type Run } from "./support/cli.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FIXTURES = join(ROOT, "test", "golden", "fixtures");

const cli = (args: string[], input = ""): Promise<Run> => runInProcess(args, input);

async function ok(args: string[], input?: string): Promise<string> {
  const run = await cli(args, input);
  expect(run.code, `epicwar ${args.join(" ")}\nexit ${run.code}\n${run.stdout}\n${run.stderr}`).toBe(0);
  return run.stdout;
}

type Commander = { formation: string; unitType: string };
type SetupArmy = {
  id: string;
  player: string;
  formations: Array<{ id: string; formation: string }>;
  commander: Commander;
};

/** Every way JSON (compact or pretty-printed) can write this commander. */
const commanderPattern = (c: Commander) =>
  new RegExp(
    `"formation":\\s*"${c.formation}",\\s*"unitType":\\s*"${c.unitType}"|"unitType":\\s*"${c.unitType}",\\s*"formation":\\s*"${c.formation}"`,
  );

let db: string;
let commanders: Record<string, Commander & { player: string }>;
const runs: Record<string, Run> = {};
const lines = (text: string) => text.split("\n").filter((line) => line.trim() !== "");

let dir: string;
afterAll(() => rm(dir, { recursive: true, force: true }));

beforeAll(async () => {
  // One database for the whole file (the apply test goes last and writes to it): removed after all tests.
  dir = await mkdtemp(join(tmpdir(), "epicwar-views-cli-"));
  const setup = JSON.parse(await readFile(join(FIXTURES, "ready.json"), "utf8")) as {
    catalogue: unknown;
    armies: SetupArmy[];
  };
  setup.catalogue = JSON.parse(await readFile(join(FIXTURES, setup.catalogue as string), "utf8"));
  commanders = {};
  for (const army of setup.armies) {
    const id = `cmd-${army.id}-7f3a`;
    army.formations = army.formations.map((f) => (f.id === army.commander.formation ? { ...f, id } : f));
    army.commander = { ...army.commander, formation: id };
    commanders[army.id] = { ...army.commander, player: army.player };
  }
  const file = join(dir, "views.setup.json");
  await writeFile(file, JSON.stringify(setup));
  db = join(dir, "db");
  await ok(["new", "--db", db, "--setup", file]);
  const shows: Record<string, string[]> = {
    logAll: ["log", "--db", db, "--json"],
    logBlueJson: ["log", "--db", db, "--as", "blue", "--json"],
    logBlueText: ["log", "--db", db, "--as", "blue"],
    logRedJson: ["log", "--db", db, "--as", "red", "--json"],
    logHostJson: ["log", "--db", db, "--as", "host", "--json"],
    stateAll: ["state", "--db", db, "--json"],
    stateBlueJson: ["state", "--db", db, "--as", "blue", "--json"],
    stateBlueText: ["state", "--db", db, "--as", "blue"],
    logGreen: ["log", "--db", db, "--as", "green"],
  };
  // One at a time: a LevelDB folder is open in one process at a time.
  for (const [name, args] of Object.entries(shows)) runs[name] = await cli(args);
}, 60_000);

describe("S8 the CLI shows a player only what it may see", () => {
  it("S8 log --as blue --json never holds red's commanders, while log --json (no viewer) does; blue's own are there", () => {
    for (const name of ["logAll", "logBlueJson"]) expect(runs[name]!.code, runs[name]!.stderr).toBe(0);
    const all = runs["logAll"]!.stdout;
    const blue = runs["logBlueJson"]!.stdout;
    for (const [army, c] of Object.entries(commanders)) {
      expect(all, `log --json shows ${army}'s commander`).toMatch(commanderPattern(c));
      if (c.player === "red") expect(blue, `blue is shown ${army}'s commander`).not.toMatch(commanderPattern(c));
      else expect(blue).toMatch(commanderPattern(c));
    }
    // The same events, one a line, in order; red's registrations say what was hidden; no chain hashes in a view.
    const viewed = lines(blue).map(
      (line) =>
        JSON.parse(line) as {
          seq: number;
          type: string;
          data: { army?: string; player?: string; commander?: unknown };
          redacted?: string[];
        },
    );
    expect(viewed.map((e) => e.seq)).toEqual(lines(all).map((_, i) => i + 1));
    for (const event of viewed) {
      expect(event).not.toHaveProperty("hash");
      expect(event).not.toHaveProperty("prev");
      if (event.type === "ArmyRegistered" && event.data.player === "red") {
        expect(event.data.commander).toBe("hidden");
        expect(event.redacted).toEqual(["data.commander"]);
      } else {
        expect(event).not.toHaveProperty("redacted");
      }
    }
  });

  it("S8 log --as red --json is the mirror image; log --as host --json is the log as stored", () => {
    const red = runs["logRedJson"]!.stdout;
    for (const [army, c] of Object.entries(commanders)) {
      if (c.player === "blue") expect(red, `red is shown ${army}'s commander`).not.toMatch(commanderPattern(c));
      else expect(red).toMatch(commanderPattern(c));
    }
    expect(runs["logHostJson"]!.stdout).toBe(runs["logAll"]!.stdout);
  });

  it("S8 log --as blue (text) is the same account as the log, line for line", () => {
    const text = lines(runs["logBlueText"]!.stdout);
    expect(text).toHaveLength(lines(runs["logAll"]!.stdout).length);
    text.forEach((line, i) => expect(line).toMatch(new RegExp(`^#${i + 1}\\s`)));
    expect(runs["logBlueText"]!.stdout).not.toMatch(/cmd-r\d-7f3a/);
  });

  it("S8 state --as blue --json never holds red's commanders, while state --json does", () => {
    const all = JSON.parse(runs["stateAll"]!.stdout) as { armies: Record<string, { commander: unknown }> };
    const blue = JSON.parse(runs["stateBlueJson"]!.stdout) as {
      armies: Record<string, { commander: unknown }>;
      heldOrders: unknown;
    };
    for (const [army, c] of Object.entries(commanders)) {
      expect(all.armies[army]!.commander).toEqual({ formation: c.formation, unitType: c.unitType });
      expect(blue.armies[army]!.commander).toEqual(
        c.player === "red" ? "hidden" : { formation: c.formation, unitType: c.unitType },
      );
      if (c.player === "red") expect(runs["stateBlueJson"]!.stdout).not.toMatch(commanderPattern(c));
    }
    expect(blue.heldOrders).toEqual({});
  });

  it("S8 state --as blue (text) names blue's commanders and none of red's", () => {
    const text = runs["stateBlueText"]!.stdout;
    expect(text).toContain("commander: war-engine of cmd-b1-7f3a");
    expect(text).toContain("commander: command-stand of cmd-b2-7f3a");
    expect(text).not.toMatch(/cmd-r\d-7f3a/);
  });

  it("S8 a viewer that is not a party of the campaign is refused in one line", () => {
    const run = runs["logGreen"]!;
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^epicwar: "green" is not a player of golden\n$/);
  });

  it("S8 apply --as PLAYER prints each event written as that player may see it", async () => {
    const state = JSON.parse(await ok(["state", "--db", db, "--json"])) as { turnState: { initiativeWinner: string } };
    const winner = state.turnState.initiativeWinner;
    const out = await ok(
      ["apply", "--db", db, "--as", winner, "-"],
      `${JSON.stringify({ actor: winner, type: "ChooseFirst", first: winner })}\n`,
    );
    expect(lines(out)).toEqual([
      expect.stringMatching(new RegExp(`^#\\d+ ${winner} chooses ${winner} to activate first$`)),
    ]);
    for (const c of Object.values(commanders)) if (c.player !== winner) expect(out).not.toMatch(commanderPattern(c));
  });
});
