import { describe, expect, it } from "vitest";
import type { DomainEvent } from "../events/index.js";
import { requireWarChestSpend } from "../src/rules/war-chest.js";
import { warChestIncome } from "../src/rules/war-chest-income.js";
import { Refused } from "../src/rules/refusal.js";
import { eventOf, Scenario, side, types } from "./battle-support.js";
import { produce } from "immer";
import { emptyLedger, type ArmyState } from "../projections/state.js";
import { addDamagedTitans, takeDamagedTitans } from "../projections/war-chest.js";
import { fund, turnOneBattles } from "./support/end-ready.js";

/**
 * A8 war chest and A5 home base on test/golden/fixtures/end-ready.json (F 10,000: the income ceiling is 2,000).
 * Red's home base is at (12,0); r1 (5,000, with a Warlord titan "warlord") stands at (1,0), r2 (1,100) at (4,0);
 * b1 at (1,3), b2 at (4,3).
 */

const WAR_CHEST = { options: { advanced: { warChest: true } } };
const WARLORD_DAMAGE = { warlord: { shields: 2, weapons: [{ name: "volcano-cannon", points: 100 }] } };

/** Turn 1 with the war chest on: r1 attacks b1 and r2 attacks b2; the results are given per test. */
const battles = (patch: unknown = WAR_CHEST): Scenario => turnOneBattles(patch);

function incomeOf(events: readonly DomainEvent[], player: string) {
  const income = events.filter((e) => e.type === "WarChestIncomeRecorded").map((e) => e.data as { player: string });
  return income.find((data) => data.player === player) as ReturnType<typeof eventOf<"WarChestIncomeRecorded">>;
}

describe("A8 war chest income", () => {
  it("A8 an overwhelming win pays 200 (not 100 on top) and an overwhelming defeat takes 100, itemised per battle", () => {
    const s = battles();
    s.fight("t1b1", { outcome: "attacker", attacker: side(30), defender: side(14) });
    const events = s.fight("t1b2", { outcome: "defender", attacker: side(8), defender: side(25) });
    expect(incomeOf(events, "red")).toMatchObject({
      items: [
        { source: "overwhelmingWin", amount: 200, battle: "t1b1" },
        { source: "overwhelmingDefeat", amount: -100, battle: "t1b2" },
      ],
      total: 100,
      change: 100,
      balance: 100,
    });
    expect(s.state.ledgers["red"]).toMatchObject({ warChest: 100, warChestEarned: 100 });
  });

  it("A8 a win pays 100, a draw 50 and a defeat nothing", () => {
    const s = battles();
    s.fight("t1b1", { outcome: "attacker", attacker: side(20), defender: side(15) });
    const events = s.fight("t1b2", { outcome: "draw", attacker: side(10), defender: side(10) });
    expect(incomeOf(events, "red").items).toEqual([
      { source: "win", amount: 100, battle: "t1b1" },
      { source: "draw", amount: 50, battle: "t1b2" },
    ]);
    expect(incomeOf(events, "blue").items).toEqual([
      { source: "defeat", amount: 0, battle: "t1b1" },
      { source: "draw", amount: 50, battle: "t1b2" },
    ]);
  });

  it("A8 income is cut where the campaign's total would pass 20% of F, and the cut is recorded", () => {
    const s = battles();
    s.fight("t1b1", { outcome: "attacker", attacker: side(20), defender: side(15) });
    s.fight("t1b2", { outcome: "draw", attacker: side(10), defender: side(10) });
    const nearCeiling = {
      ...s.state,
      ledgers: { ...s.state.ledgers, red: { ...s.state.ledgers["red"]!, warChest: 0, warChestEarned: 1900 } },
    };
    expect(incomeOf(warChestIncome(nearCeiling, 1), "red")).toMatchObject({
      total: 150,
      change: 100,
      ceilingCut: 50,
      earned: 100,
      balance: 100,
    });
  });

  it("A8 a deduction stops at a balance of 0 and records what it could not take", () => {
    const s = battles();
    s.fight("t1b1", { outcome: "attacker", attacker: side(30), defender: side(14) });
    const events = s.fight("t1b2", { outcome: "attacker", attacker: side(30), defender: side(14) });
    expect(incomeOf(events, "blue")).toMatchObject({ total: -200, change: 0, floorCut: 200, earned: 0, balance: 0 });
    expect(s.state.ledgers["blue"]!.warChest).toBe(0);
  });

  it("A8 without the option no income is recorded", () => {
    const s = battles({});
    s.fight("t1b1", { outcome: "attacker", attacker: side(30), defender: side(14) });
    const events = s.fight("t1b2", { outcome: "defender", attacker: side(8), defender: side(25) });
    expect(types(events)).not.toContain("WarChestIncomeRecorded");
    expect(s.state.ledgers["red"]).toMatchObject({ warChest: 0, warChestEarned: 0 });
  });
});

describe("A8 titan damage and repairs", () => {
  function damaged(patch: unknown = WAR_CHEST): { s: Scenario; events: DomainEvent[] } {
    const s = battles(patch);
    const events = s.fight("t1b1", {
      outcome: "attacker",
      attacker: { ...side(30), titanDamage: WARLORD_DAMAGE },
      defender: side(14),
    });
    s.fight("t1b2", { outcome: "draw", attacker: side(10), defender: side(10) });
    return { s, events };
  }

  it("A8 B5 without the war chest titan damage is repaired for free: nothing is carried", () => {
    const { s, events } = damaged({});
    expect(types(events)).not.toContain("TitanDamageCarried");
    expect(s.state.armies["r1"]!.titanDamage).toBeUndefined();
  });

  it("A8 damage adds up over battles and repairs take off only what is paid for", () => {
    const { s } = damaged();
    expect(s.state.armies["r1"]!.titanDamage).toEqual(WARLORD_DAMAGE);
    s.run({ type: "RepairTitan", actor: "red", army: "r1", formation: "warlord", shields: 1, weapons: [] });
    expect(s.state.armies["r1"]!.titanDamage).toEqual({
      warlord: { shields: 1, weapons: WARLORD_DAMAGE.warlord.weapons },
    });
    fund(s, "red", 100);
    s.run({
      type: "RepairTitan",
      actor: "red",
      army: "r1",
      formation: "warlord",
      shields: 1,
      weapons: [{ destroyed: "volcano-cannon", replacement: { name: "plasma-annihilator", points: 150 } }],
    });
    expect(s.state.armies["r1"]!.titanDamage).toBeUndefined();
    // 150 (win 100 + draw 50) + 100 - 100 - (100 + 150 for a different weapon at its full cost)
    expect(s.state.ledgers["red"]!.warChest).toBe(0);
  });

  it("A8 a titan formation with no carried damage has nothing to repair", () => {
    const { s } = damaged();
    s.refused(
      { type: "RepairTitan", actor: "red", army: "r1", formation: "reaver", shields: 1, weapons: [] },
      { rule: "A8", message: "carries no damage" },
    );
  });

  it("A8 B4 titan damage must name a titan formation of the side", () => {
    const s = battles();
    s.run({
      type: "ReportBattleResult",
      actor: "red",
      battle: "t1b1",
      result: { outcome: "attacker", attacker: side(30), defender: side(14) },
    });
    s.refused(
      {
        type: "ReportBattleResult",
        actor: "red",
        battle: "t1b2",
        result: {
          outcome: "draw",
          attacker: { ...side(10), titanDamage: { tactical: { shields: 1, weapons: [] } } },
          defender: side(10),
        },
      },
      { rule: "B4", message: "not a titan" },
    );
  });
});

describe("A8 spending and A5 home base", () => {
  function endPhase(patch: unknown = WAR_CHEST): Scenario {
    const s = battles(patch);
    s.fight("t1b1", { outcome: "attacker", attacker: side(20), defender: side(15) });
    s.fight("t1b2", { outcome: "draw", attacker: side(10), defender: side(10) });
    return s;
  }
  const army = (at: [number, number]) => ({
    type: "BuyArmy",
    actor: "red",
    army: "r3",
    name: "Red Levy",
    formations: [
      { id: "tactical", formation: "tactical-company" },
      { id: "speeders", formation: "land-speeder-squadron" },
    ],
    commander: { formation: "tactical", unitType: "command-stand" },
    at,
  });

  it("A8 a bought army appears next to the home base, costs its points and acts from the next turn", () => {
    const s = fund(endPhase(), "red", 1000);
    const events = s.run(army([11, 0]));
    expect(eventOf(events, "ArmyPurchased")).toMatchObject({ army: "r3", cost: 1000, at: [11, 0] });
    expect(s.state.armies["r3"]).toMatchObject({ status: "active", at: [11, 0], points: 1000, sinceTurn: 2 });
    expect(s.state.ledgers["red"]!.warChest).toBe(150);
  });

  it("A8 requireWarChestSpend refuses a campaign without the war chest, naming A8", () => {
    const s = endPhase({});
    expect(() => requireWarChestSpend(s.state, "red", 0, "a light barrage")).toThrow(Refused);
    s.refused(
      { type: "BuyDefences", actor: "red", at: [1, 3], points: 50 },
      { rule: "A8", message: "does not play the war chest" },
    );
  });

  it("A5 a side whose home base the enemy holds may neither buy an army nor raise one until it is retaken", () => {
    const s = fund(endPhase({ options: { advanced: { warChest: true, homeBase: true } } }), "red", 1000);
    s.emit({
      type: "ObjectiveCaptured",
      data: { turn: 1, objective: "red", kind: "homeBase", by: "blue", army: "b2", how: "moved" },
    });
    s.refused(army([11, 0]), { rule: "A5", message: "blue holds red's home base" });
    s.emit({
      type: "ObjectiveCaptured",
      data: { turn: 1, objective: "red", kind: "homeBase", by: "red", army: "r1", how: "moved" },
    });
    s.run(army([11, 0]));
  });

  it("A5 RaiseArmy is refused while the enemy holds the home base", () => {
    const s = endPhase({ options: { advanced: { homeBase: true } } }).finishEndPhase();
    s.endTurn();
    s.quietTurn();
    s.emit({
      type: "ObjectiveCaptured",
      data: { turn: 2, objective: "red", kind: "homeBase", by: "blue", army: "b2", how: "moved" },
    });
    s.refused(
      {
        type: "RaiseArmy",
        actor: "red",
        army: "r3",
        name: "Red Levy",
        formations: [
          { id: "t", formation: "tactical-company" },
          { id: "s", formation: "land-speeder-squadron" },
        ],
        commander: { formation: "t", unitType: "command-stand" },
        at: [11, 0],
      },
      { rule: "A5", message: "may not raise new armies" },
    );
  });
});

describe("A8 titan damage off the map: In Transit and the Reserves", () => {
  /** Turn 1: r1 loses t1b1 with its Warlord damaged (or destroyed too) and is routed; r2 wins t1b2. */
  function routed(losses: Record<string, Record<string, number>> = {}, patch: unknown = WAR_CHEST): Scenario {
    const s = battles(patch);
    s.fight("t1b1", {
      outcome: "defender",
      attacker: { ...side(20, losses), titanDamage: WARLORD_DAMAGE },
      defender: side(25),
    });
    s.fight("t1b2", { outcome: "attacker", attacker: side(20), defender: side(15) });
    return s;
  }

  it("A8 a routed titan goes In Transit with its damage and joins the Reserves with it a turn later", () => {
    const s = routed();
    expect(s.state.armies["r1"]!.titanDamage).toBeUndefined();
    expect(s.state.ledgers["red"]!.inTransit[0]!.damagedTitans).toEqual({ warlord: [WARLORD_DAMAGE.warlord] });
    s.finishEndPhase().endTurn();
    s.quietTurn();
    expect(s.state.ledgers["red"]!.inTransit).toEqual([]);
    expect(s.state.ledgers["red"]!.damagedTitans).toEqual({ warlord: [WARLORD_DAMAGE.warlord] });
  });

  it("A8 a titan destroyed in the battle that routs its army leaves no damage to carry", () => {
    const s = routed({ warlord: { warlord: 1 } });
    expect(s.state.ledgers["red"]!.inTransit[0]!.damagedTitans).toBeUndefined();
  });

  it("A8 B5 without the war chest nothing is carried In Transit", () => {
    const s = routed({}, {});
    expect(s.state.ledgers["red"]!.inTransit[0]!.damagedTitans).toBeUndefined();
  });

  it("A8 E5 a damaged titan broken down goes In Transit with its damage", () => {
    const s = battles();
    s.fight("t1b1", {
      outcome: "attacker",
      attacker: { ...side(30), titanDamage: WARLORD_DAMAGE },
      defender: side(14),
    });
    s.fight("t1b2", { outcome: "draw", attacker: side(10), defender: side(10) });
    s.run({ type: "BreakDown", actor: "red", army: "r1", formations: ["warlord"] });
    expect(s.state.armies["r1"]!.titanDamage).toBeUndefined();
    expect(s.state.ledgers["red"]!.inTransit[0]!.damagedTitans).toEqual({ warlord: [WARLORD_DAMAGE.warlord] });
  });

  it("A8 a repair in the Reserves restores only what is down, and a whole titan leaves the damaged list", () => {
    const s = routed();
    s.finishEndPhase().endTurn();
    s.quietTurn();
    fund(s, "red", 1000);
    s.refused(
      { type: "RepairReserveTitan", actor: "red", unitType: "warlord", titan: 0, shields: 3, weapons: [] },
      { rule: "A8", message: "has 2 shields/fields down" },
    );
    const before = s.state.ledgers["red"]!.warChest;
    s.run({
      type: "RepairReserveTitan",
      actor: "red",
      unitType: "warlord",
      titan: 0,
      shields: 2,
      weapons: [{ destroyed: "volcano-cannon" }],
    });
    expect(s.state.ledgers["red"]!.damagedTitans).toBeUndefined();
    expect(s.state.ledgers["red"]!.warChest).toBe(before - 250);
  });

  it("A8 the most damaged titan of a type leaves the Reserves first, and a formation taking two keeps both damages", () => {
    const light = { shields: 1, weapons: [] };
    const heavy = { shields: 0, weapons: [{ name: "volcano-cannon", points: 150 }] };
    const ledger = { ...emptyLedger(), reserves: { warlord: 3 } };
    const army = { titanDamage: undefined } as unknown as ArmyState;
    const pooled = produce(ledger, (draft) => addDamagedTitans(draft, { warlord: [light, heavy] }));
    expect(pooled.damagedTitans).toEqual({ warlord: [heavy, light] });
    const [left, raised] = produce([pooled, army] as const, ([pool, titanArmy]) =>
      takeDamagedTitans(pool, titanArmy, "titan", { warlord: 1 }),
    );
    expect(raised.titanDamage).toEqual({ titan: heavy });
    expect(left.damagedTitans).toEqual({ warlord: [light] });
    const [, both] = produce([pooled, army] as const, ([pool, titanArmy]) =>
      takeDamagedTitans(pool, titanArmy, "titans", { warlord: 2 }),
    );
    expect(both.titanDamage).toEqual({ titans: { shields: 1, weapons: heavy.weapons } });
  });
});
