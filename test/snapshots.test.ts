/**
 * Snapshots (replays/snapshots.ts): a rebuildable cache of states in the "snapshots" sublevel, used only when stamped
 * with this engine's reducer version and with the chain hash of the event at their seq. On a real LevelDB with a
 * campaign played by the demo's commanders.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CampaignState } from "../projections/state.js";
import { Engine } from "../src/engine/engine.js";
import { verifyStream } from "../src/log/index.js";
import { Replays } from "../replays/replayer.js";
import {
  encodeSnapshot,
  isSnapshotPoint,
  REDUCER_VERSION,
  SNAPSHOT_EVERY,
  splitSnapshot,
  withinBudget,
  type SnapshotHeader,
} from "../replays/snapshots.js";
import { CAMPAIGN, cli, copyOf, foldTo, openRaw, rawKey, show, usePlayedAshfall } from "./replays-support.js";

const ashfall = usePlayedAshfall();
const { openCopy } = ashfall;

const turnEnds = () => ashfall.events.filter((e) => e.type === "TurnEnded").map((e) => e.seq);
/** The ends of turns and of Action phases: where the schedule takes a snapshot besides every SNAPSHOT_EVERY events. */
const phaseSnapshotSeqs = () =>
  ashfall.events.filter((e) => e.type === "TurnEnded" || e.type === "ActionPhaseEnded").map((e) => e.seq);
const stored = (header: SnapshotHeader, state: CampaignState) => encodeSnapshot(header, state);
const headerAt = (seq: number, state = foldTo(ashfall.events, seq)): SnapshotHeader => ({
  v: REDUCER_VERSION,
  stream: CAMPAIGN,
  seq,
  hash: ashfall.events[seq - 1]!.hash,
  turn: state.turn,
  phase: state.phase,
});

describe("snapshots", () => {
  it("a state from any snapshot and the events after it equals the full replay", async () => {
    const { engine } = await openCopy();
    const replays = new Replays(engine.store);
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: 1, max: ashfall.events.length })
          .chain((s) => fc.tuple(fc.constant(s), fc.integer({ min: s, max: ashfall.events.length }))),
        async ([s, t]) => {
          await replays.snapshots.clear();
          await replays.snapshots.put([
            { stream: CAMPAIGN, hash: ashfall.events[s - 1]!.hash, state: foldTo(ashfall.events, s) },
          ]);
          const at = await replays.stateAtSeq(CAMPAIGN, t);
          expect(at.from).toBe(s);
          expect(at.folded).toBe(t - s);
          expect(at.state).toEqual(foldTo(ashfall.events, t));
          expect(at.state).toEqual(
            (await new Replays(engine.store, { snapshots: false }).stateAtSeq(CAMPAIGN, t)).state,
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it("are taken on the schedule: after each TurnEnded and ActionPhaseEnded and every SNAPSHOT_EVERY events, stamped with version and hash", async () => {
    const { engine } = await openCopy();
    const replays = new Replays(engine.store);
    expect(await replays.snapshots.seqs(CAMPAIGN)).toEqual([]);
    await replays.current(CAMPAIGN);
    const scheduled = ashfall.events.filter((e) => isSnapshotPoint(e)).map((e) => e.seq);
    const everyThousand = ashfall.events
      .filter((e) => e.seq % SNAPSHOT_EVERY === 0 && !phaseSnapshotSeqs().includes(e.seq))
      .map((e) => e.seq);
    expect(scheduled).toEqual(
      phaseSnapshotSeqs()
        .concat(everyThousand)
        .sort((a, b) => a - b),
    );
    // A scheduled point gets its snapshot when its state fits the space budget for the events since the last one
    // taken: a turn's end a few events after its Action phase's end is left out.
    const expected: number[] = [];
    for (const seq of scheduled) {
      if (withinBudget(seq, JSON.stringify(foldTo(ashfall.events, seq)).length, seq - (expected.at(-1) ?? 0)))
        expected.push(seq);
    }
    expect(expected.length).toBeGreaterThanOrEqual(turnEnds().length);
    expect(await replays.snapshots.seqs(CAMPAIGN)).toEqual(expected);
    for (const seq of expected) {
      const { header, body } = splitSnapshot((await replays.snapshots.raw(CAMPAIGN, seq))!);
      expect(header).toEqual(headerAt(seq));
      expect(JSON.parse(body)).toEqual(JSON.parse(JSON.stringify(foldTo(ashfall.events, seq))));
    }
    // The next look starts from the snapshot before it.
    const target = turnEnds()[2]! + 5;
    const before = Math.max(...expected.filter((seq) => seq <= target));
    expect(await replays.stateAtSeq(CAMPAIGN, target)).toMatchObject({ from: before, folded: target - before });
  });

  it("leave out a turn's snapshot when the state is large for the events since the last one, so they never outgrow the log", () => {
    expect(withinBudget(4_100, 50_000, 30)).toBe(true);
    expect(withinBudget(4_100, 500_000, 30)).toBe(false);
    expect(withinBudget(4_100, 500_000, 250)).toBe(true);
    expect(withinBudget(5_000, 5_000_000, 1)).toBe(true);
  });

  it("a stale snapshot (another reducer version) is never used, and is deleted", async () => {
    const { engine } = await openCopy();
    const replays = new Replays(engine.store);
    const [early, late] = [turnEnds()[0]!, turnEnds()[2]!];
    await replays.snapshots.put([
      { stream: CAMPAIGN, hash: ashfall.events[early - 1]!.hash, state: foldTo(ashfall.events, early) },
    ]);
    const wrongState = { ...foldTo(ashfall.events, late), turn: 99 };
    await replays.snapshots.db.put([
      { key: rawKey(CAMPAIGN, late), value: stored({ ...headerAt(late), v: REDUCER_VERSION + 1 }, wrongState) },
    ]);
    const at = await replays.stateAtSeq(CAMPAIGN, late + 3);
    expect(at.from).toBe(early);
    expect(at.state).toEqual(foldTo(ashfall.events, late + 3));
    expect(replays.snapshots.rejected.stale).toBe(1);
    // It was replaced by a good one as the fold went past its seq.
    expect(splitSnapshot((await replays.snapshots.raw(CAMPAIGN, late))!).header).toEqual(headerAt(late));
  });

  it.each([
    [
      "whose hash is not the hash of the event at its seq",
      (seq: number) => ({ ...headerAt(seq), hash: ashfall.events[seq - 2]!.hash }),
    ],
    ["copied from another seq", (seq: number) => ({ ...headerAt(seq - 1), hash: ashfall.events[seq - 2]!.hash })],
    ["that says it belongs to another stream", (seq: number) => ({ ...headerAt(seq), stream: "c1" })],
  ])("a forged snapshot %s is never used", async (_, forge) => {
    const { engine } = await openCopy();
    const replays = new Replays(engine.store);
    const seq = turnEnds()[1]!;
    await replays.snapshots.db.put([
      { key: rawKey(CAMPAIGN, seq), value: stored(forge(seq), { ...foldTo(ashfall.events, seq), turn: 42 }) },
    ]);
    const at = await replays.stateAtSeq(CAMPAIGN, seq + 10);
    expect(at.from).toBe(0);
    expect(at.state).toEqual(foldTo(ashfall.events, seq + 10));
    expect(replays.snapshots.rejected.forged).toBe(1);
  });

  it("the quick way to a phase (its mark and the snapshot before it, checked against the events it reads) never uses a forged one", async () => {
    const { engine } = await openCopy();
    const replays = new Replays(engine.store);
    await replays.current(CAMPAIGN);
    const started3 = ashfall.events.find(
      (e) => e.type === "TurnStarted" && (e.data as { turn: number }).turn === 3,
    )!.seq;
    // The snapshot turn 3 starts from: turn 2's end, or an earlier one when that state outgrew its budget.
    const before3 = (await replays.snapshots.latest(CAMPAIGN, started3, { unhashed: true }))!.state.seq;
    // That snapshot stamped with another event's hash, and a state that says something else.
    await replays.snapshots.db.put([
      {
        key: rawKey(CAMPAIGN, before3),
        value: stored(
          { ...headerAt(before3), hash: ashfall.events[0]!.hash },
          { ...foldTo(ashfall.events, before3), turn: 42 },
        ),
      },
    ]);
    const at = await replays.stateAt(CAMPAIGN, { turn: 3 });
    expect(at.state).toEqual(foldTo(ashfall.events, started3));
    expect(at.from).toBeLessThan(before3);
    expect(replays.snapshots.rejected.forged).toBe(1);
    // A mark that points at another event: the careful path finds the phase and marks it again.
    await replays.snapshots.putMarks([{ stream: CAMPAIGN, turn: 3, phase: "battle", seq: started3 + 2 }]);
    const battle3 = ashfall.events.find(
      (e) => e.type === "ActionPhaseEnded" && (e.data as { turn: number }).turn === 3,
    )!.seq;
    expect((await replays.stateAt(CAMPAIGN, { turn: 3, phase: "battle" })).state).toEqual(
      foldTo(ashfall.events, battle3),
    );
    expect(await replays.snapshots.mark(CAMPAIGN, 3, "battle")).toBe(battle3);
  });

  it("a snapshot that cannot be read is skipped", async () => {
    const { engine } = await openCopy();
    const replays = new Replays(engine.store);
    const seq = turnEnds()[1]!;
    await replays.snapshots.db.put([
      { key: rawKey(CAMPAIGN, seq), value: `${JSON.stringify(headerAt(seq))}\n{"seq":` },
    ]);
    await replays.snapshots.db.put([{ key: rawKey(CAMPAIGN, seq + 1), value: "not a snapshot" }]);
    expect((await replays.stateAtSeq(CAMPAIGN, seq + 2)).state).toEqual(foldTo(ashfall.events, seq + 2));
    expect(replays.snapshots.rejected.unreadable).toBe(2);
  });

  it("after the log is rewritten and re-hashed, the snapshots of the old history are not used", async () => {
    const { engine, db } = await openCopy();
    const before = new Replays(engine.store);
    await before.current(CAMPAIGN);
    const taken = await before.snapshots.seqs(CAMPAIGN);
    await engine.close();
    ashfall.open.splice(ashfall.open.indexOf(engine), 1);
    // Rewrite event 50 and re-seal every event after it and the head, as someone with the files and the code could.
    const { canonicalJson, sha256Hex } = await import("../src/log/index.js");
    const raw = await openRaw(db);
    let prev = ashfall.events[48]!.hash;
    for (const original of ashfall.events.slice(49)) {
      const { hash: _hash, ...envelope } = original;
      const data = original.seq === 50 ? { ...(envelope.data as object), rewritten: true } : envelope.data;
      const body = canonicalJson({ ...envelope, data, prev });
      prev = sha256Hex(body);
      await raw.events.put(rawKey(CAMPAIGN, original.seq), prev + body);
    }
    await raw.heads.put(CAMPAIGN, JSON.stringify({ seq: ashfall.events.length, hash: prev }));
    await raw.level.close();
    const reopened = await Engine.open(db, { createIfMissing: false });
    ashfall.open.push(reopened);
    expect(await verifyStream(reopened.store, CAMPAIGN)).toMatchObject({ ok: true });
    const replays = new Replays(reopened.store);
    const at = await replays.stateAtSeq(CAMPAIGN, ashfall.events.length);
    expect(at.from).toBeLessThan(50);
    expect(replays.snapshots.rejected.forged).toBe(taken.filter((s) => s >= 50).length);
  });

  it("are only a cache: the engine decides from the events alone, and verify never reads them", async () => {
    const { engine } = await openCopy();
    const replays = new Replays(engine.store);
    const head = ashfall.events.length;
    // A snapshot at the head with the right stamps and a changed state: replays would show it, the engine does not.
    const real = foldTo(ashfall.events, head);
    const lie = { ...real, status: "active" as const, result: null };
    await replays.snapshots.put([{ stream: CAMPAIGN, hash: ashfall.events[head - 1]!.hash, state: lie }]);
    expect((await engine.state(CAMPAIGN)).result).toEqual(real.result);
    expect(await verifyStream(engine.store, CAMPAIGN)).toMatchObject({ ok: true, events: head });
    await replays.snapshots.clear();
    expect(await replays.snapshots.seqs(CAMPAIGN)).toEqual([]);
    expect((await replays.stateAtSeq(CAMPAIGN, head)).state).toEqual(real);
  });

  it("are written by `epicwar state --turn` in the campaign's folder, and used by the next look", async () => {
    const db = await copyOf(ashfall.played);
    const first = await cli(["state", "--db", db, "--turn", "3", "--json"]);
    expect(first.code, show(first)).toBe(0);
    const raw = await openRaw(db);
    const keys = await raw.snapshots.keys({ gte: `${CAMPAIGN}#`, lte: `${CAMPAIGN}#~` }).all();
    await raw.level.close();
    expect(keys.length).toBeGreaterThan(0);
    const second = await cli(["state", "--db", db, "--turn", "3", "--json"]);
    expect(second.stdout).toBe(first.stdout);
  });
});
