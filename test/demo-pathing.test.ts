import { produce } from "immer";
import { describe, expect, it } from "vitest";
import { searchMoves } from "../src/rules/move-search.js";
import { surroundings } from "../src/rules/surroundings.js";
import { stepPricing } from "../src/rules/terrain-costs.js";
import { reach } from "../src/demo/pathing.js";
import type { CampaignState } from "../projections/state.js";
import { Scenario } from "./battle-support.js";

/** What the rules' own search finds for the army in this state, to hold reach's remembered answers against. */
function searched(state: CampaignState, army: string, allowance: number) {
  const mover = state.armies[army]!;
  const { ends, attacks } = searchMoves(surroundings(state, mover), mover.at!, allowance, stepPricing(state.setup!));
  return { paths: [...ends], attacks: attacks.map(({ path, enemy }) => ({ path, enemy: enemy.id })) };
}

function reached(state: CampaignState, army: string, allowance: number) {
  const { paths, attacks } = reach(state, state.armies[army]!, allowance);
  return { paths: [...paths], attacks: attacks.map(({ path, enemy }) => ({ path, enemy: enemy.id })) };
}

describe("The demo commanders' move searches, remembered across states", () => {
  it("M1-M4: a search asked again among armies on the same squares answers as the rules' search, with this state's enemy", () => {
    const state = new Scenario().startTurn().state;
    const first = reach(state, state.armies["r1"]!, 6);
    expect(first.attacks.map((a) => a.enemy.id)).toContain("b1");
    expect(reached(state, "r1", 6)).toEqual(searched(state, "r1", 6));

    // The same squares, another b1: the answer is remembered, the enemy is the new state's army.
    const weaker = produce(state, (draft) => {
      draft.armies["b1"]!.points = 1;
    });
    const again = reach(weaker, weaker.armies["r1"]!, 6);
    expect(again.attacks.find((a) => a.enemy.id === "b1")!.enemy).toBe(weaker.armies["b1"]);
    expect(again.attacks.find((a) => a.enemy.id === "b1")!.enemy.points).toBe(1);
  });

  it("M2, M3: once an army stands elsewhere, or the allowance differs, the search is made again", () => {
    const state = new Scenario().startTurn().state;
    const moved = produce(state, (draft) => {
      draft.armies["b1"]!.at = [0, 1];
    });
    expect(reached(moved, "r1", 6)).toEqual(searched(moved, "r1", 6));
    expect(reached(moved, "r1", 6)).not.toEqual(reached(state, "r1", 6));
    expect(reached(state, "r1", 2)).toEqual(searched(state, "r1", 2));
    expect(reached(state, "r1", 2).paths.length).toBeLessThan(reached(state, "r1", 6).paths.length);
  });
});
