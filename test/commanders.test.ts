import { describe, expect, it } from "vitest";
import type { DomainEvent } from "../events/index.js";
import { evolve, replay } from "../projections/campaign.js";
import type { AdvancedFinding, CheckedEvent } from "../replays/audit-advanced.js";
import { CommandersAudit } from "../replays/audit-commanders.js";
import { eventOf, Scenario, side, types } from "./battle-support.js";
import { HIDDEN, viewEvent, viewState } from "../src/views/view.js";
import { logViewContext } from "../src/views/log.js";
import { commandLimit, lowestLevelFor } from "../src/rules/commanders.js";
import { fund, turnOneBattles } from "./support/end-ready.js";

/**
 * A6 Commanders on test/golden/fixtures/end-ready.json with the rule on (see test/end-phase.test.ts for the armies):
 * r1 5,000 (commander: the Warlord, so Commander level 3), r2 1,100, b1 1,700 and b2 2,000 (level 1 each).
 */

const A6 = { options: { advanced: { commanders: true } } };
const A6_A8 = { options: { advanced: { commanders: true, warChest: true } } };
const STANDS_LOST = { tactical: { "tactical-stand": 2 }, assault: { "assault-stand": 3 } };
const B2_COMMANDER_LOST = { tactical: { "command-stand": 1 } };

/** Turn 1: r1 beats b1 at (1,3) (b1 routed); r2 attacks b2 at (4,3) and is routed; b2 loses `b2Losses`. */
function turnOne(b2Losses: Record<string, Record<string, number>> = STANDS_LOST, patch: unknown = A6): Scenario {
  const s = turnOneBattles(patch);
  s.fight("t1b1", {
    outcome: "attacker",
    attacker: side(30, { vindicators: { vindicator: 3 }, raiders: { "land-raider": 6 } }),
    defender: side(14),
  });
  s.fight("t1b2", { outcome: "defender", attacker: side(8), defender: side(25, b2Losses) });
  return s;
}

/** Turn 2: r1 attacks b2 at (4,3); b2 wins, losing `b2Losses`, and r1 is routed. Ends in the End phase of turn 2. */
function turnTwo(b2Losses: Record<string, Record<string, number>>): Scenario {
  const s = turnOne();
  s.finishEndPhase().endTurn();
  s.startTurn()
    .attack("r1", "charge", [
      [2, 3],
      [3, 3],
      [4, 3],
    ])
    .endActionPhase();
  s.fight("t2b1", { outcome: "defender", attacker: side(5), defender: side(40, b2Losses) });
  return s;
}

describe("A6 ranks", () => {
  it("A6 level n leads armies up to 2,000 x n points, level 5 any army", () => {
    expect([1, 2, 3, 4].map(commandLimit)).toEqual([2000, 4000, 6000, 8000]);
    expect(commandLimit(5)).toBe(Infinity);
    expect([1000, 2000, 2001, 5000, 8001, 20000].map(lowestLevelFor)).toEqual([1, 1, 2, 3, 5, 5]);
  });

  it("A6 a registered army's commander starts at the lowest level that can lead it", () => {
    const s = new Scenario("end-ready.json", A6);
    expect(Object.fromEntries(Object.values(s.state.armies).map((a) => [a.id, a.commanderLevel]))).toEqual({
      r1: 3,
      r2: 1,
      b1: 1,
      b2: 1,
    });
  });

  it("A6 with the rule off nothing changes: no level, no commander events", () => {
    const s = new Scenario("end-ready.json");
    expect(s.state.armies["r1"]!.commanderLevel).toBeUndefined();
    expect(s.events.some((e) => e.type.startsWith("Commander"))).toBe(false);
  });
});

describe("A6 promotion", () => {
  it("A6 a commander rises one level after its second battle survived, not after its first", () => {
    const s = turnOne();
    expect(s.state.armies["b2"]!.commanderLevel).toBe(1);
    const events = turnTwo(STANDS_LOST).events;
    const promoted = events.filter((e) => e.type === "CommanderPromoted").map((e) => e.data);
    expect(promoted).toEqual([
      expect.objectContaining({
        army: "r1",
        level: 4,
        battle: "t2b1",
        commander: { formation: "warlord", unitType: "warlord" },
      }),
      expect.objectContaining({ army: "b2", level: 2, battle: "t2b1" }),
    ]);
  });

  it("A6 a routed army's living commander becomes a spare commander at its level", () => {
    const s = turnTwo(STANDS_LOST);
    expect(s.state.ledgers["red"]!.spareCommanders).toEqual([
      { army: "r2", unitType: "command-stand", level: 1 },
      { army: "r1", unitType: "warlord", level: 4 },
    ]);
    expect(s.state.armies["r1"]!.commanderLevel).toBeNull();
  });
});

describe("A6 a commander killed", () => {
  it("A6 a battle that leaves no unit of the commander's type in its formation kills and reveals the commander", () => {
    const s = turnOne(B2_COMMANDER_LOST);
    expect(eventOf(s.events, "CommanderKilled")).toMatchObject({
      army: "b2",
      player: "blue",
      battle: "t1b2",
      commander: { formation: "tactical", unitType: "command-stand" },
    });
    expect(s.state.armies["b2"]!.commanderLevel).toBeNull();
    const redView = viewState(s.state, "red", logViewContext(s.events));
    expect(redView.armies["b2"]!.commander).toEqual({ formation: "tactical", unitType: "command-stand" });
    expect(redView.armies["b1"]!.commander).toBe(HIDDEN);
  });

  it("A6 the player cannot finish the End phase while an army on the map has no commander; disbanding it frees it", () => {
    const s = turnOne(B2_COMMANDER_LOST);
    s.refused({ type: "FinishEndPhase", actor: "blue" }, { rule: "A6", message: 'army "b2" has no commander' });
    s.run({ type: "FinishEndPhase", actor: "red" });
    s.run({ type: "DisbandArmy", actor: "blue", army: "b2" });
    expect(types(s.run({ type: "FinishEndPhase", actor: "blue" }))).toEqual(["EndPhaseFinished"]);
  });

  it("A6 a new commander must have the rank: an HQ unit after one battle is not yet a commander", () => {
    const s = turnOne(B2_COMMANDER_LOST);
    s.refused(
      {
        type: "AppointCommander",
        actor: "blue",
        army: "b2",
        commander: { formation: "assault", unitType: "command-stand" },
      },
      { rule: "A6", message: "is an HQ unit after the army's 1 battle, not a commander" },
    );
  });

  it("A6 after two battles an HQ unit is Commander level 1 and may lead a 2,000-point army; a standard unit may not", () => {
    const s = turnTwo(B2_COMMANDER_LOST);
    expect(eventOf(s.events, "CommanderKilled")).toMatchObject({ army: "b2", battle: "t2b1" });
    s.refused(
      {
        type: "AppointCommander",
        actor: "blue",
        army: "b2",
        commander: { formation: "assault", unitType: "assault-stand" },
      },
      { rule: "A6", message: "is an HQ unit after the army's 2 battles" },
    );
    s.refused(
      {
        type: "AppointCommander",
        actor: "blue",
        army: "b2",
        commander: { formation: "tactical", unitType: "command-stand" },
      },
      { rule: "A6", message: 'formation "tactical" has no "command-stand" left' },
    );
    s.run({
      type: "AppointCommander",
      actor: "blue",
      army: "b2",
      commander: { formation: "assault", unitType: "command-stand" },
    });
    expect(s.state.armies["b2"]).toMatchObject({
      commander: { formation: "assault", unitType: "command-stand" },
      commanderLevel: 1,
    });
    s.refused(
      {
        type: "AppointCommander",
        actor: "blue",
        army: "b2",
        commander: { formation: "assault", unitType: "command-stand" },
      },
      { rule: "A6", message: "already has a commander" },
    );
    expect(types(s.run({ type: "FinishEndPhase", actor: "blue" }))).toEqual(["EndPhaseFinished"]);
  });

  it("A6 the new commander is hidden from the opponent again; the dead one stays revealed in its CommanderKilled", () => {
    const s = turnTwo(B2_COMMANDER_LOST);
    s.run({
      type: "AppointCommander",
      actor: "blue",
      army: "b2",
      commander: { formation: "assault", unitType: "command-stand" },
    });
    const context = logViewContext(s.events);
    const redView = viewState(s.state, "red", context);
    expect(redView.armies["b2"]!.commander).toBe(HIDDEN);
    expect(redView.armies["b2"]!.commanderLevel).toBe(HIDDEN);
    expect(viewState(s.state, "blue", context).armies["b2"]!.commanderLevel).toBe(1);
    const seenByRed = s.events.map((e) =>
      viewEvent({ ...e, stream: "golden", version: 1, at: "", actor: "blue", prev: "", hash: "" }, "red", context),
    );
    const text = JSON.stringify(seenByRed.filter((e) => e.type !== "CommanderKilled" && e.type !== "ArmyRegistered"));
    expect(text).not.toContain('"assault","unitType"');
    const appointed = seenByRed.filter((e) => e.type === "CommanderAppointed").map((e) => e.data);
    expect(appointed.every((d) => d.commander === HIDDEN || (d as { player: string }).player === "red")).toBe(true);
    const seenByBlue = s.events.map((e) =>
      viewEvent({ ...e, stream: "golden", version: 1, at: "", actor: "red", prev: "", hash: "" }, "blue", context),
    );
    const promoted = seenByBlue.flatMap((e) =>
      e.type === "CommanderPromoted" && e.data.player === "red" ? [e.data] : [],
    );
    expect(promoted).toEqual([expect.objectContaining({ army: "r1", commander: HIDDEN, level: HIDDEN })]);
  });
});

describe("A6 the limit of a commander's level", () => {
  it("A6 a new commander whose level cannot lead the army is refused until the army is broken down within it", () => {
    const s = turnOne();
    s.finishEndPhase().endTurn();
    s.startTurn()
      .attack("r1", "charge", [
        [2, 3],
        [3, 3],
        [4, 3],
      ])
      .endActionPhase();
    // The Land Raider company, which carries the Reaver (E5), is wiped out: it holds nothing together any more.
    s.fight("t2b1", {
      outcome: "attacker",
      attacker: side(40, { warlord: { warlord: 1 }, raiders: { "land-raider": 4 } }),
      defender: side(5),
    });
    expect(s.state.armies["r1"]!.points).toBe(2250);
    const reaver = {
      type: "AppointCommander",
      actor: "red",
      army: "r1",
      commander: { formation: "reaver", unitType: "reaver" },
    };
    s.refused(reaver, {
      rule: "A6",
      message:
        'Commander level 1 (armies up to 2,000 points) after the army\'s 2 battles: it cannot lead army "r1" of 2,250 points',
    });
    s.run({ type: "BreakDown", actor: "red", army: "r1", formations: ["speeders", "terminators"] });
    s.run(reaver);
    expect(s.state.armies["r1"]).toMatchObject({ points: 1500, commanderLevel: 1 });
  });

  it("A6 a new army needs a spare commander of its commander's unit type; raising it uses that spare up", () => {
    const s = turnTwo(STANDS_LOST);
    const raise = (commander: { formation: string; unitType: string }) => ({
      type: "RaiseArmy",
      actor: "red",
      army: "r3",
      name: "Red Reformed",
      formations: [
        { id: "tac", formation: "tactical-company" },
        { id: "ww", formation: "whirlwind-squadron" },
        { id: "pred", formation: "predator-squadron" },
      ],
      commander,
      at: [7, 0],
    });
    s.refused(raise({ formation: "pred", unitType: "predator" }), {
      rule: "A6",
      message: 'red has no spare commander who is a "predator"',
    });
    s.run(raise({ formation: "tac", unitType: "command-stand" }));
    expect(s.state.armies["r3"]).toMatchObject({
      commanderLevel: 1,
      commander: { formation: "tac", unitType: "command-stand" },
    });
    expect(s.state.ledgers["red"]!.spareCommanders).toEqual([{ army: "r1", unitType: "warlord", level: 4 }]);
  });
});

describe("A6 A8 armies and formations bought from the war chest", () => {
  /** Turn 1 with A6 and A8: red's r2 was routed with its commander alive, so red has one spare (level 1 command stand). */
  const funded = (patch: unknown = A6_A8): Scenario =>
    fund(fund(turnOne(STANDS_LOST, patch), "red", 2000), "blue", 200);
  const buyArmy = (
    army: string,
    at: [number, number],
    formations = [
      { id: "tactical", formation: "tactical-company" },
      { id: "speeders", formation: "land-speeder-squadron" },
    ],
  ) => ({
    type: "BuyArmy",
    actor: "red",
    army,
    name: "Red Levy",
    formations,
    commander: { formation: "tactical", unitType: "command-stand" },
    at,
  });
  const buyFormation = (actor: string, army: string, formation: string) => ({
    type: "BuyFormations",
    actor,
    army,
    formations: [{ id: "bought", formation }],
  });

  it("A6 A8 a bought army is led by a spare commander, which it uses up: with no spare left a second is refused", () => {
    const s = funded();
    expect(s.state.ledgers["red"]!.spareCommanders).toEqual([{ army: "r2", unitType: "command-stand", level: 1 }]);
    const events = s.run(buyArmy("r3", [11, 0]));
    expect(types(events)).toEqual(["ArmyPurchased", "CommanderAppointed"]);
    expect(eventOf(events, "CommanderAppointed")).toEqual({
      turn: 1,
      army: "r3",
      player: "red",
      commander: { formation: "tactical", unitType: "command-stand" },
      level: 1,
      formerArmy: "r2",
    });
    expect(s.state.armies["r3"]).toMatchObject({ commanderLevel: 1, points: 1000 });
    expect(s.state.ledgers["red"]!.spareCommanders).toEqual([]);
    s.refused(buyArmy("r4", [13, 0]), {
      rule: "A6",
      message:
        'red has no spare commander to lead new army "r4": a player fields only as many armies as it has commanders',
    });
  });

  it("A6 A8 a bought army larger than its spare commander's level leads is refused; one within it is bought", () => {
    const s = funded();
    const large = [
      { id: "tactical", formation: "tactical-company" },
      { id: "raiders", formation: "land-raider-company" },
      { id: "terminators", formation: "terminator-squad" },
      { id: "speeders", formation: "land-speeder-squadron" },
    ];
    s.refused(buyArmy("r3", [11, 0], large), {
      rule: "A6",
      message:
        'new army "r3" is 2,100 points; red\'s best spare "command-stand" is Commander level 1 (armies up to 2,000 points)',
    });
    s.run(
      buyArmy(
        "r3",
        [11, 0],
        large.filter((f) => f.id !== "speeders"),
      ),
    );
    expect(s.state.armies["r3"]).toMatchObject({ points: 1850, commanderLevel: 1 });
  });

  it("A6 A8 formations bought into an army may not take it past its commander's limit, though within M", () => {
    const s = funded();
    expect(s.state.armies["b2"]).toMatchObject({ points: 2000, commanderLevel: 1 });
    s.refused(buyFormation("blue", "b2", "vindicator-squadron"), {
      rule: "A6",
      message:
        'buying "vindicator-squadron" would make army "b2" 2,150 points, more than its Commander level 1 (armies up to 2,000 points) can lead',
    });
    expect(s.state.armies["r1"]).toMatchObject({ points: 4850, commanderLevel: 3 });
    s.run(buyFormation("red", "r1", "whirlwind-squadron"));
    expect(s.state.armies["r1"]!.points).toBe(5000);
  });

  it("A6 A8 with Commanders off a bought army takes no commander and formations go up to M", () => {
    const s = funded({ options: { advanced: { warChest: true } } });
    expect(types(s.run(buyArmy("r3", [11, 0])))).toEqual(["ArmyPurchased"]);
    expect(types(s.run(buyArmy("r4", [13, 0])))).toEqual(["ArmyPurchased"]);
    expect(types(s.run(buyFormation("blue", "b2", "vindicator-squadron")))).toEqual(["FormationsPurchased"]);
  });
});

describe("A6 the audit of new armies and bought formations", () => {
  /** What the commanders' audit finds in these events, each checked against the campaign as they leave it. */
  function findings(events: readonly (DomainEvent & { seq: number })[]): AdvancedFinding[] {
    const found: AdvancedFinding[] = [];
    const audit = new CommandersAudit((finding) => found.push(finding));
    let state = replay([]);
    for (const event of events) {
      const checked = { ...structuredClone(event), actor: "host" } as CheckedEvent;
      audit.before(checked, state);
      state = evolve(state, structuredClone(event));
      audit.after(checked, state);
    }
    return found;
  }
  const funded = (): Scenario => fund(fund(turnOne(STANDS_LOST, A6_A8), "red", 2000), "blue", 200);
  const formations = [
    { id: "tactical", formation: "tactical-company", units: { "command-stand": 1, "tactical-stand": 6, rhino: 5 } },
  ];
  const purchase = (army: string) => ({
    type: "ArmyPurchased" as const,
    data: {
      turn: 1,
      army,
      player: "red",
      name: "Red Levy",
      formations,
      commander: { formation: "tactical", unitType: "command-stand" },
      at: [11, 0] as [number, number],
      cost: 750,
    },
  });

  it("A6 an army bought with its spare commander appointed audits clean; one fielded with no commander appointed is reported", () => {
    const honest = funded();
    honest.run({
      type: "BuyArmy",
      actor: "red",
      army: "r3",
      name: "Red Levy",
      formations: [
        { id: "tactical", formation: "tactical-company" },
        { id: "s", formation: "land-speeder-squadron" },
      ],
      commander: { formation: "tactical", unitType: "command-stand" },
      at: [11, 0],
    });
    expect(findings(honest.events)).toEqual([]);

    const beyond = honest.fork().emit(purchase("r4"), { type: "EndPhaseFinished", data: { turn: 1, player: "red" } });
    const seq = beyond.events.length - 1;
    expect(findings(beyond.events)).toEqual([
      expect.objectContaining({
        rule: "A6",
        army: "r4",
        seqs: [seq],
        detail: `r4 was bought (seq ${seq}) with no spare commander appointed to lead it (red had 0 spare commanders): a player fields only as many armies as it has commanders`,
      }),
    ]);
    const unled = funded().emit(purchase("r3"), { type: "EndPhaseFinished", data: { turn: 1, player: "red" } });
    expect(findings(unled.events)).toEqual([
      expect.objectContaining({
        rule: "A6",
        army: "r3",
        detail: expect.stringContaining("(red had 1 spare commander)"),
      }),
    ]);
  });

  it("A6 formations bought past the commander's limit are reported; up to it they are not", () => {
    const s = funded();
    const bought = (formation: string, units: Record<string, number>, cost: number) => ({
      type: "FormationsPurchased" as const,
      data: {
        turn: 1,
        player: "blue",
        army: "b2",
        formations: [{ id: `bought-${formation}`, formation, units }],
        cost,
      },
    });
    const past = s.fork().emit(bought("vindicator-squadron", { vindicator: 3 }, 150));
    expect(findings(past.events)).toEqual([
      expect.objectContaining({
        rule: "A6",
        army: "b2",
        seqs: [past.events.length],
        detail: expect.stringContaining("made it 2,150 points; its level 1 commander leads armies of up to 2,000"),
      }),
    ]);
    const r1 = s.fork().emit({
      type: "FormationsPurchased",
      data: {
        turn: 1,
        player: "red",
        army: "r1",
        formations: [{ id: "ww", formation: "whirlwind-squadron", units: { whirlwind: 3 } }],
        cost: 150,
      },
    });
    expect(findings(r1.events)).toEqual([]);
  });

  it("A6 a formation replaced past the commander's limit is reported; one that keeps the army within it is not", () => {
    const s = funded();
    const replaced = (formation: string, units: Record<string, number>) => ({
      type: "FormationReplaced" as const,
      data: {
        turn: 1,
        player: "blue",
        army: "b2",
        replaced: "assault",
        formation: { id: "new", formation, units },
        units,
      },
    });
    const past = s.fork().emit(replaced("reaver-titan", { reaver: 1 }));
    expect(findings(past.events)).toEqual([
      expect.objectContaining({
        rule: "A6",
        army: "b2",
        seqs: [past.events.length],
        detail: expect.stringContaining("a formation replaced in b2"),
      }),
    ]);
    const within = s.fork().emit(replaced("whirlwind-squadron", { whirlwind: 3 }));
    expect(findings(within.events)).toEqual([]);
  });
});
