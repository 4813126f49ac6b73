import { campaignTotals } from "../../projections/derived.js";
import { sameSquare } from "../../projections/grid.js";
import type { BattleState, CampaignState } from "../../projections/state.js";
import { battleOdds, type OutcomeOdds } from "../forecast/battle-model.js";

/*
 * How the searching level judges the end of an Action phase for a seat, without drawing a single battle: each battle
 * still to fight has three outcomes with the battle model's chances; every combination of them is weighed by its
 * chance, and judged by where it leaves the race to the CVP target (S3, E2). The worth is in [-1, 1]: a campaign won 1,
 * lost -1, drawn DRAW_WORTH; one still open, its lead in CVPs set against how far both sides still have to go.
 */

/** A campaign drawn: no win, and little better than a loss, so that a line that may still win is worth more. */
export const DRAW_WORTH = -0.8;
/*
 * POINT_CVPS and SWING were fitted to 237 campaigns of Ashfall between the scripted commanders: at each turn's end,
 * the worth of each side's CVPs and points on the map against how its campaign came out (least squares).
 */
/** What an army point on the map is worth in CVPs: an army routed is out of the next turns' battles and captures. */
const POINT_CVPS = 0.02;
/** CVPs a side gains in a turn, roughly, once the armies meet: how the distance left to the target counts in turns. */
const PACE = 70;
/** The lead in CVPs that makes a line worth tanh(1) (some 0.76) with a turn to go. */
const SWING = 140;
/** Share of its points an army keeps after a battle it won (the model's losses of 10-30%), and after a draw. */
const KEPT_WON = 0.8;
const KEPT_DRAWN = 0.7;
/** Battles whose outcomes are combined one by one at most; any more count by their mean CVPs alone. */
const COMBINED_BATTLES = 7;

interface Tally {
  cvps: Record<string, number>;
  points: Record<string, number>;
}

/** The seat's worth of a state at the end of an Action phase (or of a campaign that has ended), in [-1, 1]. */
export function outlook(state: CampaignState, seat: string): number {
  if (state.result) return resultWorth(state.result.winner, seat);
  const totals = campaignTotals(state);
  const target = totals[seat]!.target;
  const tally: Tally = { cvps: {}, points: {} };
  for (const [player, sides] of Object.entries(totals)) tally.cvps[player] = sides.total;
  for (const army of Object.values(state.armies))
    if (army.status === "active" && army.at) tally.points[army.player] = (tally.points[army.player] ?? 0) + army.points;
  const battles = Object.values(state.battles)
    .filter((b) => b.turn === state.turn && b.status !== "resolved")
    .sort((a, b) => a.index - b.index);
  const outcomes = battles.map((battle) => battleOutcomes(state, battle));
  for (const late of outcomes.slice(COMBINED_BATTLES))
    for (const odds of late)
      for (const [player, cvps] of Object.entries(odds.cvps))
        tally.cvps[player] = (tally.cvps[player] ?? 0) + odds.chance * cvps;
  const combined = outcomes.slice(0, COMBINED_BATTLES);
  const worthOf = (index: number, at: Tally): number => {
    if (index === combined.length) return openWorth(at, seat, target);
    let worth = 0;
    for (const odds of combined[index]!) {
      if (odds.chance === 0) continue;
      worth += odds.chance * worthOf(index + 1, after(at, odds));
    }
    return worth;
  };
  return worthOf(0, tally);
}

function resultWorth(winner: string | null, seat: string): number {
  return winner === null ? DRAW_WORTH : winner === seat ? 1 : -1;
}

/** A battle's outcomes, each with its CVPs (an objective on its square held by the winner) and the points it costs. */
interface BattleOutcome extends OutcomeOdds {
  points: Record<string, number>;
}

function battleOutcomes(state: CampaignState, battle: BattleState): BattleOutcome[] {
  const { awards } = state.setup!;
  const { attacker, defender } = battle;
  // E1, B6: the winner of a battle on an objective's square holds it; a draw leaves it with its holder.
  const objective = Object.values(state.objectives).find((o) => sameSquare(o.at, battle.at));
  const home = Object.values(state.homeBases).find((h) => sameSquare(h.at, battle.at));
  const worthTo = (player: string | null): number =>
    objective ? (player ? awards.objective : 0) : home && player !== home.player ? awards.homeBase : 0;
  const holder = objective?.heldBy ?? home?.heldBy ?? null;
  return battleOdds(state, battle).map((odds) => {
    const cvps = { ...odds.cvps };
    const winner = odds.outcome === "draw" ? null : battle[odds.outcome].player;
    if ((objective || home) && winner && winner !== holder) {
      cvps[winner] = (cvps[winner] ?? 0) + worthTo(winner);
      if (holder) cvps[holder] = (cvps[holder] ?? 0) - worthTo(holder);
    }
    const kept = (side: "attacker" | "defender") =>
      odds.outcome === "draw" ? KEPT_DRAWN : odds.outcome === side ? KEPT_WON : 0;
    const points = {
      [attacker.player]: -attacker.points * (1 - kept("attacker")),
      [defender.player]: -defender.points * (1 - kept("defender")),
    };
    return { ...odds, cvps, points };
  });
}

function after(tally: Tally, outcome: BattleOutcome): Tally {
  const add = (into: Record<string, number>, from: Record<string, number>) => {
    const sum = { ...into };
    for (const [player, value] of Object.entries(from)) sum[player] = (sum[player] ?? 0) + value;
    return sum;
  };
  return { cvps: add(tally.cvps, outcome.cvps), points: add(tally.points, outcome.points as Record<string, number>) };
}

/**
 * E2: a side at the target at the End phase wins, both at once draw; else the seat's lead (CVPs, and a little for its
 * points on the map) is set against the turns the nearer side still needs, a lead counting for more the nearer the end.
 */
function openWorth(tally: Tally, seat: string, target: number): number {
  const mine = tally.cvps[seat] ?? 0;
  const enemies = Object.keys(tally.cvps).filter((player) => player !== seat);
  const theirs = Math.max(...enemies.map((player) => tally.cvps[player] ?? 0));
  if (mine >= target || theirs >= target) return mine < target ? -1 : theirs < target ? 1 : DRAW_WORTH;
  const enemyPoints = Math.max(...enemies.map((player) => tally.points[player] ?? 0));
  const lead = mine - theirs + POINT_CVPS * ((tally.points[seat] ?? 0) - enemyPoints);
  const turnsLeft = Math.max(1, (target - Math.max(mine, theirs)) / PACE);
  return Math.tanh(lead / (SWING * Math.sqrt(turnsLeft)));
}
