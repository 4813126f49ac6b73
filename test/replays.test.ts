/**
 * Replays (replays/replayer.ts, replays/timeline.ts): the state at any point of a real campaign's log, stepping by
 * event, activation and phase, the timeline; and the CLI's `state --turn/--seq` and `timeline`, end to end.
 * The campaign is Ashfall played to its end by the demo's commanders, on a real LevelDB.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toCurrent } from "../events/index.js";
import { campaignTotals } from "../projections/derived.js";
import { describeEvent } from "../src/words/events.js";
import { Engine } from "../src/engine/engine.js";
import { ReplayCursor, ReplayError, Replays } from "../replays/replayer.js";
import { opens, PHASES, placeLabel, PlaceTracker } from "../replays/positions.js";
import { timeline, timelineLine, type TimelineEntry } from "../replays/timeline.js";
import { CAMPAIGN, cli, copyOf, foldTo, lines, show, usePlayedAshfall } from "./replays-support.js";

const ashfall = usePlayedAshfall();
const { openCopy } = ashfall;

const seqOf = (type: string, turn: number) =>
  ashfall.events.find((e) => e.type === type && (e.data as { turn?: number }).turn === turn)!.seq;
const lastTurn = () =>
  Math.max(...ashfall.events.filter((e) => e.type === "TurnStarted").map((e) => (e.data as { turn: number }).turn));

describe("the state at a point of the log", () => {
  it("is, at any seq, the fold of events 1..seq, with or without snapshots", async () => {
    const { engine } = await openCopy();
    const replays = new Replays(engine.store);
    const plain = new Replays(engine.store, { snapshots: false });
    expect(ashfall.events.length).toBeGreaterThan(150);
    for (const seq of [0, 1, 36, 37, 90, 144, 145, 200, ashfall.events.length]) {
      const expected = foldTo(ashfall.events, seq);
      expect((await plain.stateAt(CAMPAIGN, { seq })).state).toEqual(expected);
      expect((await replays.stateAt(CAMPAIGN, { seq })).state).toEqual(expected);
      // Asked again: now from the snapshots the first fold took.
      expect((await replays.stateAt(CAMPAIGN, { seq })).state).toEqual(expected);
    }
  });

  it("at turn N and phase P is where that phase begins: right after the event that opens it", async () => {
    const { engine } = await openCopy();
    const replays = new Replays(engine.store);
    for (let turn = 1; turn <= lastTurn(); turn++) {
      const openers = {
        action: seqOf("TurnStarted", turn),
        battle: seqOf("ActionPhaseEnded", turn),
        end: seqOf("BattlePhaseEnded", turn),
      };
      for (const phase of PHASES) {
        const { state } = await replays.stateAt(CAMPAIGN, { turn, phase });
        expect(state.seq).toBe(openers[phase]);
        expect(state).toMatchObject({ turn, phase });
        expect(state).toEqual(foldTo(ashfall.events, openers[phase]));
      }
      // Without a phase: the Action phase, the start of the turn.
      expect((await replays.stateAt(CAMPAIGN, { turn })).state.seq).toBe(openers.action);
    }
  });

  it("refuses a turn that has not begun and a seq past the head, naming how far the log goes", async () => {
    const { engine } = await openCopy();
    const replays = new Replays(engine.store);
    await expect(replays.stateAt(CAMPAIGN, { turn: lastTurn() + 1 })).rejects.toThrow(ReplayError);
    await expect(replays.stateAt(CAMPAIGN, { turn: lastTurn() + 1 })).rejects.toThrow(
      `the log reaches turn ${lastTurn()}`,
    );
    await expect(replays.stateAt(CAMPAIGN, { seq: ashfall.events.length + 1 })).rejects.toThrow(
      `events 1 to ${ashfall.events.length}`,
    );
    await expect(replays.stateAt(CAMPAIGN, { seq: -1 })).rejects.toThrow(ReplayError);
  });

  it("finds a phase through its mark, and still finds it when the mark was deleted or points elsewhere", async () => {
    const { engine } = await openCopy();
    const replays = new Replays(engine.store);
    const battle2 = seqOf("ActionPhaseEnded", 2);
    await replays.current(CAMPAIGN);
    expect(await replays.snapshots.mark(CAMPAIGN, 2, "battle")).toBe(battle2);
    await replays.snapshots.putMarks([{ stream: CAMPAIGN, turn: 2, phase: "battle", seq: battle2 - 3 }]);
    expect(await replays.resolve(CAMPAIGN, { turn: 2, phase: "battle" })).toBe(battle2);
    await replays.snapshots.clear();
    expect(await replays.resolve(CAMPAIGN, { turn: 2, phase: "battle" })).toBe(battle2);
  });
});

describe("stepping", () => {
  it("by event moves one seq either way, and stops at both ends", async () => {
    const { engine } = await openCopy();
    const cursor = await ReplayCursor.open(new Replays(engine.store), CAMPAIGN, { seq: 0 });
    expect(await cursor.back()).toBe(false);
    for (let seq = 1; seq <= 5; seq++) {
      expect(await cursor.forward()).toBe(true);
      expect(cursor.state).toEqual(foldTo(ashfall.events, seq));
    }
    expect(await cursor.back()).toBe(true);
    expect(cursor.seq).toBe(4);
    await cursor.to({ seq: ashfall.events.length });
    expect(await cursor.forward()).toBe(false);
    expect(cursor.seq).toBe(ashfall.events.length);
  });

  it("by activation applies one ArmyActivated and what follows it until the next activation or phase change", async () => {
    const { engine } = await openCopy();
    const cursor = await ReplayCursor.open(new Replays(engine.store), CAMPAIGN, { turn: 1 });
    const activations = ashfall.events
      .filter((e) => e.type === "ArmyActivated" && e.seq > cursor.seq)
      .map((e) => e.seq);
    const ends = (a: number) =>
      ashfall.events.find(
        (e) => e.seq > a && (e.type === "ArmyActivated" || opens(e) || e.type === "CampaignFinished"),
      )!.seq - 1;
    for (const activation of activations.slice(0, 20)) {
      expect(await cursor.forward("activation")).toBe(true);
      expect(cursor.seq).toBe(ends(activation));
      expect(ashfall.events[activation - 1]!.type).toBe("ArmyActivated");
      expect(cursor.state).toEqual(foldTo(ashfall.events, cursor.seq));
    }
    // Back one activation: to just before the last activation begun.
    const last = activations[19]!;
    expect(await cursor.back("activation")).toBe(true);
    expect(cursor.seq).toBe(last - 1);
    expect(cursor.state).toEqual(foldTo(ashfall.events, last - 1));
  });

  it("by phase visits where each phase begins, in order, and back again", async () => {
    const { engine } = await openCopy();
    const cursor = await ReplayCursor.open(new Replays(engine.store), CAMPAIGN, { seq: 0 });
    const stops = ashfall.events
      .filter((e) => opens(e) || e.type === "CampaignStarted" || e.type === "CampaignFinished")
      .map((e) => e.seq);
    for (const stop of stops) {
      expect(await cursor.forward("phase")).toBe(true);
      expect(cursor.seq).toBe(stop);
    }
    expect(await cursor.forward("phase")).toBe(false);
    for (const stop of [...stops].reverse().slice(1)) {
      expect(await cursor.back("phase")).toBe(true);
      expect(cursor.seq).toBe(stop);
      expect(cursor.state).toEqual(foldTo(ashfall.events, stop));
    }
    expect(await cursor.back("phase")).toBe(true);
    expect(cursor.seq).toBe(0);
  });

  it("forward then back by the same unit comes back to the same point, for any start and unit", async () => {
    const { engine } = await openCopy();
    const replays = new Replays(engine.store);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: ashfall.events.length }),
        fc.constantFrom("event", "activation", "phase" as const),
        async (start, unit) => {
          const forward = await replays.step(CAMPAIGN, start, unit, "forward");
          fc.pre(forward !== undefined);
          const back = await replays.step(CAMPAIGN, forward!, unit, "back");
          // A step forward from the middle of a unit ends it; stepping back lands where that unit (or the next) began.
          expect(back).toBeLessThanOrEqual(start + (unit === "event" ? 0 : forward! - start));
          expect(back).toBeLessThan(forward!);
          if (unit === "event") expect(back).toBe(start);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("the timeline", () => {
  async function collect(engine: Engine, fromTurn?: number): Promise<TimelineEntry[]> {
    const out: TimelineEntry[] = [];
    for await (const batch of timeline(
      engine.store,
      new Replays(engine.store),
      CAMPAIGN,
      fromTurn === undefined ? {} : { fromTurn },
    ))
      out.push(...batch);
    return out;
  }

  it("has one line per event in players' words, prefixed with the turn and phase it belongs to", async () => {
    const { engine } = await openCopy();
    const entries = await collect(engine);
    expect(entries.map((e) => e.seq)).toEqual(ashfall.events.map((e) => e.seq));
    const tracker = new PlaceTracker();
    for (const [i, event] of ashfall.events.entries()) {
      const label = placeLabel(tracker.place(event));
      expect(timelineLine(entries[i]!)).toBe(`${label}: ${describeEvent(toCurrent(event))}`);
    }
    const moved = ashfall.events.find((e) => e.type === "ArmyMoved" && (e.data as { turn: number }).turn === 3)!;
    const { army, from, path } = moved.data as { army: string; from: [number, number]; path: Array<[number, number]> };
    const sq = ([x, y]: [number, number]) => `(${x},${y})`;
    expect(timelineLine(entries[moved.seq - 1]!)).toBe(
      `Turn 3 Action: ${army} moves ${[from, ...path].map(sq).join("->")}`,
    );
    expect(timelineLine(entries[0]!)).toMatch(/^Set-up: campaign "Ashfall/);
    // A phase's closing event belongs to the phase it closes; TurnStarted to the turn it begins.
    expect(timelineLine(entries[seqOf("ActionPhaseEnded", 2) - 1]!)).toMatch(/^Turn 2 Action: all orders are in/);
    expect(timelineLine(entries[seqOf("BattlePhaseEnded", 2) - 1]!)).toMatch(
      /^Turn 2 Battle: every battle of turn 2 is fought/,
    );
    expect(timelineLine(entries[seqOf("TurnStarted", 3) - 1]!)).toMatch(/^Turn 3 Action: turn 3 begins/);
    expect(timelineLine(entries[seqOf("TurnEnded", 3) - 1]!)).toMatch(/^Turn 3 End: turn 3 ends/);
  });

  it("starts where a turn begins with fromTurn", async () => {
    const { engine } = await openCopy();
    const entries = await collect(engine, 3);
    expect(entries[0]).toMatchObject({
      seq: seqOf("TurnStarted", 3),
      turn: 3,
      phase: "action",
      label: "Turn 3 Action",
      type: "TurnStarted",
    });
    expect(entries.at(-1)!.seq).toBe(ashfall.events.length);
    await expect(collect(engine, lastTurn() + 1)).rejects.toThrow(ReplayError);
  });
});

describe("the CLI", () => {
  it("prints the timeline as text and as JSON Lines, from a turn on", async () => {
    const db = await copyOf(ashfall.played);
    const text = await cli(["timeline", "--db", db]);
    expect(text.code, show(text)).toBe(0);
    expect(lines(text.stdout)).toHaveLength(ashfall.events.length);
    const firstMove = ashfall.events.find((e) => e.type === "ArmyMoved")!.data as {
      army: string;
      from: [number, number];
    };
    expect(text.stdout).toContain(
      `\nTurn 1 Action: ${firstMove.army} moves (${firstMove.from[0]},${firstMove.from[1]})->`,
    );
    const last = lastTurn();
    const json = await cli(["timeline", "--db", db, "--from-turn", String(last), "--json"]);
    expect(json.code, show(json)).toBe(0);
    const entries = lines(json.stdout).map((line) => JSON.parse(line) as TimelineEntry);
    expect(entries[0]).toMatchObject({
      seq: seqOf("TurnStarted", last),
      label: `Turn ${last} Action`,
      type: "TurnStarted",
    });
    expect(entries.every((e) => e.turn === last)).toBe(true);
    const refused = await cli(["timeline", "--db", db, "--from-turn", String(last + 5)]);
    expect(refused.code, show(refused)).toBe(1);
    expect(refused.stderr).toContain(
      `epicwar: turn ${last + 5} has not begun in ashfall (the log reaches turn ${last})`,
    );
  });

  it("shows the state at a turn and phase, or right after an event, as text and JSON", async () => {
    const db = await copyOf(ashfall.played);
    const atTurn = await cli(["state", "--db", db, "--turn", "3", "--phase", "battle", "--json"]);
    expect(atTurn.code, show(atTurn)).toBe(0);
    expect(JSON.parse(atTurn.stdout)).toMatchObject({ seq: seqOf("ActionPhaseEnded", 3), turn: 3, phase: "battle" });
    const text = await cli(["state", "--db", db, "--turn", "2"]);
    expect(text.code, show(text)).toBe(0);
    expect(text.stdout).toMatch(/turn 2, action phase/);
    const atSeq = await cli(["state", "--db", db, "--seq", "100", "--json"]);
    const { derived, ...stateAtSeq } = JSON.parse(atSeq.stdout) as { derived: { cvps: unknown } };
    const folded = foldTo(ashfall.events, 100);
    expect(stateAtSeq).toEqual(JSON.parse(JSON.stringify(folded)));
    expect(derived.cvps).toEqual(campaignTotals(folded));
    const refusals = [
      [["--turn", "99"], /turn 99 has not begun/],
      [["--seq", "5000"], /there is no seq 5000/],
      [["--seq", "3", "--turn", "2"], /either --turn .* or --seq/],
      [["--phase", "battle"], /--phase needs --turn/],
      [["--turn", "2", "--phase", "lunch"], /action, battle or end/],
      [["--turn", "two"], /turn number/],
    ] as const;
    // Refusals open the folder only to read it (or not at all): run them side by side, a copy each.
    const runs = await Promise.all(
      refusals.map(async ([args]) => cli(["state", "--db", await copyOf(ashfall.played), ...args])),
    );
    for (const [i, run] of runs.entries()) {
      expect(run.code, show(run)).toBe(1);
      expect(lines(run.stderr)).toHaveLength(1);
      expect(run.stderr).toMatch(refusals[i]![1]);
    }
  });
});
