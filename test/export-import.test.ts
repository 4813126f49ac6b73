/**
 * Export and import (docs/storage.md, "Export files"): a campaign and its branches written as JSON Lines with the stored
 * bytes, and read back into another folder only when the whole file holds.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogue, GENESIS_HASH } from "../events/index.js";
import { auditStream } from "../replays/audit-load.js";
import { createBranch } from "../replays/branches.js";
import { exportPlan } from "../replays/export-plan.js";
import { PHASES } from "../replays/positions.js";
import { Replays } from "../replays/replayer.js";
import { Engine } from "../src/engine/engine.js";
import { exportLines } from "../src/log/export-file.js";
import { checkBlock, checkExport, ImportError } from "../src/log/import-file.js";
import { checkExportFile, checkExportPieces } from "../src/log/import-threads.js";
import { sha256Hex } from "../src/log/index.js";
import { BranchError } from "../src/log/errors.js";
import { CAMPAIGN, CLOCK, playAshfall, rawStream, secretsDirOf } from "./replays-support.js";
import { FileSecrets } from "../src/client/secrets.js";
import { runInProcess } from "./support/cli.js";
import { tempDir } from "./support/tmp.js";

/** Plays Ashfall for `turns` turns with its own dice (`label`) and forks branches from it: the folder, closed. */
async function campaignWithBranches(
  label: string,
  turns: number,
  forks: readonly number[],
  dir?: string,
): Promise<string> {
  const db = join(dir ?? (await tempDir("epicwar-export-")), "db");
  const engine = await Engine.open(db, { sync: false, clock: CLOCK });
  try {
    await playAshfall(engine, db, turns, label);
    const replays = new Replays(engine.store);
    let parent = CAMPAIGN;
    for (const [index, turn] of forks.entries()) {
      const head = (await engine.store.head(parent)).seq;
      // Every other branch forks from the branch before it, a few events before that one's fork.
      const reached = (await engine.state(CAMPAIGN)).turn;
      const from = index % 2 === 0 ? { turn: Math.min(turn, reached) } : { seq: Math.max(1, head - turn * 7) };
      const created = await createBranch(engine, replays, {
        campaign: CAMPAIGN,
        parent,
        from,
        name: `b${index}`,
        secrets: {
          parent: new FileSecrets(secretsDirOf(db), parent),
          branch: new FileSecrets(secretsDirOf(db), `${CAMPAIGN}.b${index}`),
        },
      });
      parent = index % 2 === 0 ? created.meta.stream : CAMPAIGN;
    }
  } finally {
    await engine.close();
  }
  return db;
}

async function exportOf(db: string, stream = CAMPAIGN): Promise<string[]> {
  const engine = await Engine.open(db, { createIfMissing: false });
  try {
    const lines: string[] = [];
    for await (const line of exportLines(engine.store, await exportPlan(engine.store, stream))) lines.push(line);
    return lines;
  } finally {
    await engine.close();
  }
}

async function* each(lines: readonly string[]) {
  yield* lines;
}

/**
 * The lines checked as an import of a large file checks them (import-threads.ts), the work of its threads done here:
 * the header, then parts of `size` lines, each part's event lines checked by themselves (checkBlock), its pieces then
 * in order.
 */
function checkInBlocks(lines: readonly string[], size: number) {
  const parts = Math.ceil((lines.length - 1) / size);
  const part = (index: number) => lines.slice(1 + index * size, 1 + (index + 1) * size);
  return checkExportPieces(lines[0], parts, async (index) => checkBlock(part(index), catalogue), catalogue, 3);
}

/** Checks lines both ways, one line at a time and in blocks of a few lines: the same result or the same error. */
async function checkBothWays(lines: readonly string[]) {
  const [alone, inBlocks] = await Promise.allSettled([checkExport(each(lines), catalogue), checkInBlocks(lines, 7)]);
  expect(inBlocks).toEqual(alone);
  const error = alone.status === "rejected" ? (alone.reason as unknown) : undefined;
  if (error instanceof ImportError && inBlocks.status === "rejected")
    expect([inBlocks.reason.line, inBlocks.reason.broken]).toEqual([error.line, error.broken]);
  if (alone.status === "rejected") throw alone.reason;
  return alone.value;
}

/** Imports lines into a new folder: the folder. */
async function importInto(lines: readonly string[], db?: string): Promise<string> {
  const checked = await checkBothWays(lines);
  const target = db ?? join(await tempDir("epicwar-import-"), "db");
  const engine = await Engine.open(target);
  try {
    await engine.store.importStreams(checked.streams);
  } finally {
    await engine.close();
  }
  return target;
}

/** The ImportError a file is refused with. */
async function refusal(lines: readonly string[]): Promise<ImportError> {
  const error = await checkBothWays(lines).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ImportError)) throw new Error(`expected an ImportError, got ${String(error)}`);
  return error;
}

type Line = Record<string, unknown>;
const parse = (line: string) => JSON.parse(line) as Line;

/**
 * A forger's edit: changes the event on line `index` (1-based) and recomputes every hash and link from there to the
 * end, heads and header included, so that only what the chain cannot vouch for is left to find.
 */
function rechained(lines: readonly string[], index: number, edit: (body: Line) => void): string[] {
  const out = lines.map(parse);
  const hashes = new Map<string, Map<number, string>>();
  let prev = GENESIS_HASH;
  for (const [i, line] of out.entries()) {
    if (line["kind"] === "branch") {
      line["forkHash"] = prev = hashes.get(line["parent"] as string)!.get(line["forkSeq"] as number)!;
      hashes.set(line["stream"] as string, new Map([[line["forkSeq"] as number, prev]]));
    }
    if (line["kind"] === "event") {
      if ((line["seq"] as number) === 1) prev = GENESIS_HASH;
      const body = JSON.parse(line["body"] as string) as Line;
      if (i + 1 === index) edit(body);
      body["prev"] = prev;
      line["body"] = JSON.stringify(body);
      line["hash"] = prev = sha256Hex(line["body"] as string);
      const stream = hashes.get(line["stream"] as string) ?? new Map<number, string>();
      hashes.set(line["stream"] as string, stream.set(line["seq"] as number, prev));
    }
    if (line["kind"] === "head") line["hash"] = hashes.get(line["stream"] as string)?.get(line["seq"] as number);
  }
  const header = out[0]!;
  const head = header["head"] as { seq: number };
  header["head"] = { seq: head.seq, hash: hashes.get(header["stream"] as string)!.get(head.seq) };
  return out.map((line) => JSON.stringify(line));
}

describe("export and import: a round trip", () => {
  it("any campaign with its branches comes back with the same head hashes, the same state at every turn and phase, and a clean audit", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(10_000),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.integer({ min: 1, max: 2 }), { maxLength: 3 }),
        async (seed, turns, forks) => {
          const source = await campaignWithBranches(`export-${seed}`, turns, forks);
          const lines = await exportOf(source);
          const target = await importInto(lines);
          const [from, to] = [await Engine.open(source), await Engine.open(target)];
          try {
            const streams = (parse(lines[0]!)["streams"] as string[]).sort();
            expect(streams).toHaveLength(1 + forks.length);
            expect((await to.store.streams()).sort()).toEqual(streams);
            const [before, after] = [new Replays(from.store), new Replays(to.store)];
            for (const stream of streams) {
              expect(await to.store.head(stream)).toEqual(await from.store.head(stream));
              expect(await to.store.branch(stream)).toEqual(await from.store.branch(stream));
              const last = (await from.state(stream)).turn;
              for (let turn = 1; turn <= last; turn++)
                for (const phase of PHASES) {
                  const position = { turn, phase };
                  const seq = await before.resolve(stream, position).catch(() => undefined);
                  if (seq === undefined) continue;
                  expect(await after.resolve(stream, position)).toBe(seq);
                  expect((await after.stateAtSeq(stream, seq)).state).toEqual(
                    (await before.stateAtSeq(stream, seq)).state,
                  );
                }
            }
            const audit = await auditStream(to.store, CAMPAIGN);
            expect(audit.findings).toEqual([]);
            expect(audit.chain.ok).toBe(true);
          } finally {
            await Promise.all([from.close(), to.close()]);
          }
          expect(await rawStream(target, CAMPAIGN)).toEqual(await rawStream(source, CAMPAIGN));
        },
      ),
      { numRuns: 4 },
    );
  });

  it("a branch's export holds the campaign and the branches it descends from, and is imported with them", async () => {
    // b0 forks from the campaign, b1 from b0, b2 from the campaign: b1's export leaves b2 out.
    const source = await campaignWithBranches("export-branch", 2, [1, 1, 1]);
    const lines = await exportOf(source, `${CAMPAIGN}.b1`);
    const header = parse(lines[0]!);
    expect(header).toMatchObject({ campaign: CAMPAIGN, line: "b1", stream: `${CAMPAIGN}.b1` });
    expect(header["streams"]).toEqual([CAMPAIGN, `${CAMPAIGN}.b0`, `${CAMPAIGN}.b1`]);
    const target = await importInto(lines);
    const imported = await Engine.open(target);
    try {
      expect(await imported.store.head(`${CAMPAIGN}.b1`)).toEqual(header["head"]);
      expect((await imported.store.streams()).sort()).toEqual([CAMPAIGN, `${CAMPAIGN}.b0`, `${CAMPAIGN}.b1`]);
    } finally {
      await imported.close();
    }
  });
});

describe("import refuses a file that does not hold, naming its first bad line, and writes nothing", () => {
  let lines: string[];
  beforeAll(async () => {
    lines = await exportOf(await campaignWithBranches("export-tamper", 2, [1]));
  });
  const eventLine = (at: number) =>
    lines.findIndex((line) => parse(line)["seq"] === at && parse(line)["kind"] === "event");

  it("on threads, as an import of a large file checks it: the same result, and the same error for the same edit", async () => {
    const dir = await tempDir("epicwar-threads-");
    const onThreads = async (file: string, written: readonly string[], threads: number) => {
      await writeFile(file, written.join("\n") + "\n", "utf8");
      return checkExportFile(file, catalogue, { threads, rangeBytes: 4096 }).catch((error: unknown) => error);
    };
    expect(await onThreads(join(dir, "good.jsonl"), lines, 2)).toEqual(await checkExport(each(lines), catalogue));
    const i = eventLine(25);
    const edited = [...lines];
    edited[i] = edited[i]!.replace('\\"actor\\":\\"', '\\"actor\\":\\"x');
    const error = (await onThreads(join(dir, "edited.jsonl"), edited, 1)) as ImportError;
    expect(error).toBeInstanceOf(ImportError);
    expect([error.line, error.message]).toEqual([i + 1, (await refusal(edited)).message]);
  });

  it("an edited body, whatever its hash says", async () => {
    const i = eventLine(20);
    const edited = [...lines];
    edited[i] = edited[i]!.replace('\\"actor\\":\\"', '\\"actor\\":\\"x');
    const error = await refusal(edited);
    expect([error.line, error.broken]).toEqual([i + 1, true]);
    expect(error.message).toMatch(/event ashfall #20 does not match its hash/);
  });

  it("an event removed, two swapped, and an event rewritten with its own hash recomputed", async () => {
    const i = eventLine(30);
    const removed = lines.filter((_, index) => index !== i);
    expect((await refusal(removed)).message).toBe(`line ${i + 1}: event ashfall #30 is missing: the line is #31`);
    const swapped = [...lines];
    [swapped[i], swapped[i + 1]] = [swapped[i + 1]!, swapped[i]!];
    expect((await refusal(swapped)).line).toBe(i + 1);
    const rehashed = [...lines];
    const line = parse(rehashed[i]!);
    line["body"] = (line["body"] as string).replace('"actor":"', '"actor":"x');
    line["hash"] = sha256Hex(line["body"] as string);
    rehashed[i] = JSON.stringify(line);
    const error = await refusal(rehashed);
    expect(error.message).toBe(`line ${i + 2}: event ashfall #31 does not link to the event before it`);
    expect(error.broken).toBe(true);
    // A body of JSON that is no object (null, a number), its hash made to match.
    for (const body of ["null", "7"]) {
      const odd = [...lines];
      odd[i] = JSON.stringify({ ...parse(lines[i]!), body, hash: sha256Hex(body) });
      expect((await refusal(odd)).message).toBe(
        `line ${i + 1}: event ashfall #30 has a body that is not a JSON object`,
      );
    }
  });

  it("a rechained log whose events the catalogue refuses: an unknown type, a version from the future, bad data", async () => {
    const i = eventLine(12);
    const unknown = await refusal(rechained(lines, i + 1, (body) => (body["type"] = "ArmyTeleported")));
    expect(unknown.message).toBe(`line ${i + 1}: event ashfall #12: type unknown event type "ArmyTeleported"`);
    expect(unknown.broken).toBe(false);
    const future = await refusal(rechained(lines, i + 1, (body) => (body["version"] = 99)));
    expect(future.message).toMatch(
      new RegExp(`^line ${i + 1}: event ashfall #12: version \\w+ has versions 1 to \\d+ in this engine, not 99$`),
    );
    const data = await refusal(rechained(lines, i + 1, (body) => ((body["data"] as Line)["turn"] = "soon")));
    expect(data.line).toBe(i + 1);
    expect(data.message).toMatch(/data/);
    // The forger's file with nothing edited is a good one: what was refused above was only the edit.
    await expect(checkExport(each(rechained(lines, i + 1, () => {})), catalogue)).resolves.toBeDefined();
  });

  it("a rechained log whose envelope has a member beyond the documented ones, or a signed command of another shape", async () => {
    const i = eventLine(12);
    const extra = await refusal(rechained(lines, i + 1, (body) => (body["note"] = "added by hand")));
    expect(extra.message).toBe(
      `line ${i + 1}: event ashfall #12: note: not a member of an envelope (docs/storage.md: stream, seq, type, version, at, actor, command, data, prev)`,
    );
    expect(extra.broken).toBe(false);
    const command = await refusal(rechained(lines, i + 1, (body) => (body["command"] = { signed: "{}" })));
    expect(command.message).toMatch(new RegExp(`^line ${i + 1}: event ashfall #12: event\\.command\\.signature `));
  });

  it("heads that do not match, and a file cut short", async () => {
    const headIndex = lines.findIndex((line) => parse(line)["kind"] === "head");
    const wrongHead = [...lines];
    wrongHead[headIndex] = JSON.stringify({ ...parse(lines[headIndex]!), seq: 3 });
    expect((await refusal(wrongHead)).line).toBe(headIndex + 1);
    const header = parse(lines[0]!);
    const wrongHeader = [JSON.stringify({ ...header, head: { seq: 1, hash: GENESIS_HASH } }), ...lines.slice(1)];
    expect((await refusal(wrongHeader)).message).toMatch(/^line 1: the header's head/);
    const cut = lines.slice(0, lines.length - 5);
    const error = await refusal(cut);
    expect([error.line, error.broken]).toEqual([cut.length + 1, true]);
    expect(error.message).toMatch(/ends before ashfall\.b0 is complete/);
  });

  it("a branch whose fork does not match its parent", async () => {
    const i = lines.findIndex((line) => parse(line)["kind"] === "branch");
    const forged = [...lines];
    forged[i] = JSON.stringify({ ...parse(lines[i]!), forkHash: "f".repeat(64) });
    expect((await refusal(forged)).message).toBe(
      `line ${i + 1}: ashfall.b0's forkHash is not the hash of ashfall's event ${parse(lines[i]!)["forkSeq"] as number}`,
    );
  });

  it("files that are no export: a raw log, a seat's view, not JSON, empty", async () => {
    const raw = [lines[1]!, ...lines.slice(2)];
    expect((await refusal(raw)).message).toMatch(/^line 1: this is a raw log \(epicwar log --raw\), not an export/);
    const view = [JSON.stringify({ ...parse(lines[0]!), view: "concord" })];
    expect((await refusal(view)).message).toMatch(/^line 1: this file is "concord"'s view/);
    expect((await refusal([lines[0]!, "{not json"])).message).toBe("line 2: is not a line of JSON");
    expect((await refusal([])).message).toMatch(/^line 1: the file is empty/);
  });

  it("a campaign already in the folder: refused, and the folder left exactly as it was", async () => {
    const target = await importInto(lines);
    const before = await rawStream(target, CAMPAIGN);
    const engine = await Engine.open(target);
    try {
      const checked = await checkExport(each(lines), catalogue);
      await expect(engine.store.importStreams(checked.streams)).rejects.toThrow(
        new BranchError("ashfall already exists in this log"),
      );
      // A second campaign in the file's place only by its branch's name is refused too.
      await expect(engine.store.importStreams(checked.streams.slice(1))).rejects.toThrow(/ashfall\.b0 already exists/);
    } finally {
      await engine.close();
    }
    expect(await rawStream(target, CAMPAIGN)).toEqual(before);
  });
});

describe("epicwar export and import", () => {
  let db: string;
  // One campaign for every test here: a folder of its own, which outlives each test.
  beforeAll(async () => {
    db = await campaignWithBranches("export-cli", 3, [2], await mkdtemp(join(tmpdir(), "epicwar-export-cli-")));
  });
  afterAll(() => rm(dirname(db), { recursive: true, force: true }));

  it("export writes the file import reads; a second import into the same folder is refused and changes nothing", async () => {
    const dir = await tempDir("epicwar-export-cli-");
    const file = join(dir, "ashfall.jsonl");
    const written = await runInProcess(["export", "--db", db, "--out", file]);
    expect(written.code, written.stderr).toBe(0);
    const printed = await runInProcess(["export", "--db", db]);
    expect(printed.stdout).toBe(await readFile(file, "utf8"));
    const copy = join(dir, "copy");
    const imported = await runInProcess(["import", file, "--db", copy]);
    expect(imported.code, imported.stderr).toBe(0);
    const head = parse(printed.stdout.split("\n")[0]!)["head"] as { seq: number; hash: string };
    expect(imported.stdout).toBe(
      `imported ashfall into ${copy}: ${printed.stdout.split("\n").filter((l) => l.includes('"kind":"event"')).length} events, ashfall at #${head.seq} ${head.hash.slice(0, 16)}, with its branches b0; its chain was checked in full\n`,
    );
    const verified = await runInProcess(["verify", "--db", copy]);
    expect(verified.stdout).toContain(`ashfall: intact, ${head.seq} events, head ${head.hash.slice(0, 16)}`);
    const before = await rawStream(copy, CAMPAIGN);
    const again = await runInProcess(["import", file, "--db", copy]);
    expect([again.code, again.stderr]).toEqual([
      1,
      `epicwar: ashfall already exists in this log (${copy}): an import never writes over a campaign or a branch; nothing was written (import into another --db)\n`,
    ]);
    expect(await rawStream(copy, CAMPAIGN)).toEqual(before);
  });

  it("a file that does not hold exits 2 naming its line, and no folder is made", async () => {
    const dir = await tempDir("epicwar-export-cli-");
    const file = join(dir, "edited.jsonl");
    const lines = (await runInProcess(["export", "--db", db])).stdout.split("\n");
    lines[9] = lines[9]!.replace('\\"actor\\":\\"', '\\"actor\\":\\"x');
    await writeFile(file, lines.join("\n"));
    const target = join(dir, "never");
    const refused = await runInProcess(["import", file, "--db", target]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `epicwar: ${file} line 10: event ashfall #9 does not match its hash: its body was changed; nothing was written (the file's chain does not hold: it was changed or cut short)\n`,
    );
    expect(existsSync(target)).toBe(false);
    const missing = await runInProcess(["import", join(dir, "nothing.jsonl"), "--db", target]);
    expect([missing.code, missing.stderr]).toEqual([
      1,
      `epicwar: cannot read ${join(dir, "nothing.jsonl")} (ENOENT): give the path of a file written by epicwar export\n`,
    ]);
  });

  it("--as exports a seat's view, marked as one, with no hash and no other side's secret; import refuses it", async () => {
    const view = (await runInProcess(["export", "--db", db, "--as", "concord"])).stdout.trim().split("\n").map(parse);
    expect(view[0]).toMatchObject({ kind: "epicwar-export", view: "concord", campaign: CAMPAIGN, line: "main" });
    const events = view.slice(1);
    expect(events.length).toBe(view[0]!["seq"]);
    for (const event of events) expect(Object.keys(event)).not.toContain("hash");
    const whole = (await runInProcess(["log", "--db", db, "--json", "--as", "concord"])).stdout.trim().split("\n");
    expect(events.map((event) => JSON.stringify(event))).toEqual(whole);
    const file = join(await tempDir("epicwar-view-"), "view.jsonl");
    await runInProcess(["export", "--db", db, "--as", "concord", "--out", file]);
    const refused = await runInProcess(["import", file, "--db", join(dirname(file), "db")]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/line 1: this file is "concord"'s view of the campaign \(exported with --as\)/);
  });

  it("--maps writes one SVG per turn: the map where its Battle phase began, as `map --turn N --phase battle` draws it", async () => {
    const maps = join(await tempDir("epicwar-maps-"), "maps");
    const run = await runInProcess(["export", "--db", db, "--as", "horde", "--maps", maps]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("");
    const files = (await readdir(maps)).sort();
    // Three turns played, the fourth begun: three battle phases, and the fourth turn as it is now.
    expect(files).toEqual(["turn-001.svg", "turn-002.svg", "turn-003.svg", "turn-004.svg"]);
    for (const [index, name] of files.entries()) {
      const at = index < 3 ? ["--turn", String(index + 1), "--phase", "battle"] : [];
      const drawn = await runInProcess(["map", "--db", db, "--as", "horde", ...at]);
      expect(await readFile(join(maps, name), "utf8")).toBe(drawn.stdout);
    }
  });
});
