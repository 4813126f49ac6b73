import { describe, expect, it } from "vitest";
import type { DomainEvent } from "../events/index.js";
import type { CampaignState } from "../projections/state.js";
import { foldDecided, predict } from "../src/rules/phases.js";
import { Scenario, sideResult, types } from "./battle-support.js";
import { folded } from "./support/folded.js";

/** r1 attacks b1 (t1b1), the attacker's win reported: the confirmation is the command left to decide. */
function reportedBattle(): { state: CampaignState; events: DomainEvent[] } {
  const s = new Scenario().startTurn().r1AttacksB1();
  s.run({ type: "ReportBattleResult", actor: "red", battle: "t1b1", result: sideResult({ outcome: "attacker" }) });
  const decision = s.decide({ type: "ConfirmBattleResult", actor: "blue", battle: "t1b1" });
  if (!decision.ok) throw new Error(JSON.stringify(decision.refusal));
  return { state: s.state, events: decision.events };
}

describe("Folding a decision's events on from the states its rules predicted", () => {
  it("B4, T1: a confirmed battle's events (predicted in two steps by the rules, then the End phase begun) fold to evolveAll's state", () => {
    const { state, events } = reportedBattle();
    expect(types(events)).toEqual(expect.arrayContaining(["BattleResolved", "ArmyRouted", "BattlePhaseEnded"]));
    const after = foldDecided(state, events);
    expect(after).toEqual(folded(state, events));
    expect(after.battles["t1b1"]!.status).toBe("resolved");
    expect(after.phase).toBe("end");
    expect(after.seq).toBe(state.seq + events.length);
  });

  it("B4: copies of the decided events, which no rule predicted, fold to the same state from scratch", () => {
    const { state, events } = reportedBattle();
    const copies = structuredClone(events);
    expect(foldDecided(state, copies)).toEqual(folded(state, events));
  });

  it("B4: a later prediction from the same state, of other events, is not taken for the decision's", () => {
    const { state, events } = reportedBattle();
    const first = events.slice(0, 1);
    predict(state, first);
    expect(foldDecided(state, events)).toEqual(folded(state, events));
    const other = predict(state, [{ type: "BattlePhaseEnded", data: { turn: state.turn } }]);
    expect(other.phase).toBe("end");
    const after = foldDecided(state, events);
    expect(after).toEqual(folded(state, events));
    expect(after.battles["t1b1"]!.status).toBe("resolved");
  });
});
