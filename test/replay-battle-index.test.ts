/**
 * The index of each turn's battles that the BattleStarted and OrderRevealed reducers read instead of every battle of
 * the campaign, and the live state agreeing with the replayed one down to key order.
 */
import { produce } from "immer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toCurrent, type StoredEvent } from "../events/index.js";
import { fileBattle } from "../projections/battle-index.js";
import { evolve, evolveAll } from "../projections/campaign.js";
import { initialState, type BattleState, type CampaignState } from "../projections/state.js";
import { Engine } from "../src/engine.js";
import { CAMPAIGN, CLOCK, playAshfall } from "./replays-support.js";
import { tempDir } from "./support/tmp.js";

let events: StoredEvent[] = [];
let liveState: CampaignState;

beforeAll(async () => {
  const db = `${await tempDir("epicwar-battle-index-")}/db`;
  const engine = await Engine.open(db, { sync: false, clock: CLOCK });
  try {
    await playAshfall(engine, db);
    liveState = await engine.state(CAMPAIGN);
    events = await engine.store.readAll(CAMPAIGN);
  } finally {
    await engine.close();
  }
}, 120_000);

afterAll(() => {
  events = [];
});

/** B1's definition of a battle's index: how many battles of its turn the campaign already had when it started. */
const battlesOfTurnBefore = (state: CampaignState, turn: number) =>
  Object.values(state.battles).filter((battle) => battle.turn === turn).length;

describe("the index of each turn's battles", () => {
  it("B1 gives every battle of a played campaign the index counting all battles would, and lists each turn's battles in start order", () => {
    let state = initialState;
    let started = 0;
    for (const event of events.map(toCurrent)) {
      const expectedIndex = event.type === "BattleStarted" ? battlesOfTurnBefore(state, event.data.turn) : undefined;
      state = evolve(state, JSON.parse(JSON.stringify(event)) as typeof event);
      if (event.type === "BattleStarted") {
        expect(state.battles[event.data.battle]!.index, `${event.data.battle}'s index`).toBe(expectedIndex);
        started++;
      }
    }
    expect(started, "the played campaign has battles to check").toBeGreaterThan(1);
    const byTurn: Record<string, string[]> = {};
    for (const battle of Object.values(state.battles).sort((a, b) => a.turn - b.turn || a.index - b.index))
      (byTurn[battle.turn] ??= []).push(battle.id);
    expect(state.battleIdsByTurn).toEqual(byTurn);
  });

  it("T5 puts each revealed order on the battles of its turn, the same as looking through every battle", () => {
    const state = evolveAll(
      initialState,
      JSON.parse(JSON.stringify(events.map(toCurrent))) as ReturnType<typeof toCurrent>[],
    );
    const revealed = new Map<string, string>();
    for (const event of events.map(toCurrent))
      if (event.type === "OrderRevealed") revealed.set(`${event.data.turn}:${event.data.army}`, event.data.order);
    const battles = Object.values(state.battles);
    expect(battles.length).toBeGreaterThan(1);
    for (const battle of battles) {
      expect(battle.attacker.order, `${battle.id} attacker`).toBe(
        revealed.get(`${battle.turn}:${battle.attacker.army}`) ?? null,
      );
      expect(battle.defender.order, `${battle.id} defender`).toBe(
        revealed.get(`${battle.turn}:${battle.defender.army}`) ?? null,
      );
    }
  });

  it("B1 files a battle id used again (in a log written outside the rules) under its latest turn only, without a duplicate", () => {
    const stub = (id: string, turn: number) => ({ id, turn }) as BattleState;
    let state: CampaignState = {
      ...initialState,
      battles: { a: stub("a", 1), b: stub("b", 1) },
      battleIdsByTurn: { 1: ["a", "b"] },
    };
    let index = -1;
    state = produce(state, (draft) => {
      index = fileBattle(draft, "b", 1);
    });
    expect(index, "the same battle again in its turn counts itself, as counting every battle does").toBe(2);
    expect(state.battleIdsByTurn).toEqual({ 1: ["a", "b"] });
    state = produce(state, (draft) => {
      index = fileBattle(draft, "a", 2);
      draft.battles["a"] = stub("a", 2);
    });
    expect(index).toBe(0);
    expect(state.battleIdsByTurn).toEqual({ 1: ["b"], 2: ["a"] });
  });
});

describe("the live state", () => {
  it("is the replayed state, key order included", () => {
    const replayed = evolveAll(initialState, events.map(toCurrent));
    expect(liveState.seq).toBe(events.length);
    expect(JSON.stringify(liveState)).toBe(JSON.stringify(replayed));
  });
});
