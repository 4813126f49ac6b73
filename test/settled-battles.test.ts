/**
 * The live state holds only the current turn's battles; the settled battles (projections/settled-battles.ts) keep every
 * earlier one as it stood when its turn ended. Together they are every battle of the campaign, indexed (B1) and with
 * their revealed orders (T5) as counting every battle would have them; the live state agrees with the replayed one.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toCurrent, type CurrentEvent, type StoredEvent } from "../events/index.js";
import { evolve, evolveAll } from "../projections/campaign.js";
import {
  allBattles,
  evolveSettling,
  noSettledBattles,
  replaySettling,
  type SettledFold,
} from "../projections/settled-battles.js";
import { stateContext } from "../replays/as-seen.js";
import { viewState } from "../src/views/view.js";
import { logViewContext } from "../src/views/log.js";
import { initialState, type BattleState, type CampaignState } from "../projections/state.js";
import { Engine } from "../src/engine/engine.js";
import { CAMPAIGN, CLOCK, playAshfall, removePlayed } from "./replays-support.js";

let events: StoredEvent[] = [];
let liveState: CampaignState;
let db: string;

beforeAll(async () => {
  // A folder of this file's own (tempDir's are removed after each test): the look at the past opens it again.
  db = join(await mkdtemp(join(tmpdir(), "epicwar-settled-battles-")), "db");
  const engine = await Engine.open(db, { sync: false, clock: CLOCK });
  try {
    await playAshfall(engine, db);
    liveState = await engine.state(CAMPAIGN);
    events = await engine.store.readAll(CAMPAIGN);
  } finally {
    await engine.close();
  }
}, 120_000);

afterAll(async () => {
  events = [];
  await removePlayed(db);
});

/** The log's events as the reducers take them, copied: a reducer puts an event's own objects into the state. */
const logged = (): CurrentEvent[] => JSON.parse(JSON.stringify(events.map(toCurrent))) as CurrentEvent[];

/** Every battle of the log, each as it stood after the last event of the log that names it, by a fold of its own. */
function battlesAsFolded(): Record<string, BattleState> {
  const battles: Record<string, BattleState> = {};
  let state = initialState;
  for (const event of logged()) {
    state = evolve(state, event);
    const id = (event.data as { battle?: unknown }).battle;
    if (typeof id === "string" && state.battles[id]) battles[id] = state.battles[id];
  }
  return battles;
}

describe("the settled battles", () => {
  it("B1 gives every battle of a played campaign the index counting all battles of its turn would", () => {
    let fold: SettledFold = { state: initialState, settled: noSettledBattles };
    let started = 0;
    for (const event of logged()) {
      const before =
        event.type === "BattleStarted"
          ? Object.values(allBattles(fold)).filter((battle) => battle.turn === event.data.turn).length
          : undefined;
      fold = evolveSettling(fold, [event]);
      if (event.type === "BattleStarted") {
        expect(fold.state.battles[event.data.battle]!.index, `${event.data.battle}'s index`).toBe(before);
        started++;
      }
    }
    expect(started, "the played campaign has battles to check").toBeGreaterThan(1);
  });

  it("keep every battle of the turns before the current one as it stood when its turn ended, the state only the current turn's", () => {
    const fold = evolveSettling({ state: initialState, settled: noSettledBattles }, logged());
    const folded = battlesAsFolded();
    const turns = new Set(Object.values(folded).map((battle) => battle.turn));
    expect(turns.size, "the played campaign has battles in more than one turn").toBeGreaterThan(1);
    expect(Object.values(fold.state.battles).every((battle) => battle.turn === fold.state.turn)).toBe(true);
    expect(Object.values(fold.settled).every((battle) => battle.turn < fold.state.turn)).toBe(true);
    expect(allBattles(fold)).toEqual(folded);
    expect(fold.state).toEqual(evolveAll(initialState, logged()));
  });

  it("are the same folded in one go or in batches cut anywhere", () => {
    const whole = evolveSettling({ state: initialState, settled: noSettledBattles }, logged());
    const list = logged();
    let fold: SettledFold = { state: initialState, settled: noSettledBattles };
    for (let i = 0; i < list.length; i += 7) fold = evolveSettling(fold, list.slice(i, i + 7));
    expect(fold.settled).toEqual(whole.settled);
    expect(fold.state).toEqual(whole.state);
  });

  it("T5 puts each revealed order on the battles of its turn, the same as looking through every battle", () => {
    const battles = Object.values(
      allBattles(evolveSettling({ state: initialState, settled: noSettledBattles }, logged())),
    );
    const revealed = new Map<string, string>();
    for (const event of events.map(toCurrent))
      if (event.type === "OrderRevealed") revealed.set(`${event.data.turn}:${event.data.army}`, event.data.order);
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

  it("leave the state the last turn a battle started in", () => {
    const last = Math.max(...events.map(toCurrent).map((e) => (e.type === "BattleStarted" ? e.data.turn : 0)));
    expect(last).toBeGreaterThan(0);
    expect(liveState.lastBattleTurn).toBe(last);
  });
});

describe("a look at a point of the past", () => {
  it("shows the battles settled by then beside the state's own, as the view of the log up to it does, and only the state's when asked", async () => {
    // The End phase of the turn before the last: its battles all fought, some battles of earlier turns settled.
    const turn = liveState.turn - 1;
    const engine = await Engine.open(db, { sync: false, clock: CLOCK });
    try {
      const position = { turn, phase: "end" } as const;
      const context = await stateContext(engine.store, CAMPAIGN, undefined, position);
      const seq = context.state.seq;
      const upTo = events.slice(0, seq).map(toCurrent);
      const expected = allBattles(replaySettling(upTo));
      expect(Object.values(expected).some((battle) => battle.turn < turn)).toBe(true);
      expect(Object.values(expected).some((battle) => battle.turn === turn)).toBe(true);
      expect(viewState(context.state, undefined, context).battles).toEqual(expected);
      expect(viewState(context.state, "host", context)).toEqual(viewState(context.state, "host", logViewContext(upTo)));
      const slim = await stateContext(engine.store, CAMPAIGN, undefined, position, { settled: false });
      expect(viewState(slim.state, undefined, slim).battles).toEqual(context.state.battles);
      expect(Object.values(slim.state.battles).every((battle) => battle.turn === turn)).toBe(true);
    } finally {
      await engine.close();
    }
  });
});

describe("the live state", () => {
  it("is the replayed state, key order included", () => {
    const replayed = evolveAll(initialState, events.map(toCurrent));
    expect(liveState.seq).toBe(events.length);
    expect(JSON.stringify(liveState)).toBe(JSON.stringify(replayed));
  });
});
