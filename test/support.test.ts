import { describe, expect, it } from "vitest";
import type { SupportUse } from "../events/common.js";
import { SUPPORT_PRICES, supportFundAtStart } from "../projections/support.js";
import { describeEvent } from "../src/words/events.js";
import { renderState } from "../src/cli/render.js";
import { viewState } from "../src/views/view.js";
import { eventOf, Scenario, side } from "./battle-support.js";

/**
 * A7 Off-table support against the pure deciders, on test/golden/fixtures/battle-ready.json (F = 10,000): buying in the
 * End phase, what the funds allow, calling items in during a battle and striking them off, and the battle sheet.
 * The golden cases test/golden/A/A7-*.json pin each check with its accepted neighbour.
 */

const SUPPORT_ONLY = { options: { advanced: { offTableSupport: true } } };
const WITH_WAR_CHEST = { options: { advanced: { offTableSupport: true, warChest: true } } };

/** Turn 1 without a battle, in its End phase. */
function quietTurnOne(patch: unknown = SUPPORT_ONLY): Scenario {
  return new Scenario("battle-ready.json", patch).quietTurn();
}

/** Turn 2 in its Battle phase: r1 has attacked b1 at (1,3) in battle t2b1. */
function battleInTurnTwo(s: Scenario): Scenario {
  s.finishEndPhase().endTurn();
  return s.startTurn().r1AttacksB1();
}

const report = (attacker: SupportUse[] | undefined, defender?: SupportUse[]) => ({
  type: "ReportBattleResult",
  actor: "red",
  battle: "t2b1",
  result: {
    outcome: "attacker",
    attacker: { ...side(45), ...(attacker ? { support: attacker } : {}) },
    defender: { ...side(10), ...(defender ? { support: defender } : {}) },
  },
});

describe("A7 the price list and the funds", () => {
  it("A7 prices every barrage and missile as the seed lists them", () => {
    const points = Object.fromEntries(Object.entries(SUPPORT_PRICES).map(([kind, price]) => [kind, price.points]));
    expect(points).toEqual({
      "light-barrage": 100,
      "medium-barrage": 200,
      "heavy-barrage": 300,
      "shock-and-awe": 300,
      blind: 50,
      haywire: 150,
      "mine-dispenser": 100,
      "mine-dispenser-stasis": 100,
      "mine-dispenser-vortex": 150,
      stasis: 100,
      vortex: 300,
    });
    const barrages = Object.entries(SUPPORT_PRICES)
      .filter(([, price]) => price.use === "barrage")
      .map(([kind]) => kind);
    expect(barrages).toEqual(["light-barrage", "medium-barrage", "heavy-barrage"]);
  });

  it("A7 the support fund is 10% of F, rounded down, only when off-table support is played without the war chest", () => {
    expect(supportFundAtStart({ advanced: { offTableSupport: true } }, 12345)).toBe(1234);
    expect(supportFundAtStart({ advanced: { offTableSupport: true, warChest: true } }, 12345)).toBe(0);
    expect(supportFundAtStart({}, 12345)).toBe(0);
    expect(new Scenario("battle-ready.json", SUPPORT_ONLY).state.ledgers["red"]!.supportFund).toBe(1000);
    expect(new Scenario("battle-ready.json").state.ledgers["red"]!.supportFund).toBe(0);
  });

  it("A7 a purchase from the support fund records its cost and where it was paid from", () => {
    const s = quietTurnOne();
    const events = s.run({ type: "BuySupport", actor: "blue", kind: "haywire" });
    expect(eventOf(events, "SupportPurchased")).toEqual({
      turn: 1,
      player: "blue",
      item: "haywire-t1",
      kind: "haywire",
      cost: 150,
      paidFrom: "supportFund",
    });
    expect(s.state.ledgers["blue"]).toMatchObject({
      supportFund: 850,
      warChest: 0,
      artillery: [{ id: "haywire-t1", kind: "haywire", boughtTurn: 1 }],
    });
    expect(describeEvent({ type: "SupportPurchased", data: eventOf(events, "SupportPurchased") })).toBe(
      "blue buys a haywire missile (haywire-t1) for 150 points from its support fund; usable from turn 2",
    );
  });

  it("A7 A8 with the war chest in play a purchase is paid from the war chest, and refused while it is short", () => {
    const s = new Scenario("battle-ready.json", WITH_WAR_CHEST).startTurn().r1AttacksB1();
    s.fight("t1b1", { outcome: "attacker", attacker: side(30), defender: side(25) });
    const chest = s.state.ledgers["red"]!.warChest;
    expect(chest).toBeGreaterThanOrEqual(100);
    s.refused({ type: "BuySupport", actor: "blue", kind: "blind" }, { rule: "A8", message: "war chest holds 0" });
    const events = s.run({ type: "BuySupport", actor: "red", kind: "light-barrage" });
    expect(eventOf(events, "SupportPurchased")).toMatchObject({ cost: 100, paidFrom: "warChest" });
    expect(s.state.ledgers["red"]).toMatchObject({ warChest: chest - 100, supportFund: 0 });
  });

  it("A7 A5 with the war chest in play, a side whose home base the enemy holds cannot buy support", () => {
    const s = quietTurnOne({ options: { advanced: { offTableSupport: true, warChest: true, homeBase: true } } });
    const home = s.state.homeBases["red"]!;
    s.state = {
      ...s.state,
      homeBases: { ...s.state.homeBases, red: { ...home, heldBy: "blue" } },
      ledgers: { ...s.state.ledgers, red: { ...s.state.ledgers["red"]!, warChest: 500 } },
    };
    s.refused(
      { type: "BuySupport", actor: "red", kind: "light-barrage" },
      { rule: "A5", message: "until it is retaken" },
    );
  });
});

describe("A7 support in a battle", () => {
  function boughtThenBattle(): Scenario {
    const s = quietTurnOne();
    s.run({ type: "BuySupport", actor: "red", kind: "medium-barrage", item: "guns" });
    s.run({ type: "BuySupport", actor: "blue", kind: "stasis", item: "freeze" });
    return battleInTurnTwo(s);
  }

  it("A7 the confirmed result strikes every item called in off its side's roster, barrages and one-shots alike", () => {
    const s = boughtThenBattle();
    s.run(report([{ item: "guns", turns: [1, 3] }], [{ item: "freeze", turns: [2] }]));
    expect(s.state.ledgers["red"]!.artillery).toHaveLength(1);
    const events = s.run({ type: "ConfirmBattleResult", actor: "blue", battle: "t2b1" });
    const expended = events.filter((e) => e.type === "SupportExpended").map((e) => e.data);
    expect(expended).toEqual([
      { turn: 2, battle: "t2b1", player: "red", items: ["guns"] },
      { turn: 2, battle: "t2b1", player: "blue", items: ["freeze"] },
    ]);
    expect(s.state.ledgers["red"]!.artillery).toEqual([]);
    expect(s.state.ledgers["blue"]!.artillery).toEqual([]);
  });

  it("A7 a rejected result leaves the roster as it was: the items may be named again", () => {
    const s = boughtThenBattle();
    s.run(report([{ item: "guns", turns: [1] }]));
    s.run({ type: "RejectBattleResult", actor: "blue", battle: "t2b1" });
    expect(s.state.ledgers["red"]!.artillery.map((item) => item.id)).toEqual(["guns"]);
    s.run(report([{ item: "guns", turns: [2] }]));
  });

  it("A7 an item bought in the battle's own turn is refused: support is usable from the turn after its purchase", () => {
    const s = boughtThenBattle();
    // Purchases happen only in End phases, after the turn's battles; this state stands for an item bought in turn 2.
    const red = s.state.ledgers["red"]!;
    s.state = {
      ...s.state,
      ledgers: {
        ...s.state.ledgers,
        red: { ...red, artillery: [{ id: "guns", kind: "medium-barrage", boughtTurn: 2 }] },
      },
    };
    s.refused(report([{ item: "guns", turns: [1] }]), {
      rule: "A7",
      message: "bought in turn 2: off-table support may be called in from the turn after it is bought",
    });
  });

  it("A7 the confirmation checks the roster again: an item gone since the report is refused", () => {
    const s = boughtThenBattle();
    s.run(report([{ item: "guns", turns: [1] }]));
    const red = s.state.ledgers["red"]!;
    s.state = { ...s.state, ledgers: { ...s.state.ledgers, red: { ...red, artillery: [] } } };
    s.refused(
      { type: "ConfirmBattleResult", actor: "blue", battle: "t2b1" },
      { rule: "A7", message: 'red has no "guns"' },
    );
  });
});

describe("A7 the battle sheet", () => {
  it("A7 lists what each side may call in before the result, and what it called in after", () => {
    const s = quietTurnOne();
    s.run({ type: "BuySupport", actor: "red", kind: "light-barrage", item: "guns" });
    s.run({ type: "BuySupport", actor: "blue", kind: "blind", item: "smoke" });
    expect(renderState(viewState(s.state, "red"), { viewer: "red" })).toContain(
      "support fund 900 pts; artillery roster: light barrage (guns) from turn 2",
    );
    battleInTurnTwo(s);
    const before = renderState(viewState(s.state, "blue"), { viewer: "blue" });
    expect(before).toContain("attacker (red) may call in: light barrage (guns)");
    expect(before).toContain("defender (blue) may call in: blind missile (smoke)");
    s.run(report([{ item: "guns", turns: [1, 2] }]));
    s.run({ type: "ConfirmBattleResult", actor: "blue", battle: "t2b1" });
    const after = renderState(viewState(s.state, "blue"), { viewer: "blue" });
    expect(after).toContain("attacker (red) called in: guns in battle turns 1, 2");
    expect(after).toContain("defender (blue) called in: no off-table support");
  });

  it("A7 a campaign without off-table support shows no support on its sheets", () => {
    const s = new Scenario("battle-ready.json")
      .startTurn()
      .activate("b1", "firstFire")
      .attack("r1", "advance", [
        [1, 1],
        [1, 2],
        [1, 3],
      ]);
    const text = renderState(viewState(s.state, "red"), { viewer: "red" });
    expect(text).toContain("t1b1");
    expect(text).not.toContain("artillery roster");
    expect(text).not.toContain("call in");
  });
});
