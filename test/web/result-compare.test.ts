import { describe, expect, it } from "vitest";
import type { BattleResult } from "../../events/common.js";
import { resultDifferences } from "../../src/web/result-compare.js";

const reported: BattleResult = {
  outcome: "attacker",
  attacker: { vp: 3, losses: { howlers1: { "horde-howler": 2 } }, routed: {} },
  defender: {
    vp: 1,
    losses: {},
    routed: { lancers: { lancer: 1 } },
    titanDamage: { warlord: { shields: 2, weapons: [{ name: "volcano cannon", points: 50 }] } },
  },
};
const copy = (): BattleResult => structuredClone(reported);

describe("B4 the confirming side's own count beside the result reported", () => {
  it("B4 finds no difference when the own count is the report", () => {
    expect(resultDifferences(reported, copy())).toEqual([]);
  });

  it("B4 names the outcome and the VPs that differ, with both counts and by how much in words", () => {
    const own = copy();
    own.outcome = "draw";
    own.attacker.vp = 1;
    expect(resultDifferences(reported, own)).toEqual([
      { key: "outcome", words: "Outcome: reported the attacker won, your count a draw" },
      { key: "attacker/vp", words: "Attacker's VPs won: reported 3, your count 1 (2 fewer)" },
    ]);
  });

  it("B4 names each unit lost or routed that differs, a unit left out of either counting as none", () => {
    const own = copy();
    own.attacker.losses = { howlers1: { "horde-howler": 2, "horde-clan-chief": 1 } };
    own.defender.routed = {};
    expect(resultDifferences(reported, own)).toEqual([
      {
        key: "attacker/lost/howlers1/horde-clan-chief",
        words: "Attacker's horde-clan-chief of howlers1 lost: reported 0, your count 1 (1 more)",
      },
      {
        key: "defender/routed/lancers/lancer",
        words: "Defender's lancer of lancers routed: reported 1, your count 0 (1 fewer)",
      },
    ]);
  });

  it("A8 names a titan's shields and weapons that differ", () => {
    const own = copy();
    own.defender.titanDamage = { warlord: { shields: 3, weapons: [] } };
    expect(resultDifferences(reported, own)).toEqual([
      {
        key: "defender/shields/warlord",
        words: "Defender's titan warlord shields down: reported 2, your count 3 (1 more)",
      },
      {
        key: "defender/weapons/warlord",
        words: "Defender's titan warlord weapons destroyed: reported volcano cannon, your count none",
      },
    ]);
  });
});
