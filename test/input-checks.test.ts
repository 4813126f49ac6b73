/**
 * Bad input through the CLI (run in this process): every line is refused with a message naming the field or
 * the rule and what would be accepted, before anything is committed or any file is touched, and the log is left as it
 * was. A new user's slips (a BOM, an empty --db) are handled as the user would expect.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { cp } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { runInProcess, show, type Run } from "./support/cli.js";
import { scratchDir } from "./support/campaign-cli.js";

const EXAMPLES = fileURLToPath(new URL("../examples", import.meta.url));
const SETUP = join(EXAMPLES, "ashfall.setup.json");

/** A copy of a campaign created once, at turn 1 with initiative rolled (its winner drawn from real seeds). */
let created: string;
let choose: object;
/** The initiative winner's choice that concord opens, as `new`'s output names the winner. */
const chooseConcord = (output: string) => ({
  actor: /(\w+) wins$/m.exec(output)![1],
  type: "ChooseFirst",
  first: "concord",
});
beforeAll(async () => {
  created = join(await scratchDir("epicwar-input-"), "war");
  const made = await runInProcess(["new", "--db", created, "--setup", SETUP]);
  expect(made.code, show(made)).toBe(0);
  choose = chooseConcord(made.stdout);
}, 60_000);

async function freshCopy(): Promise<string> {
  const dir = join(await scratchDir("epicwar-input-"), "war");
  await cp(created, dir, { recursive: true });
  await cp(`${created}-secrets`, `${dir}-secrets`, { recursive: true });
  return dir;
}

const head = async (db: string) => (await runInProcess(["verify", "--db", db])).stdout;
const apply = (db: string, lines: object[], extra: string[] = []) =>
  runInProcess(["apply", "--db", db, ...extra, "-"], lines.map((l) => JSON.stringify(l)).join("\n"));
const activate = (fields: object) => ({ actor: "concord", type: "ActivateArmy", army: "c4", path: [], ...fields });

function expectRefusedUnchanged(run: Run, before: string, after: string, fragment: string): void {
  expect(run.code, show(run)).toBe(1);
  expect(run.stderr).toContain(fragment);
  expect(run.stderr).not.toContain("internal error");
  expect(after, "the log is as it was").toBe(before);
}

describe("T4 an order is checked before it is committed", () => {
  it("T4 T5 a misspelt order or a weak salt is refused, naming what is accepted, and nothing is logged or kept", async () => {
    const db = await freshCopy();
    expect((await apply(db, [choose])).code).toBe(0);
    const before = await head(db);
    for (const order of [7, "retreat", "CHARGE", "firstfire"]) {
      const run = await apply(db, [activate({ order })]);
      expect(run.code, show(run)).toBe(1);
      expect(run.stderr).toContain(
        `order: ${JSON.stringify(order)} is not an order (T4); write one of firstFire, advance, charge, fortify`,
      );
    }
    for (const salt of ["0".repeat(32), "ab", "A".repeat(32), "f".repeat(64)]) {
      const run = await apply(db, [activate({ order: "advance", salt })]);
      expect(run.code, show(run)).toBe(1);
      expect(run.stderr).toContain("salt: must be 32 to 128 lower-case hex characters");
    }
    expect(await head(db), "the log is as it was").toBe(before);
    const held = JSON.parse(readFileSync(join(`${db}-secrets`, "ashfall", "concord.json"), "utf8")) as {
      orders?: object;
    };
    expect(held.orders ?? {}, "no order kept for a refused line").toEqual({});
    const accepted = await apply(db, [activate({ order: "advance", salt: "0123456789abcdef0123456789abcdef" })]);
    expect(accepted.code, show(accepted)).toBe(0);
  });
});

describe("only seats name secrets files", () => {
  it("an actor that is not a seat is refused before any file is touched", async () => {
    const db = await freshCopy();
    const secrets = join(`${db}-secrets`, "ashfall");
    const filesBefore = readdirSync(secrets).sort();
    writeFileSync(
      join(db, "..", "leak.json"),
      JSON.stringify({ orders: { "1/c4": { order: "charge", salt: "ab".repeat(16) } } }),
    );
    const before = await head(db);
    const run = await apply(db, [{ actor: "../../leak", type: "RevealOrder", army: "c4" }]);
    expectRefusedUnchanged(
      run,
      before,
      await head(db),
      'refused: actor: "../../leak" is not a player of this campaign (a command is given by host, concord, horde)',
    );
    expect(readdirSync(secrets).sort()).toEqual(filesBefore);
  });

  it("a secrets folder that is not a folder is a clear refusal, not an internal error", async () => {
    const db = await freshCopy();
    expect((await apply(db, [choose])).code).toBe(0);
    const before = await head(db);
    const run = await apply(db, [activate({ order: "advance" })], ["--secrets", "/dev/null"]);
    expectRefusedUnchanged(run, before, await head(db), "/dev/null is not a folder");
  });
});

describe("the database folder", () => {
  // That nothing is written in the current folder is checked on the bin, in its own folder (test/cli-smoke.test.ts).
  it("an empty --db or EPICWAR_DB is refused", async () => {
    const empty = await runInProcess(["new", "--db", "", "--setup", SETUP]);
    expect(empty.code, show(empty)).toBe(1);
    expect(empty.stderr).toContain("--db needs a folder name");
    const fromEnv = await runInProcess(["new", "--setup", SETUP], "", { env: { EPICWAR_DB: "" } });
    expect(fromEnv.code, show(fromEnv)).toBe(1);
    expect(fromEnv.stderr).toContain("--db needs a folder name");
  });

  it("S3 a set-up refused by the rules leaves no folder behind", async () => {
    const dir = await scratchDir("epicwar-input-");
    const setup = JSON.parse(readFileSync(SETUP, "utf8")) as { catalogue: unknown; armies: Array<{ at: number[] }> };
    setup.catalogue = join(EXAMPLES, String(setup.catalogue));
    setup.armies[0]!.at = [999, 999];
    writeFileSync(join(dir, "refused.json"), JSON.stringify(setup));
    const run = await runInProcess(["new", "--db", join(dir, "war"), "--setup", join(dir, "refused.json")]);
    expect(run.code, show(run)).toBe(1);
    expect(run.stderr).toContain("armies[0].at");
    expect(readdirSync(dir)).toEqual(["refused.json"]);
  });

  it("a byte-order mark at the start of a commands file or a set-up file is accepted", async () => {
    const dir = await scratchDir("epicwar-input-");
    const setupWithBom = join(dir, "ashfall.setup.json");
    const setup = JSON.parse(readFileSync(SETUP, "utf8")) as { catalogue: unknown };
    setup.catalogue = join(EXAMPLES, String(setup.catalogue));
    writeFileSync(setupWithBom, `\ufeff${JSON.stringify(setup)}`);
    const made = await runInProcess(["new", "--db", join(dir, "war"), "--setup", setupWithBom]);
    expect(made.code, show(made)).toBe(0);
    writeFileSync(join(dir, "orders.jsonl"), `\ufeff${JSON.stringify(chooseConcord(made.stdout))}\n`);
    const applied = await runInProcess(["apply", "--db", join(dir, "war"), join(dir, "orders.jsonl")]);
    expect(applied.code, show(applied)).toBe(0);
    expect(applied.stdout).toMatch(/\w+ chooses concord to activate first/);
  });
});

describe("what a refusal says it would accept", () => {
  it("T4 an ActivateArmy with no order, and a RevealOrder with a misspelt one, name the order and its spellings", async () => {
    const db = await freshCopy();
    expect((await apply(db, [choose])).code).toBe(0);
    const before = await head(db);
    const noOrder = await apply(db, [activate({})]);
    expect(noOrder.stderr).toContain("order: is required (T4); write one of firstFire, advance, charge, fortify");
    const misspelt = await apply(db, [{ actor: "concord", type: "RevealOrder", army: "c4", order: "x" }]);
    expect(misspelt.stderr).toContain('order: "x" is not an order (T4)');
    expect(await head(db)).toBe(before);
  });

  it("D1 a seed commitment that is not a SHA-256 says so; an actor who is not a player is told who the players are", async () => {
    const db = await freshCopy();
    const badHash = await apply(db, [{ actor: "concord", type: "CommitSeed", seedHash: "00" }]);
    expect(badHash.stderr).toContain("seedHash: must be a SHA-256: 64 lower-case hex characters");
    const host = await apply(db, [activate({ actor: "host", order: "advance" })]);
    expect(host.stderr).toContain('"host" is not a player of this campaign (the players are concord, horde)');
  });
});

describe("the secrets folder and the party acted for", () => {
  it("an empty --secrets or --as is refused, and an --as that is no party of the campaign", async () => {
    const db = await freshCopy();
    const cwd = await scratchDir("epicwar-input-cwd-");
    const line = [activate({ order: "advance" })];
    expect((await apply(db, line, ["--secrets", ""])).stderr).toContain("--secrets needs a folder name");
    expect((await apply(db, line, ["--as", ""])).stderr).toContain("--as needs a party");
    const stranger = await apply(db, [], ["--as", "../../leak"]);
    expect(stranger.code, show(stranger)).toBe(1);
    expect(stranger.stderr).toContain('--as "../../leak" is not a party of ashfall: give one of host, concord, horde');
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("D1 T5 a second log of the same campaign id given the first one's secrets folder is refused, and the first one's secrets stay", async () => {
    const first = await freshCopy();
    const hostFile = join(`${first}-secrets`, "ashfall", "host.json");
    const kept = readFileSync(hostFile, "utf8");
    const second = join(await scratchDir("epicwar-input-"), "other");
    const run = await runInProcess(["new", "--db", second, "--setup", SETUP, "--secrets", `${first}-secrets`]);
    expect(run.code, show(run)).toBe(1);
    expect(run.stderr).toContain("holds the secrets of another ashfall log");
    expect(readFileSync(hostFile, "utf8")).toBe(kept);
  });
});

describe("a refused set-up in a folder the user made", () => {
  it("S3 leaves the folder as it was: no database files among the user's own", async () => {
    const dir = await scratchDir("epicwar-input-");
    writeFileSync(join(dir, "notes.txt"), "mine");
    const setup = JSON.parse(readFileSync(SETUP, "utf8")) as { catalogue: unknown; armies: Array<{ at: number[] }> };
    setup.catalogue = join(EXAMPLES, String(setup.catalogue));
    setup.armies[0]!.at = [999, 999];
    const setupFile = join(await scratchDir("epicwar-input-"), "refused.json");
    writeFileSync(setupFile, JSON.stringify(setup));
    const run = await runInProcess(["new", "--db", dir, "--setup", setupFile]);
    expect(run.code, show(run)).toBe(1);
    expect(readdirSync(dir)).toEqual(["notes.txt"]);
  });
});
