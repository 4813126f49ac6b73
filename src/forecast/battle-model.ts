import { MODEL_DIE_SIDES, type BattleResult, type Order } from "../../events/common.js";
import { engagement, type Engagement } from "../../projections/engagement.js";
import { terrainAt } from "../../projections/grid.js";
import { scoutingOf } from "../../projections/scouting.js";
import type { BattleState, CampaignState } from "../../projections/state.js";
import { battleExtras } from "../demo/battle-extras.js";
import { drawVp, loserVp, resultOf, winnerVp } from "../demo/results.js";
import { battleCvps } from "../rules/battle.js";
import type { BattleModel } from "../client/prepare.js";

/*
 * The forecast's quick model of a battle fought on the table (B-results): not the game, a stand-in for it, with every
 * number below chosen by hand (docs/forecast.md gives the formula and where each number comes from).
 */

/** How much a battle turn of initiative is worth, as a share of the side's strength (B2). */
export const INITIATIVE_EDGE = 0.05;
/** How much each cm a side deploys further forward is worth (B2). */
export const FORWARD_EDGE_PER_CM = 0.004;
/** Deploying after the enemy (B2: the other side deploys first). */
export const DEPLOY_SECOND_EDGE = 0.03;
/** A3: the defender's units dug in. */
export const DUG_IN_EDGE = 0.1;
/** The defender's edge from the terrain of the battle's square. */
export const TERRAIN_EDGE: Readonly<Record<string, number>> = {
  forest: 0.1,
  hills: 0.1,
  town: 0.15,
  city: 0.2,
  mountains: 0.2,
};
/** How sharply the stronger side's chance grows with the ratio of strengths: P(win) = r^k / (1 + r^k). */
export const STEEPNESS = 4;
/** The chance of a draw between sides of equal strength; it falls off as they differ (DRAW_CHANCE * 4p(1-p)). */
export const DRAW_CHANCE = 0.12;

type Side = "attacker" | "defender";

/** B2 (with A3): the share a side's strength gains from the engagement effects of the two orders. */
export function engagementEdge(effects: Engagement, side: Side): number {
  const other: Side = side === "attacker" ? "defender" : "attacker";
  let edge = 1;
  if (effects.initiative?.side === side) edge += INITIATIVE_EDGE * effects.initiative.turns.length;
  edge += FORWARD_EDGE_PER_CM * effects.forwardCm[side];
  if (effects.deploysFirst === other) edge += DEPLOY_SECOND_EDGE;
  if (side === "defender" && effects.dugIn) edge += DUG_IN_EDGE;
  return edge;
}

/** The two sides' strengths: points (defences added to the defender's), times the B2, terrain and support edges. */
export function battleStrengths(state: CampaignState, battle: BattleState): Record<Side, number> {
  const attackerOrder: Order = battle.attacker.order ?? "charge";
  const defenderOrder: Order = battle.defender.order ?? "firstFire";
  const band = scoutingOf(state.turnState, battle.attacker.army, battle.defender.army)?.band ?? undefined;
  const effects = engagement(attackerOrder, defenderOrder, band);
  const extras = battleExtras(state, battle);
  const terrain = 1 + (TERRAIN_EDGE[terrainAt(state.setup!.map, battle.at)] ?? 0);
  return {
    attacker: battle.attacker.points * engagementEdge(effects, "attacker") * extras.attacker.edge,
    defender:
      (battle.defender.points + battle.defences) * engagementEdge(effects, "defender") * terrain * extras.defender.edge,
  };
}

/** The chances of each outcome from the two strengths: the draw band first, the rest split by the ratio. */
export function outcomeChances(strengths: Record<Side, number>): { attacker: number; defender: number; draw: number } {
  const ratio = strengths.attacker / Math.max(strengths.defender, 1);
  const attackerShare = ratio ** STEEPNESS / (1 + ratio ** STEEPNESS);
  const draw = DRAW_CHANCE * 4 * attackerShare * (1 - attackerShare);
  return { attacker: (1 - draw) * attackerShare, defender: (1 - draw) * (1 - attackerShare), draw };
}

/**
 * A modelled result for a battle: the outcome drawn from outcomeChances, then VPs, losses and routs as the demo's
 * scripted battles give them (resultOf) from the two strengths. `random` is the simulation's own.
 */
export function modelResult(state: CampaignState, battle: BattleState, random: () => number): BattleResult {
  const strengths = battleStrengths(state, battle);
  const chances = outcomeChances(strengths);
  const roll = random();
  const outcome = roll < chances.draw ? "draw" : roll < chances.draw + chances.attacker ? "attacker" : "defender";
  return resultOf(state, battle, outcome, strengths, random);
}

/** One outcome of a battle by the model: its chance, and the CVPs each player gains from it on average (S4). */
export interface OutcomeOdds {
  outcome: BattleResult["outcome"];
  chance: number;
  cvps: Record<string, number>;
}

/** The mean of a VP formula over its draw `u`, taken at eight evenly spaced points (exact for the winner's VPs). */
function meanVp(vp: (u: number) => number): number {
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += vp((i + 0.5) / 8);
  return sum / 8;
}

/**
 * A battle's three outcomes by the model, without drawing one: each with its chance (outcomeChances) and the CVPs
 * each side would gain from it, its VPs the mean of resultOf's and its award as the rules give it (battleCvps).
 */
export function battleOdds(state: CampaignState, battle: BattleState): OutcomeOdds[] {
  const strengths = battleStrengths(state, battle);
  const chances = outcomeChances(strengths);
  const target = battle.vpTarget;
  const [strong, weak, even] = [
    meanVp((u) => winnerVp(target, u)),
    loserVp(target, strengths),
    meanVp((u) => drawVp(target, u)),
  ];
  const odds = (outcome: BattleResult["outcome"], attackerVp: number, defenderVp: number): OutcomeOdds => {
    const side = (vp: number) => ({ vp, losses: {}, routed: {} });
    const result: BattleResult = { outcome, attacker: side(attackerVp), defender: side(defenderVp) };
    return { outcome, chance: chances[outcome], cvps: battleCvps(state.setup!.awards, battle, result).cvps };
  };
  return [odds("attacker", strong, weak), odds("defender", weak, strong), odds("draw", even, even)];
}

/** How many d10s make one of the model's draws: three, a draw in thousandths. */
const DICE_PER_DRAW = 3;

/**
 * B4 with `options.battles: "model"`: the model's result with its draws read from dice (`take` gives the next face of
 * a die of the sides asked), so that the host draws it from the turn's seeds (D1) and the audit draws it again from
 * the same faces. Each draw is three d10s read as the digits of a fraction in thousandths.
 */
export function modelResultFromDice(state: CampaignState, battle: BattleState, take: (sides: number) => number) {
  return modelResult(state, battle, () => {
    let draw = 0;
    for (let i = 0; i < DICE_PER_DRAW; i++) draw = draw * MODEL_DIE_SIDES + take(MODEL_DIE_SIDES) - 1;
    return draw / MODEL_DIE_SIDES ** DICE_PER_DRAW;
  });
}

/**
 * The battle model for the host's table (TableOptions.battleModel): the host holds the campaign's truth, which the
 * model reads as the forecast's runs do.
 */
export const hostBattleModel: BattleModel = (state, battle, take) =>
  modelResultFromDice(state as CampaignState, (state as CampaignState).battles[battle]!, take);
