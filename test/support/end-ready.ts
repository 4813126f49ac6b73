import { Scenario } from "../battle-support.js";

/**
 * Turn 1 of test/golden/fixtures/end-ready.json (merged with `patch`) up to its two battles: b1 and b2 take First
 * Fire, r1 charges b1 at (1,3) (battle t1b1) and r2 advances on b2 at (4,3) (battle t1b2). Each test gives the results.
 */
export function turnOneBattles(patch: unknown = {}): Scenario {
  return new Scenario("end-ready.json", patch)
    .startTurn()
    .activate("b1", "firstFire")
    .attack("r1", "charge", [
      [1, 1],
      [1, 2],
      [1, 3],
    ])
    .activate("b2", "firstFire")
    .attack("r2", "advance", [
      [4, 1],
      [4, 2],
      [4, 3],
    ])
    .endActionPhase();
}

/** A8: fills a side's war chest as an End phase's income would. */
export function fund(s: Scenario, player: string, amount: number): Scenario {
  return s.emit({
    type: "WarChestIncomeRecorded",
    data: {
      turn: s.state.turn,
      player,
      items: [],
      total: amount,
      ceilingCut: 0,
      floorCut: 0,
      change: amount,
      earned: amount,
      balance: s.state.ledgers[player]!.warChest + amount,
    },
  });
}
