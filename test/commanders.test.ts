import { describe, expect, it } from "vitest";
import { eventOf, Scenario, side, types } from "./battle-support.js";
import { HIDDEN, viewEvent, viewState } from "../src/views.js";
import { logViewContext } from "../src/views-log.js";
import { commandLimit, lowestLevelFor } from "../src/rules/commanders.js";

/**
 * A6 Commanders on test/golden/fixtures/end-ready.json with the rule on (see test/end-phase.test.ts for the armies):
 * r1 5,000 (commander: the Warlord, so Commander level 3), r2 1,100, b1 1,700 and b2 2,000 (level 1 each).
 */

const A6 = { options: { advanced: { commanders: true } } };
const STANDS_LOST = { tactical: { "tactical-stand": 2 }, assault: { "assault-stand": 3 } };
const B2_COMMANDER_LOST = { tactical: { "command-stand": 1 } };

/** Turn 1: r1 beats b1 at (1,3) (b1 routed); r2 attacks b2 at (4,3) and is routed; b2 loses `b2Losses`. */
function turnOne(b2Losses: Record<string, Record<string, number>> = STANDS_LOST): Scenario {
  const s = new Scenario("end-ready.json", A6)
    .startTurn()
    .activate("b1", "firstFire")
    .attack("r1", "charge", [[1, 1], [1, 2], [1, 3]])
    .activate("b2", "firstFire")
    .attack("r2", "advance", [[4, 1], [4, 2], [4, 3]])
    .endActionPhase();
  s.fight("t1b1", { outcome: "attacker", attacker: side(30, { vindicators: { vindicator: 3 }, raiders: { "land-raider": 6 } }), defender: side(14) });
  s.fight("t1b2", { outcome: "defender", attacker: side(8), defender: side(25, b2Losses) });
  return s;
}

/** Turn 2: r1 attacks b2 at (4,3); b2 wins, losing `b2Losses`, and r1 is routed. Ends in the End phase of turn 2. */
function turnTwo(b2Losses: Record<string, Record<string, number>>): Scenario {
  const s = turnOne();
  s.finishEndPhase().endTurn();
  s.startTurn().attack("r1", "charge", [[2, 3], [3, 3], [4, 3]]).endActionPhase();
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
    expect(Object.fromEntries(Object.values(s.state.armies).map((a) => [a.id, a.commanderLevel]))).toEqual({ r1: 3, r2: 1, b1: 1, b2: 1 });
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
      expect.objectContaining({ army: "r1", level: 4, battle: "t2b1", commander: { formation: "warlord", unitType: "warlord" } }),
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
    expect(eventOf(s.events, "CommanderKilled")).toMatchObject({ army: "b2", player: "blue", battle: "t1b2", commander: { formation: "tactical", unitType: "command-stand" } });
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
      { type: "AppointCommander", actor: "blue", army: "b2", commander: { formation: "assault", unitType: "command-stand" } },
      { rule: "A6", message: "is an HQ unit after the army's 1 battle, not a commander" },
    );
  });

  it("A6 after two battles an HQ unit is Commander level 1 and may lead a 2,000-point army; a standard unit may not", () => {
    const s = turnTwo(B2_COMMANDER_LOST);
    expect(eventOf(s.events, "CommanderKilled")).toMatchObject({ army: "b2", battle: "t2b1" });
    s.refused(
      { type: "AppointCommander", actor: "blue", army: "b2", commander: { formation: "assault", unitType: "assault-stand" } },
      { rule: "A6", message: "is an HQ unit after the army's 2 battles" },
    );
    s.refused(
      { type: "AppointCommander", actor: "blue", army: "b2", commander: { formation: "tactical", unitType: "command-stand" } },
      { rule: "A6", message: 'formation "tactical" has no "command-stand" left' },
    );
    s.run({ type: "AppointCommander", actor: "blue", army: "b2", commander: { formation: "assault", unitType: "command-stand" } });
    expect(s.state.armies["b2"]).toMatchObject({ commander: { formation: "assault", unitType: "command-stand" }, commanderLevel: 1 });
    s.refused(
      { type: "AppointCommander", actor: "blue", army: "b2", commander: { formation: "assault", unitType: "command-stand" } },
      { rule: "A6", message: "already has a commander" },
    );
    expect(types(s.run({ type: "FinishEndPhase", actor: "blue" }))).toEqual(["EndPhaseFinished"]);
  });

  it("A6 the new commander is hidden from the opponent again; the dead one stays revealed in its CommanderKilled", () => {
    const s = turnTwo(B2_COMMANDER_LOST);
    s.run({ type: "AppointCommander", actor: "blue", army: "b2", commander: { formation: "assault", unitType: "command-stand" } });
    const context = logViewContext(s.events);
    const redView = viewState(s.state, "red", context);
    expect(redView.armies["b2"]!.commander).toBe(HIDDEN);
    expect(redView.armies["b2"]!.commanderLevel).toBe(HIDDEN);
    expect(viewState(s.state, "blue", context).armies["b2"]!.commanderLevel).toBe(1);
    const seenByRed = s.events.map((e) => viewEvent({ ...e, stream: "golden", version: 1, at: "", actor: "blue", prev: "", hash: "" }, "red", context));
    const text = JSON.stringify(seenByRed.filter((e) => e.type !== "CommanderKilled" && e.type !== "ArmyRegistered"));
    expect(text).not.toContain('"assault","unitType"');
    const appointed = seenByRed.filter((e) => e.type === "CommanderAppointed").map((e) => e.data);
    expect(appointed.every((d) => d.commander === HIDDEN || (d as { player: string }).player === "red")).toBe(true);
    const seenByBlue = s.events.map((e) => viewEvent({ ...e, stream: "golden", version: 1, at: "", actor: "red", prev: "", hash: "" }, "blue", context));
    const promoted = seenByBlue.flatMap((e) => (e.type === "CommanderPromoted" && e.data.player === "red" ? [e.data] : []));
    expect(promoted).toEqual([expect.objectContaining({ army: "r1", commander: HIDDEN, level: HIDDEN })]);
  });
});

describe("A6 the limit of a commander's level", () => {
  it("A6 a new commander whose level cannot lead the army is refused until the army is broken down within it", () => {
    const s = turnOne();
    s.finishEndPhase().endTurn();
    s.startTurn().attack("r1", "charge", [[2, 3], [3, 3], [4, 3]]).endActionPhase();
    s.fight("t2b1", { outcome: "attacker", attacker: side(40, { warlord: { warlord: 1 } }), defender: side(5) });
    expect(s.state.armies["r1"]!.points).toBe(2850);
    const reaver = { type: "AppointCommander", actor: "red", army: "r1", commander: { formation: "reaver", unitType: "reaver" } };
    s.refused(reaver, { rule: "A6", message: "Commander level 1 (armies up to 2,000 points) after the army's 2 battles: it cannot lead army \"r1\" of 2,850 points" });
    s.run({ type: "BreakDown", actor: "red", army: "r1", formations: ["raiders", "speeders", "terminators"] });
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
      formations: [{ id: "tac", formation: "tactical-company" }, { id: "ww", formation: "whirlwind-squadron" }, { id: "pred", formation: "predator-squadron" }],
      commander,
      at: [7, 0],
    });
    s.refused(raise({ formation: "pred", unitType: "predator" }), { rule: "A6", message: 'red has no spare commander who is a "predator"' });
    s.run(raise({ formation: "tac", unitType: "command-stand" }));
    expect(s.state.armies["r3"]).toMatchObject({ commanderLevel: 1, commander: { formation: "tac", unitType: "command-stand" } });
    expect(s.state.ledgers["red"]!.spareCommanders).toEqual([{ army: "r1", unitType: "warlord", level: 4 }]);
  });
});
