/**
 * Every reader of a log changed outside epicwar says which seq is broken and fails as verify does (a CorruptEventError
 * in the engine, exit 2 from the CLI), never with an internal error, a hang or a write; and a campaign whose head was
 * deleted is neither hidden nor overwritten. On Ashfall played to its end, copied and edited through LevelDB directly.
 * The CLI runs in this process (src/cli/run.ts).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { StoredEvent } from "../events/index.js";
import { Engine } from "../src/engine/engine.js";
import { CorruptEventError } from "../src/log/index.js";
import { createBranch } from "../replays/branches.js";
import { Replays } from "../replays/replayer.js";
import {
  ASHFALL,
  CAMPAIGN,
  cli,
  copyOf,
  openRaw,
  rawKey,
  rawStream,
  show,
  usePlayedAshfall,
  type Run,
} from "./replays-support.js";
import { writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

const ashfall = usePlayedAshfall();

type Raw = Awaited<ReturnType<typeof openRaw>>;

/** The seq of c1's registration; its deployment is the event after it. */
const registered = (events: readonly StoredEvent[]) =>
  events.find((e) => e.type === "ArmyRegistered" && (e.data as { army?: string }).army === "c1")!.seq;

/**
 * Three edits, each of which makes the reducers throw when the log is folded as it reads (an army deployed before or
 * without its registration), and the seq verify names for each.
 */
const tamperings: Record<
  string,
  {
    broken: (events: readonly StoredEvent[]) => number;
    edit: (raw: Raw, events: readonly StoredEvent[]) => Promise<void>;
  }
> = {
  "an event deleted": {
    broken: registered,
    edit: (raw, events) => raw.events.del(rawKey(CAMPAIGN, registered(events))),
  },
  "two events swapped": {
    broken: registered,
    edit: async (raw, events) => {
      const seq = registered(events);
      const [a, b] = [await raw.events.get(rawKey(CAMPAIGN, seq)), await raw.events.get(rawKey(CAMPAIGN, seq + 1))];
      await raw.events.batch([
        { type: "put", key: rawKey(CAMPAIGN, seq), value: b! },
        { type: "put", key: rawKey(CAMPAIGN, seq + 1), value: a! },
      ]);
    },
  },
  "a body edited (the army deployed renamed), its hash left as it was": {
    broken: (events) => registered(events) + 1,
    edit: async (raw, events) => {
      const key = rawKey(CAMPAIGN, registered(events) + 1);
      const value = (await raw.events.get(key))!;
      const edited = value.replace('"army":"c1"', '"army":"zz"');
      expect(edited).not.toBe(value);
      await raw.events.put(key, edited);
    },
  },
};

/**
 * A copy of the played folder with a branch "what-if" forked where turn 1 ends (after the edited events), then edited.
 * Forked where nothing is open, the branch has no event of its own, and no snapshot is recorded that a read could
 * start from past the edit.
 */
async function brokenCopy(edit: (raw: Raw) => Promise<void>): Promise<string> {
  const db = await copyOf(ashfall.played);
  const engine = await Engine.open(db, { createIfMissing: false, sync: false });
  const turnOneEnded = ashfall.events.find((e) => e.type === "TurnEnded")!.seq;
  try {
    await createBranch(engine, new Replays(engine.store, { snapshots: false }), {
      campaign: CAMPAIGN,
      parent: CAMPAIGN,
      from: { seq: turnOneEnded },
      name: "what-if",
    });
  } finally {
    await engine.close();
  }
  const raw = await openRaw(db);
  try {
    await edit(raw);
  } finally {
    await raw.level.close();
  }
  return db;
}

describe("the engine and the replays on a broken log", () => {
  for (const [name, { broken, edit }] of Object.entries(tamperings)) {
    it(`${name}: the state now, of a branch, at a seq and at a turn fail with a CorruptEventError naming the broken seq`, async () => {
      const seq = broken(ashfall.events);
      const db = await brokenCopy((raw) => edit(raw, ashfall.events));
      const engine = await Engine.open(db, { createIfMissing: false });
      ashfall.open.push(engine);
      const replays = new Replays(engine.store);
      const expected = { name: "CorruptEventError", stream: CAMPAIGN, seq };
      await expect(engine.state(CAMPAIGN)).rejects.toMatchObject(expected);
      await expect(engine.state(`${CAMPAIGN}.what-if`)).rejects.toMatchObject(expected);
      await expect(replays.stateAt(CAMPAIGN, { seq: ashfall.events.length })).rejects.toMatchObject(expected);
      await expect(replays.stateAt(CAMPAIGN, { turn: 2 })).rejects.toMatchObject(expected);
    });
  }

  it("a tail cut off: the state fails at the first missing seq instead of waiting for it", async () => {
    const last = ashfall.events.length;
    const db = await brokenCopy((raw) => raw.events.del(rawKey(CAMPAIGN, last)));
    const engine = await Engine.open(db, { createIfMissing: false });
    ashfall.open.push(engine);
    const error = await engine.state(CAMPAIGN).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(CorruptEventError);
    expect(error).toMatchObject({ seq: last });
    await expect(new Replays(engine.store).stateAt(CAMPAIGN, { seq: last })).rejects.toMatchObject({
      name: "CorruptEventError",
      seq: last,
    });
  });

  it("an intact copy reads as before: the checks cost a broken log only", async () => {
    const db = await brokenCopy(async () => undefined);
    const engine = await Engine.open(db, { createIfMissing: false });
    ashfall.open.push(engine);
    expect((await engine.state(CAMPAIGN)).seq).toBe(ashfall.events.length);
    expect((await new Replays(engine.store).stateAt(CAMPAIGN, { turn: 2 })).state.turn).toBe(2);
  });
});

/** Every command that reads a campaign's log, with what it needs; `seq` is the broken seq (state --seq goes past it). */
const readers = (seq: number, commands: string): Record<string, string[]> => ({
  state: ["state"],
  "state --json": ["state", "--json"],
  "state --turn": ["state", "--turn", "2"],
  "state --seq": ["state", "--seq", String(seq + 5)],
  "state --branch": ["state", "--branch", "what-if"],
  log: ["log"],
  "log --json": ["log", "--json"],
  timeline: ["timeline"],
  audit: ["audit"],
  diff: ["diff", "main", "what-if"],
  branch: ["branch", "--from-turn", "2", "--name", "other"],
  branches: ["branches"],
  apply: ["apply", commands],
});

describe("every reader of a broken log, through the CLI, exits 2 naming the broken seq", () => {
  const runs = new Map<
    string,
    {
      run: Run;
      seq: number;
      before: Awaited<ReturnType<typeof rawStream>>;
      after: Awaited<ReturnType<typeof rawStream>>;
    }
  >();

  // Everything runs here: the copies are removed after the first test.
  beforeAll(async () => {
    const tasks: Array<() => Promise<void>> = [];
    for (const [name, { broken, edit }] of Object.entries(tamperings)) {
      const seq = broken(ashfall.events);
      const db = await brokenCopy((raw) => edit(raw, ashfall.events));
      const commands = join(dirname(db), "commands.jsonl");
      await writeFile(commands, `${JSON.stringify({ actor: "host", type: "StartTurn" })}\n`);
      for (const [reader, args] of Object.entries(readers(seq, commands))) {
        tasks.push(async () => {
          // Each run on its own copy: the readers that would write (apply, branch) must not see another's writes.
          const own = await copyOf(db);
          const before = await rawStream(own, CAMPAIGN);
          const run = await cli([...args, "--db", own]);
          runs.set(`${name} / ${reader}`, { run, seq, before, after: await rawStream(own, CAMPAIGN) });
        });
      }
    }
    // Two at a time: the machine's cores are shared.
    for (let i = 0; i < tasks.length; i += 2) await Promise.all(tasks.slice(i, i + 2).map((task) => task()));
  }, 300_000);

  for (const name of Object.keys(tamperings)) {
    for (const reader of Object.keys(readers(0, ""))) {
      it(`${name}: ${reader}`, () => {
        const { run, seq, before, after } = runs.get(`${name} / ${reader}`)!;
        expect(run.code, show(run)).toBe(2);
        expect(run.stderr).not.toContain("internal error");
        expect(run.stderr, show(run)).toMatch(new RegExp(`\\b(seq|event) ${seq}\\b`));
        // Nothing was written to the campaign's log.
        expect(after).toEqual(before);
      });
    }
  }
});

describe("a campaign whose head was deleted", () => {
  let before: Awaited<ReturnType<typeof rawStream>>;
  let after: Awaited<ReturnType<typeof rawStream>>;
  const runs: Record<string, Run> = {};

  // Everything runs here: the copies are removed after the first test.
  beforeAll(async () => {
    const db = await brokenCopy((raw) => raw.heads.del(CAMPAIGN));
    before = await rawStream(db, CAMPAIGN);
    expect(before.head).toBeUndefined();
    const commands = join(dirname(db), "commands.jsonl");
    await writeFile(commands, `${JSON.stringify({ actor: "host", type: "StartTurn" })}\n`);
    const cases: Record<string, string[]> = {
      verify: ["verify"],
      new: ["new", "--setup", ASHFALL],
      state: ["state", "--campaign", CAMPAIGN],
      "state --seq": ["state", "--campaign", CAMPAIGN, "--seq", "30"],
      apply: ["apply", commands, "--campaign", CAMPAIGN],
    };
    // One after another on the same folder: `new` and `apply` must write nothing for the others to see.
    for (const [name, args] of Object.entries(cases)) runs[name] = await cli([...args, "--db", db]);
    after = await rawStream(db, CAMPAIGN);
  }, 120_000);

  it("is still found by verify, which reports the head as truncated at seq 1", () => {
    expect(runs["verify"]!.code, show(runs["verify"]!)).toBe(2);
    expect(runs["verify"]!.stderr).toContain(
      "ashfall: chain broken at seq 1 (head): the head is missing (truncated to nothing)",
    );
  });

  it("is not overwritten by a new campaign of the same id, nor by apply: refused naming seq 1, nothing written", () => {
    expect(runs["new"]!.code, show(runs["new"]!)).toBe(2);
    expect(runs["new"]!.stderr).toContain("event 1 of ashfall is already stored although the head counts 0 events");
    expect(after).toEqual(before);
  });

  it("makes state, state --seq and apply exit 2 naming seq 1", () => {
    for (const name of ["state", "state --seq", "apply"]) {
      expect(runs[name]!.code, `${name}: ${show(runs[name]!)}`).toBe(2);
      expect(runs[name]!.stderr, name).toMatch(/\b(seq|event) 1\b/);
      expect(runs[name]!.stderr, name).not.toContain("internal error");
    }
  });
});
