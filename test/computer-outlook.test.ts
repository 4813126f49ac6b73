/**
 * The searching level's judgement of the end of an Action phase (src/computer/outlook.ts): its battles weighed by the
 * battle model's odds, none drawn, and the race to the CVP target (S3, E2) judged from there.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { BattleState, CampaignState } from "../projections/state.js";
import { DRAW_WORTH, outlook } from "../src/computer/outlook.js";
import { scoredCandidates } from "../src/computer/search.js";
import { nextDecision } from "../src/demo/play.js";
import { battleOdds } from "../src/forecast/battle-model.js";
import { viewState } from "../src/views/view.js";
import { ashfallPlayedUntil } from "./support/ashfall-table.js";

/** Ashfall played by the scripted commanders to the first moment `wanted` holds. */
const playedUntil = (wanted: (state: CampaignState) => boolean) => ashfallPlayedUntil("computer-outlook", wanted);

const pending = (state: CampaignState): BattleState[] =>
  Object.values(state.battles).filter((b) => b.turn === state.turn && b.status !== "resolved");

/** The state with each player's CVPs from battles set, and one battle alone left to fight, its sides as given. */
function withOneBattle(
  state: CampaignState,
  battleCvps: Record<string, number>,
  points?: { attacker: number; defender: number },
): { state: CampaignState; battle: BattleState } {
  const [first] = pending(state);
  const battle = points
    ? {
        ...first!,
        attacker: { ...first!.attacker, points: points.attacker },
        defender: { ...first!.defender, points: points.defender },
      }
    : first!;
  const ledgers = Object.fromEntries(
    Object.entries(state.ledgers).map(([player, ledger]) => [
      player,
      { ...ledger, battleCvps: battleCvps[player] ?? ledger.battleCvps },
    ]),
  );
  return { state: { ...state, ledgers, battles: { [battle.id]: battle } }, battle };
}

describe("the searching level's outlook", () => {
  let state: CampaignState;
  let attacker: string;
  let defender: string;
  beforeAll(async () => {
    // The first Battle phase with a battle to fight.
    state = await playedUntil((now) => now.phase === "battle" && pending(now).length > 0);
    const battle = pending(state)[0]!;
    [attacker, defender] = [battle.attacker.player, battle.defender.player];
  }, 60_000);

  it("B3, S4: a battle's three outcomes add up to certainty, and each winner gains more CVPs than its loser", () => {
    for (const battle of pending(state)) {
      const odds = battleOdds(state, battle);
      expect(odds.map((o) => o.outcome)).toEqual(["attacker", "defender", "draw"]);
      expect(odds.reduce((sum, o) => sum + o.chance, 0)).toBeCloseTo(1, 12);
      const [attackerWins, defenderWins] = odds;
      const [a, d] = [battle.attacker.player, battle.defender.player];
      expect(attackerWins!.cvps[a]!).toBeGreaterThan(attackerWins!.cvps[d]!);
      expect(defenderWins!.cvps[d]!).toBeGreaterThan(defenderWins!.cvps[a]!);
    }
  });

  it("E2: a campaign ended is worth 1 to its winner, -1 to its loser, and a draw less than nothing to both", () => {
    expect(outlook({ ...state, result: { winner: attacker, turn: state.turn } }, attacker)).toBe(1);
    expect(outlook({ ...state, result: { winner: attacker, turn: state.turn } }, defender)).toBe(-1);
    expect(outlook({ ...state, result: { winner: null, turn: state.turn } }, defender)).toBe(DRAW_WORTH);
    expect(DRAW_WORTH).toBeLessThan(0);
  });

  it("judges a battle by its odds: the same battle is worth more to the attacker the stronger its army", () => {
    const even = withOneBattle(state, {}, { attacker: 3000, defender: 3000 }).state;
    const strong = withOneBattle(state, {}, { attacker: 5000, defender: 1500 }).state;
    expect(outlook(strong, attacker)).toBeGreaterThan(outlook(even, attacker));
    expect(outlook(strong, defender)).toBeLessThan(outlook(even, defender));
  });

  it("E2, S3: a battle that takes only the seat to the target is a campaign won", () => {
    const target = 300;
    const { state: near } = withOneBattle(state, { [attacker]: target - 20, [defender]: 0 });
    const odds = battleOdds(near, pending(near)[0]!);
    // Every outcome gives the attacker at least 20 CVPs, and the defender, with no objectives, never the target.
    expect(Math.min(...odds.map((o) => o.cvps[attacker]!))).toBeGreaterThanOrEqual(20);
    expect(outlook(near, attacker)).toBeCloseTo(1, 12);
    expect(outlook(near, defender)).toBeCloseTo(-1, 12);
  });

  it("E2: where every outcome takes both sides to the target, the line is worth a draw", () => {
    const { state: both } = withOneBattle(state, { [attacker]: 299, [defender]: 299 });
    expect(outlook(both, attacker)).toBeCloseTo(DRAW_WORTH, 12);
    expect(outlook(both, defender)).toBeCloseTo(DRAW_WORTH, 12);
  });

  it("a budget in rounds gives the same scores however long each round takes", async () => {
    // The first activation of turn 2, where armies are in reach of one another.
    const mid = await playedUntil(
      (now) => now.turn === 2 && now.phase === "action" && nextDecision(now)?.type === "ActivateArmy",
    );
    const seat = nextDecision(mid)!.actor;
    const view = viewState(mid, seat);
    let clock = 0;
    const slow = { rounds: 2, milliseconds: Number.POSITIVE_INFINITY, now: () => (clock += 3_600_000) };
    const frozen = { rounds: 2, milliseconds: Number.POSITIVE_INFINITY, now: () => 0 };
    const scores = await scoredCandidates(view, seat, {}, slow);
    expect(scores.length).toBeGreaterThan(1);
    expect(await scoredCandidates(view, seat, {}, frozen)).toEqual(scores);
  }, 60_000);
});
