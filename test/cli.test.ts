/**
 * End to end through the CLI on a real LevelDB in temp folders, each run in this process through `run`
 * (src/cli/run.ts) with its output captured; nothing is mocked. (test/cli-smoke.test.ts runs the built bin.)
 *
 * So that tests stay independent and quick:
 * - a database a describe block needs in several tests is built once in beforeAll, read into memory as the closed
 *   database's files (`snapshot`), and written back into a fresh tempDir() by each test that uses it (`restore`):
 *   tempDir() folders are removed after every test, and every test that changes a log has its own copy;
 * - a database is always the folder "db" inside a tempDir(), so that what the CLI keeps beside it (the parties'
 *   secrets, "db-secrets" by default) is inside the temp folder too, copied and removed with it;
 * - where many cases are independent (bad inputs, --help), beforeAll runs them a few side by side, and each test then
 *   checks what its case printed and left behind.
 */
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import canonicalizeModule from "canonicalize";
import { Level } from "level";
import { beforeAll, describe, expect, it } from "vitest";
import { catalogue } from "../events/index.js";
import { runInProcess, show, type Run } from "./support/cli.js";
import { checkCommand, COMMAND_SCHEMAS } from "../src/engine/command-schemas.js";
import { tempDir } from "./support/tmp.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FIXTURES = join(ROOT, "test", "golden", "fixtures");
const READY = join(FIXTURES, "ready.json");
const BLANK = join(FIXTURES, "blank.json");
const ASHFALL = join(ROOT, "examples", "ashfall.setup.json");
const GENESIS = "0".repeat(64);
/** ready.json's set-up: CampaignCreated, 2 home bases, 8 objectives, 4 armies registered and deployed, CampaignStarted. */
const READY_SETUP_EVENTS = 20;

const canonicalize = canonicalizeModule as unknown as (input: unknown) => string | undefined;

// ---------------------------------------------------------------------------------------------------------------
// Running the CLI

const cli = (args: string[], input = ""): Promise<Run> => runInProcess(args, input);

/** Runs tasks side by side, a few at a time (as many as the machine has cores, at least 2). */
async function inParallel<T>(tasks: Array<() => Promise<T>>): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.max(2, availableParallelism()) }, worker));
  return results;
}

/** Expects success and returns stdout. */
async function ok(args: string[], input?: string): Promise<string> {
  const run = await cli(args, input);
  expect(run.code, `epicwar ${args.join(" ")}\n${show(run)}`).toBe(0);
  return run.stdout;
}

const nonEmptyLines = (text: string) => text.split(/\r?\n/).filter((line) => line.trim() !== "");

/** A clean failure: this exit code, exactly one non-empty line on stderr, no stack trace, not an internal error. */
function expectOneLineError(run: Run, code = 1): string {
  expect(run.code, show(run)).toBe(code);
  const lines = nonEmptyLines(run.stderr);
  expect(lines, show(run)).toHaveLength(1);
  expect(run.stderr, "no stack trace").not.toMatch(/^\s+at /m);
  expect(lines[0]).toMatch(/^epicwar: /);
  expect(lines[0]).not.toContain("internal error");
  return lines[0]!;
}

const logJson = (db: string, campaign?: string) =>
  ok(["log", "--db", db, "--json", ...(campaign ? ["--campaign", campaign] : [])]);

interface LoggedEvent {
  stream: string;
  seq: number;
  type: string;
  version: number;
  at: string;
  actor: string;
  data: Record<string, unknown>;
  prev: string;
  hash: string;
}

const parseLines = (jsonl: string) => nonEmptyLines(jsonl).map((line) => JSON.parse(line) as LoggedEvent);

/** What a refused command left behind: the log as `log --json` prints it, and `verify`. */
interface After {
  log: Run;
  verify: Run;
}

const after = async (db: string): Promise<After> => ({
  log: await cli(["log", "--db", db, "--json"]),
  verify: await cli(["verify", "--db", db]),
});

/** The log is byte-for-byte what it was before, and verify still passes. */
function expectUnchanged({ log, verify }: After, before: string): void {
  expect(log.code, show(log)).toBe(0);
  expect(log.stdout).toBe(before);
  expect(verify.code, show(verify)).toBe(0);
  expect(verify.stdout).toContain("intact");
}

// ---------------------------------------------------------------------------------------------------------------
// Files

/** A database folder of its own: "db" inside a fresh tempDir() (the CLI creates it). */
async function freshDb(prefix = "epicwar-cli-"): Promise<string> {
  return join(await tempDir(prefix), "db");
}

/** A closed database's files and whatever the CLI keeps beside it, held in memory so that tests can start from copies. */
type Snapshot = Map<string, Buffer>;

async function snapshot(db: string): Promise<Snapshot> {
  const dir = dirname(db);
  const files: Snapshot = new Map();
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(dir, path), await readFile(path));
  }
  return files;
}

/** A fresh tempDir() holding a copy of the snapshot; returns its database folder. */
async function restore(files: Snapshot): Promise<string> {
  const dir = await tempDir("epicwar-cli-copy-");
  for (const [name, content] of files) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), content);
  }
  return join(dir, "db");
}

// A set-up file as JSON, changed freely by each case (the CLI checks it, not the type).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type SetupJson = Record<string, any>;

/** Writes a set-up file: ready.json changed by `change`, with its catalogue path made absolute. */
async function writeSetup(dir: string, name: string, change: (setup: SetupJson) => void = () => {}): Promise<string> {
  const setup = JSON.parse(await readFile(READY, "utf8")) as SetupJson;
  setup["catalogue"] = join(FIXTURES, setup["catalogue"] as string);
  change(setup);
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(setup, null, 2));
  return path;
}

const jsonl = (lines: Array<string | object>) =>
  lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n") + "\n";

async function writeLines(dir: string, name: string, lines: Array<string | object>): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, jsonl(lines));
  return path;
}

const eventsOf = (db: Level<string, string>) => db.sublevel<string, string>("events", { valueEncoding: "utf8" });

/** Opens the folder with `level` directly, as someone editing the files would, and changes the stored events. */
async function tamper(dir: string, edit: (events: ReturnType<typeof eventsOf>) => Promise<void>): Promise<void> {
  const db = new Level<string, string>(dir, { valueEncoding: "utf8" });
  await db.open({ createIfMissing: false });
  try {
    await edit(eventsOf(db));
  } finally {
    await db.close();
  }
}

const eventKey = (stream: string, seq: number) => `${stream}#${String(seq).padStart(12, "0")}`;

// ---------------------------------------------------------------------------------------------------------------

describe("a campaign created from ready.json", () => {
  let created: Run;
  let stateText: Run;
  let stateJson: Run;
  let logLines: Run;
  let logText: Run;
  let verified: Run;
  let ready: Snapshot;
  /** Events in the log: the set-up's, then whatever protocol steps of turn 1 the CLI took on its own ("chores"). */
  let total: number;

  beforeAll(async () => {
    const db = await freshDb("epicwar-cli-ready-");
    created = await cli(["new", "--db", db, "--setup", READY]);
    // Reading commands do not change the log: they all read this one folder.
    stateText = await cli(["state", "--db", db]);
    stateJson = await cli(["state", "--db", db, "--json"]);
    logLines = await cli(["log", "--db", db, "--json"]);
    logText = await cli(["log", "--db", db]);
    verified = await cli(["verify", "--db", db]);
    ready = await snapshot(db);
    total = nonEmptyLines(logLines.stdout).length;
  });

  it("new creates the campaign and names it (exit 0)", () => {
    expect(created.code, show(created)).toBe(0);
    expect(created.stderr).toBe("");
    expect(created.stdout).toContain('Created campaign golden "Golden ready set-up"');
    expect(created.stdout).toContain("4 armies, 8 objectives, 2 home bases; turn 1 begins");
    expect(created.stdout).toMatch(new RegExp(`^${READY_SETUP_EVENTS} set-up events written\\.$`, "m"));
    expect(created.stdout).toMatch(/^The log holds \d+ events; head [0-9a-f]{16}\.$/m);
  });

  it("state shows the map as rows of terrain, and every army with its points", async () => {
    expect(stateText.code, show(stateText)).toBe(0);
    const text = stateText.stdout;
    const { map } = JSON.parse(await readFile(READY, "utf8")) as { map: { width: number; terrain: string[] } };
    expect(text).toContain("Golden ready set-up (golden): turn 1, action phase");
    // A header of column numbers 0..width-1, then one row per map row, numbered from 0, with each square's terrain
    // letter (plains ".") under its column's number.
    const lines = text.split("\n");
    const header = lines.findIndex((line) => /^\s+0\s+1\s+2\s/.test(line));
    expect(header, text).toBeGreaterThanOrEqual(0);
    const columns = [...lines[header]!.matchAll(/\d+/g)];
    expect(columns.map((match) => Number(match[0]))).toEqual(Array.from({ length: map.width }, (_, x) => x));
    const rows = lines.slice(header + 1, header + 1 + map.terrain.length);
    rows.forEach((row, y) => {
      expect(row).toMatch(new RegExp(`^\\s*${y}\\s`));
      const letters = columns.map((match) => row.charAt(match.index)).join("");
      expect(letters, row).toBe(map.terrain[y]!.replaceAll("p", "."));
    });
    expect(text).toContain("terrain: . plains, f forest, h hills, m mountains, r river, t town, c city");
    expect(text).toMatch(/r1\s+Red Vanguard\s+2,600 pts\s+rate 3\s+\(1,0\)/);
    expect(text).toMatch(/r2\s+Red Reserve\s+1,400 pts\s+rate 3\s+\(6,0\)/);
    expect(text).toMatch(/b1\s+Blue Hammer\s+3,550 pts\s+rate 2\s+\(2,7\)/);
    expect(text).toMatch(/b2\s+Blue Screen\s+1,150 pts\s+rate 3\s+\(4,7\)/);
  });

  it("state --json is the projected state: status active, turn 1, 4 armies with points", () => {
    expect(stateJson.code, show(stateJson)).toBe(0);
    const state = JSON.parse(stateJson.stdout) as {
      campaign: string;
      status: string;
      turn: number;
      seq: number;
      armies: Record<string, { player: string; points: number; at: [number, number] | null }>;
    };
    expect(state).toMatchObject({ campaign: "golden", status: "active", turn: 1, seq: total });
    expect(
      Object.fromEntries(Object.entries(state.armies).map(([id, army]) => [id, [army.player, army.points, army.at]])),
    ).toEqual({
      r1: ["red", 2600, [1, 0]],
      r2: ["red", 1400, [6, 0]],
      b1: ["blue", 3550, [2, 7]],
      b2: ["blue", 1150, [4, 7]],
    });
  });

  it("log --json prints JSON Lines: one stored event a line, seq 1..n consecutive, each hash-chained to the one before", () => {
    expect(logLines.code, show(logLines)).toBe(0);
    expect(logLines.stdout.endsWith("\n")).toBe(true);
    const lines = logLines.stdout.slice(0, -1).split("\n");
    expect(lines.length).toBeGreaterThanOrEqual(READY_SETUP_EVENTS);
    let prev = GENESIS;
    lines.forEach((line, i) => {
      const event = JSON.parse(line) as LoggedEvent;
      // A signed command's first event also keeps the command as signed (D2).
      expect(Object.keys(event).sort()).toEqual([
        "actor",
        "at",
        ...("command" in event ? ["command"] : []),
        "data",
        "hash",
        "prev",
        "seq",
        "stream",
        "type",
        "version",
      ]);
      expect(event).toMatchObject({
        stream: "golden",
        seq: i + 1,
        version: catalogue.definition(event.type)!.version,
        prev,
      });
      expect(event.type).toMatch(/^[A-Z][A-Za-z]+$/);
      expect(event.actor).toMatch(/^(host|red|blue)$/);
      expect(new Date(event.at).toISOString()).toBe(event.at);
      expect(typeof event.data).toBe("object");
      expect(event.hash).toMatch(/^[0-9a-f]{64}$/);
      const { hash, ...body } = event;
      expect(createHash("sha256").update(canonicalize(body)!, "utf8").digest("hex"), `hash of seq ${i + 1}`).toBe(hash);
      prev = hash;
    });
    const events = parseLines(logLines.stdout);
    expect(events[0]).toMatchObject({ type: "CampaignCreated", actor: "host" });
    expect(events[READY_SETUP_EVENTS - 1]).toMatchObject({
      seq: READY_SETUP_EVENTS,
      type: "CampaignStarted",
      actor: "host",
      data: { turn: 1 },
    });
  });

  it("log (text) prints one line per event, in seq order", () => {
    expect(logText.code, show(logText)).toBe(0);
    const lines = nonEmptyLines(logText.stdout);
    expect(lines).toHaveLength(total);
    lines.forEach((line, i) => expect(line).toMatch(new RegExp(`^#${i + 1}\\s`)));
    expect(lines[0]).toMatch(/host\s+CampaignCreated\s+campaign "Golden ready set-up" created: 12x8 map/);
    expect(lines[12]).toMatch(/red\s+ArmyDeployed\s+army r1 deployed at \(1,0\)/);
    expect(lines[19]).toMatch(/host\s+CampaignStarted\s+set-up complete: turn 1 begins/);
  });

  it("verify exits 0 and says the chain is intact", () => {
    expect(verified.code, show(verified)).toBe(0);
    expect(verified.stderr).toBe("");
    expect(nonEmptyLines(verified.stdout)).toEqual([
      expect.stringMatching(new RegExp(`^golden: intact, ${total} events, head [0-9a-f]{16}$`)),
      expect.stringMatching(/^ {2}signatures: \d+ signed commands verified against the keys in force, /),
    ]);
  });

  it("creating the same campaign twice is refused: exit 1, one line on stderr, log unchanged", async () => {
    const db = await restore(ready);
    const message = expectOneLineError(await cli(["new", "--db", db, "--setup", READY]));
    expect(message).toContain('campaign "golden" already exists');
    expectUnchanged(await after(db), logLines.stdout);
  });

  it("--campaign: with two campaigns in the folder, state needs it and names both; verify checks both without it", async () => {
    const db = await restore(ready);
    const twin = await writeSetup(await tempDir("epicwar-cli-in-"), "twin.json", (setup) => {
      setup["campaign"] = "golden2";
      setup["name"] = "Golden twin";
    });
    expect(await ok(["new", "--db", db, "--setup", twin])).toContain('Created campaign golden2 "Golden twin"');

    const several = expectOneLineError(await cli(["state", "--db", db]));
    expect(several).toContain("several campaigns (golden, golden2)");
    expect(several).toContain("--campaign");
    expect(await ok(["state", "--db", db, "--campaign", "golden"])).toContain("Golden ready set-up (golden): turn 1");
    expect(await ok(["state", "--db", db, "--campaign", "golden2"])).toContain("Golden twin (golden2): turn 1");
    const twinLog = parseLines(await logJson(db, "golden2"));
    expect(twinLog.map((event) => `${event.stream}#${event.seq}`)).toEqual(
      Array.from({ length: total }, (_, i) => `golden2#${i + 1}`),
    );

    const verify = await cli(["verify", "--db", db]);
    expect(verify.code, show(verify)).toBe(0);
    expect(nonEmptyLines(verify.stdout)).toEqual([
      expect.stringMatching(new RegExp(`^golden: intact, ${total} events`)),
      expect.stringMatching(/^ {2}signatures: /),
      expect.stringMatching(new RegExp(`^golden2: intact, ${total} events`)),
      expect.stringMatching(/^ {2}signatures: /),
    ]);

    const unknown = expectOneLineError(await cli(["state", "--db", db, "--campaign", "nope"]));
    expect(unknown).toContain('no campaign "nope"');
    expect(unknown).toContain("golden, golden2");
  });

  it("verify exits 2 naming seq 5 when one character of its stored data was changed", async () => {
    const db = await restore(ready);
    await tamper(db, async (events) => {
      const key = eventKey("golden", 5);
      const value = (await events.get(key))!;
      const changed = value.replace('"objective":"blue-com2"', '"objective":"blue-com7"');
      expect(changed).not.toBe(value);
      expect(changed.slice(0, 64)).toBe(value.slice(0, 64)); // the stored hash is left as it was
      await events.put(key, changed);
    });
    const message = expectOneLineError(await cli(["verify", "--db", db, "--campaign", "golden"]), 2);
    expect(message).toContain("golden: chain broken at seq 5 ");
  });

  it("verify exits 2 naming seq 3 when that event was deleted", async () => {
    const db = await restore(ready);
    await tamper(db, async (events) => {
      expect(await events.get(eventKey("golden", 3))).toBeDefined();
      await events.del(eventKey("golden", 3));
    });
    const message = expectOneLineError(await cli(["verify", "--db", db]), 2);
    expect(message).toContain("golden: chain broken at seq 3 ");
    expect(message).toContain("missing");
  });
});

describe("apply on a campaign still in set-up (blank.json)", () => {
  it("applies a JSON Lines file of valid set-up commands, one event each, in order", async () => {
    const db = await freshDb("epicwar-cli-blank-");
    expect(await ok(["new", "--db", db, "--setup", BLANK])).toContain(
      "0 armies, 0 objectives, 0 home bases; set-up continues",
    );
    const file = await writeLines(await tempDir("epicwar-cli-in-"), "setup.jsonl", [
      { actor: "red", type: "PlaceHomeBase", at: [6, 0] },
      "",
      { actor: "blue", type: "PlaceHomeBase", at: [4, 7] },
      { actor: "blue", type: "PlaceObjective", at: [0, 0] },
      {
        actor: "red",
        type: "RegisterArmy",
        army: "r1",
        name: "Red Vanguard",
        formations: [
          { id: "line", formation: "line-company" },
          { id: "armour", formation: "armour-company" },
        ],
        commander: { formation: "line", unitType: "command-stand" },
      },
      { actor: "red", type: "DeployArmy", army: "r1", at: [1, 0] },
    ]);
    const run = await cli(["apply", file, "--db", db]);
    expect(run.code, show(run)).toBe(0);
    expect(run.stderr).toBe("");
    expect(nonEmptyLines(run.stdout)).toEqual([
      "#2 red placed its home base at (6,0)",
      "#3 blue placed its home base at (4,7)",
      "#4 blue placed objective blue-com1 at (0,0)",
      '#5 red registered army r1 "Red Vanguard" (2 formations)',
      "#6 army r1 deployed at (1,0)",
    ]);
    const events = parseLines(await logJson(db));
    expect(events.map((event) => [event.seq, event.type, event.actor])).toEqual([
      [1, "CampaignCreated", "host"],
      [2, "HomeBasePlaced", "red"],
      [3, "HomeBasePlaced", "blue"],
      [4, "ObjectivePlaced", "blue"],
      [5, "ArmyRegistered", "red"],
      [6, "ArmyDeployed", "red"],
    ]);
    expect(events[5]?.data).toEqual({ army: "r1", at: [1, 0] });
  });

  it("S6 a file whose 2nd line puts an objective on plains: line 1 applied, stops at :2 naming S6 and why, line 3 not applied", async () => {
    const db = await freshDb("epicwar-cli-blank-");
    const work = await tempDir("epicwar-cli-in-");
    await ok(["new", "--db", db, "--setup", BLANK]);
    const before = await logJson(db);

    const line3 = { actor: "blue", type: "PlaceObjective", at: [9, 0] }; // mountains: valid on its own
    const file = await writeLines(work, "objectives.jsonl", [
      { actor: "blue", type: "PlaceObjective", at: [3, 0] }, // forest
      { actor: "blue", type: "PlaceObjective", at: [11, 3] }, // plains
      line3,
    ]);
    const run = await cli(["apply", file, "--db", db]);
    const message = expectOneLineError(run);
    expect(message).toContain(`${file}:2: `);
    expect(message).toContain("S6: ");
    expect(message).toContain("not plains: (11,3) is plains");
    expect(nonEmptyLines(run.stdout)).toEqual(["#2 blue placed objective blue-com1 at (3,0)"]);

    const afterApply = await logJson(db);
    expect(afterApply.startsWith(before)).toBe(true);
    const added = parseLines(afterApply.slice(before.length));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({
      seq: 2,
      type: "ObjectivePlaced",
      actor: "blue",
      data: { objective: "blue-com1", at: [3, 0] },
    });

    // Line 3 was not applied only because apply stopped at line 2: on its own, it applies.
    const rest = await writeLines(work, "rest.jsonl", [line3]);
    expect(nonEmptyLines(await ok(["apply", rest, "--db", db]))).toEqual([
      "#3 blue placed objective blue-com2 at (9,0)",
    ]);
  });
});

describe("bad input: exit 1, one line on stderr and no stack trace, the log unchanged", () => {
  /** Each case writes its input into a folder of its own and returns the arguments to run on a copy of the database. */
  type Case = (work: string) => Promise<{ args: (db: string) => string[]; input?: string; names: string }>;

  const applyLines =
    (lines: string[]): Case =>
    async (work) => {
      const file = await writeLines(work, "commands.jsonl", lines);
      return { args: (db) => ["apply", file, "--db", db], names: `${file}:1: ` };
    };
  const setupFile =
    (write: (work: string) => Promise<string>, names?: string): Case =>
    async (work) => {
      const file = await write(work);
      return { args: (db) => ["new", "--db", db, "--setup", file], names: names ?? file };
    };

  const cases = {
    malformed: applyLines(['{"actor":"blue","type":"PlaceObjective",']),
    notAnObject: applyLines(["[1, 2]"]),
    unknownType: applyLines(['{"actor":"red","type":"MarchOnTerra"}']),
    wrongType: applyLines(['{"actor":"blue","type":"PlaceObjective","at":"3,4"}']),
    unknownField: applyLines(['{"actor":"blue","type":"PlaceObjective","at":[0,0],"cvp":99}']),
    huge: applyLines(['{"actor":"blue","type":"PlaceObjective","at":[1e30,0]}']),
    infinite: applyLines(['{"actor":"blue","type":"PlaceObjective","at":[0,1e400]}']),
    negative: applyLines(['{"actor":"blue","type":"PlaceObjective","at":[-1,2]}']),
    offMap: applyLines(['{"actor":"blue","type":"PlaceObjective","at":[500,3]}']),
    unknownArmy: applyLines(['{"actor":"red","type":"DeployArmy","army":"ghost","at":[1,0]}']),
    unknownActor: applyLines(['{"actor":"green","type":"PlaceObjective","at":[0,0]}']),
    stdin: async () => ({
      args: (db: string) => ["apply", "-", "--db", db],
      input: '{"actor":"green","type":"PlaceObjective","at":[0,0]}\n',
      names: "stdin:1: ",
    }),
    missingCommands: async (work: string) => {
      const file = join(work, "missing.jsonl");
      return { args: (db: string) => ["apply", file, "--db", db], names: file };
    },
    missingSetup: setupFile(async (work) => join(work, "missing.json")),
    setupNotJson: setupFile(async (work) => {
      await writeFile(join(work, "broken.json"), '{"campaign": "golden", ');
      return join(work, "broken.json");
    }),
    setupWrongField: setupFile((work) =>
      writeSetup(work, "negative.json", (setup) => (setup["force"].maxArmyPoints = -5)),
    ),
    setupNegativeSize: setupFile((work) =>
      writeSetup(work, "negative-map.json", (setup) => (setup["map"].width = -12)),
    ),
    setupHuge: setupFile((work) => writeSetup(work, "huge.json", (setup) => (setup["force"].maxArmyPoints = 1e30))),
    setupMissingCatalogue: async (work: string) => {
      const file = await writeSetup(work, "no-catalogue.json", (setup) => (setup["catalogue"] = "nowhere.json"));
      return { args: (db: string) => ["new", "--db", db, "--setup", file], names: join(work, "nowhere.json") };
    },
    setupArmyOverM: setupFile((work) =>
      writeSetup(work, "over-m.json", (setup) => {
        setup["campaign"] = "other"; // a new campaign, so that only the army can be wrong
        setup["armies"][2].formations.push({ id: "engine2", formation: "war-engine" }); // b1: 3,550 + 1,000 > M = 4,000
      }),
    ),
  } satisfies Record<string, Case>;

  /** blank.json, both home bases placed and red's army r1 registered: 4 events, still in set-up. */
  let baseline: string;
  const outcomes = new Map<keyof typeof cases, { run: Run; names: string; after: After }>();

  /**
   * The cases run in a few lanes side by side, each lane on its own copy of the database; when a lane's cases are done,
   * its `log --json` and `verify` are what every case of the lane is checked against. The log only grows, so a lane
   * whose log is still the baseline had no case that wrote anything (and a case that did also exits 0 and fails).
   */
  beforeAll(async () => {
    const db = await freshDb("epicwar-cli-bad-");
    await ok(["new", "--db", db, "--setup", BLANK]);
    const commands = [
      { actor: "red", type: "PlaceHomeBase", at: [6, 0] },
      { actor: "blue", type: "PlaceHomeBase", at: [4, 7] },
      {
        actor: "red",
        type: "RegisterArmy",
        army: "r1",
        name: "Red Vanguard",
        formations: [
          { id: "line", formation: "line-company" },
          { id: "armour", formation: "armour-company" },
        ],
        commander: { formation: "line", unitType: "command-stand" },
      },
    ];
    await ok(["apply", "-", "--db", db], jsonl(commands));
    baseline = await logJson(db);
    expect(nonEmptyLines(baseline)).toHaveLength(4);
    const inSetup = await snapshot(db);

    const keys = Object.keys(cases) as Array<keyof typeof cases>;
    const lanes = Math.max(2, availableParallelism());
    await Promise.all(
      Array.from({ length: lanes }, async (_, lane) => {
        const copy = await restore(inSetup);
        const done: Array<[keyof typeof cases, { run: Run; names: string }]> = [];
        for (const key of keys.filter((_, i) => i % lanes === lane)) {
          const { args, input, names } = await (cases[key] as Case)(await tempDir("epicwar-cli-in-"));
          done.push([key, { run: await cli(args(copy), input), names }]);
        }
        const left = await after(copy);
        for (const [key, outcome] of done) outcomes.set(key, { ...outcome, after: left });
      }),
    );
  }, 120_000);

  /** The case's one line of error, after checking exit 1, nothing on stdout, the input named and the log unchanged. */
  function refused(key: keyof typeof cases): string {
    const { run, names, after } = outcomes.get(key)!;
    const message = expectOneLineError(run);
    expect(message).toContain(names);
    expect(run.stdout).toBe("");
    expectUnchanged(after, baseline);
    return message;
  }

  it("a malformed JSON line", () => {
    expect(refused("malformed")).toMatch(/:1: not valid JSON \(.+\); nothing from this line on was applied$/);
  });

  it("a line that is JSON but not a command object", () => {
    expect(refused("notAnObject")).toContain('command: must be a JSON object with "type" and "actor"');
  });

  it("an unknown command type: the message lists the known types", () => {
    const message = refused("unknownType");
    expect(message).toContain('unknown command type "MarchOnTerra"');
    for (const type of Object.keys(COMMAND_SCHEMAS)) expect(message).toContain(type);
  });

  it("every command type's schema compiles under ajv's strict mode (validators are compiled on a type's first check)", () => {
    for (const type of Object.keys(COMMAND_SCHEMAS)) {
      expect(() => checkCommand({ type, actor: "red" }), type).not.toThrow();
      expect(checkCommand({ type, actor: "red", notAField: 1 }), type).toMatchObject({ ok: false });
    }
  });

  it('a field of the wrong type ("at": "3,4") names the field at', () => {
    expect(refused("wrongType")).toMatch(/\bat: must be array/);
  });

  it("a field the command does not have is named", () => {
    expect(refused("unknownField")).toMatch(/\bcvp: is not a known field/);
  });

  it("a huge coordinate (1e30) is refused by its field", () => {
    expect(refused("huge")).toMatch(/\bat\[0\]: must be <= 999/);
  });

  it("a JSON number too large for a double (1e400) is refused by its field", () => {
    expect(refused("infinite")).toMatch(/\bat\[1\]: must be integer/);
  });

  it("a negative coordinate (at [-1, 2]) is refused by its field", () => {
    expect(refused("negative")).toMatch(/\bat\[0\]: must be >= 0/);
  });

  it("a square off the map is refused naming at", () => {
    expect(refused("offMap")).toContain("at: (500,3) is off the 12x8 map");
  });

  it("DeployArmy of an army that does not exist names the field army", () => {
    expect(refused("unknownArmy")).toContain('army: no army "ghost"');
  });

  it("an actor that is not a player names the field actor", () => {
    expect(refused("unknownActor")).toContain('actor: "green" is not a player of this campaign');
  });

  it("a refused line on standard input is named stdin:1", () => {
    expect(refused("stdin")).toContain('stdin:1: refused: actor: "green" is not a player');
  });

  it("a commands file that does not exist", () => {
    expect(refused("missingCommands")).toMatch(/^epicwar: cannot read .*missing\.jsonl: no such file$/);
  });

  it("a set-up file that does not exist", () => {
    expect(refused("missingSetup")).toMatch(/^epicwar: cannot read .*missing\.json: no such file$/);
  });

  it("a set-up file that is not JSON", () => {
    expect(refused("setupNotJson")).toMatch(/broken\.json is not valid JSON: /);
  });

  it("a set-up file with a wrong field (force.maxArmyPoints: -5) names the field", () => {
    expect(refused("setupWrongField")).toMatch(/negative\.json: force\.maxArmyPoints must be >= 1000$/);
  });

  it("a set-up file with a negative map size names the field", () => {
    expect(refused("setupNegativeSize")).toMatch(/negative-map\.json: map\.width must be >= 2$/);
  });

  it("a set-up file with a huge number (maxArmyPoints 1e30) names the field", () => {
    expect(refused("setupHuge")).toMatch(/huge\.json: force\.maxArmyPoints must be <= 1000000$/);
  });

  it("a set-up file whose catalogue file does not exist names the catalogue file", () => {
    expect(refused("setupMissingCatalogue")).toMatch(/cannot read .*nowhere\.json: no such file$/);
  });

  it("S2 a set-up file with an army over M names S2 and the armies[i] it came from", () => {
    const message = refused("setupArmyOverM");
    expect(message).toContain("over-m.json: armies[2]: S2: ");
    expect(message).toContain('army "b1" is 4,550 points');
    expect(message).toContain("M = 4,000");
  });

  it("state, log and verify on a folder with no database say so (and do not make one)", async () => {
    const nowhere = join(await tempDir("epicwar-cli-none-"), "no-db-here");
    for (const command of ["state", "log", "verify"]) {
      expect(expectOneLineError(await cli([command, "--db", nowhere]))).toBe(
        `epicwar: no campaign database at ${nowhere}`,
      );
    }
  });
});

describe("--help", () => {
  const commands = {
    new: ["--db <dir>", "--setup <file>"],
    apply: ["<file>", "--db <dir>", "--campaign <id>"],
    state: ["--db <dir>", "--campaign <id>", "--json"],
    log: ["--db <dir>", "--campaign <id>", "--json"],
    verify: ["--db <dir>", "--campaign <id>"],
    demo: ["--db <dir>"],
  };
  const helps = new Map<string, Run>();

  beforeAll(async () => {
    const runs = await inParallel(
      [[], ...Object.keys(commands).map((command) => [command])].map((args) => () => cli([...args, "--help"])),
    );
    runs.forEach((run, i) => helps.set(i === 0 ? "" : Object.keys(commands)[i - 1]!, run));
  });

  it("the program's help lists every command and the exit codes", () => {
    const run = helps.get("")!;
    expect(run.code, show(run)).toBe(0);
    for (const command of Object.keys(commands)) expect(run.stdout).toMatch(new RegExp(`^  ${command} `, "m"));
    expect(run.stdout).toContain("Exit codes: 0 done; 1");
  });

  it.each(Object.entries(commands))("%s --help describes its options", (command, options) => {
    const run = helps.get(command)!;
    expect(run.code, show(run)).toBe(0);
    expect(run.stdout).toContain(`Usage: epicwar ${command} [options]`);
    for (const option of options) expect(run.stdout).toContain(option);
  });
});

describe("demo", () => {
  it("sets up the bundled example campaign and verifies it; run again in the same folder it adds nothing", async () => {
    const db = await freshDb("epicwar-cli-demo-");
    const setup = JSON.parse(await readFile(ASHFALL, "utf8")) as { campaign: string; name: string };

    const first = await cli(["demo", "--db", db]);
    expect(first.code, show(first)).toBe(0);
    expect(first.stderr).toBe("");
    expect(first.stdout).toContain(`Created campaign ${setup.campaign} "${setup.name}"`);
    const log = await logJson(db);
    const count = nonEmptyLines(log).length;
    expect(first.stdout).toContain(`${setup.campaign}: intact, ${count} events`);

    const second = await cli(["demo", "--db", db]);
    expect(second.code, show(second)).toBe(0);
    expect(second.stdout).not.toContain("Created campaign");
    expect(second.stdout).toContain(`${setup.campaign}: intact, ${count} events`);
    expect(await logJson(db)).toBe(log);
  });
});
