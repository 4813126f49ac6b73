import type { BattleResult, SideResult } from "../../events/common.js";
import type { ArmyState, BattleState, CampaignState } from "../../projections/state.js";
import { battleExtras, titanDamage, type SideExtras } from "./battle-extras.js";
import { seededRandom } from "./rng.js";

/** How an order shapes a side's chances in the demo's scripted battles (the B2 advantages, roughly). */
function orderFactor(battle: BattleState, side: "attacker" | "defender"): number {
  const a = battle.attacker.order ?? "charge";
  const d = battle.defender.order ?? "fortify";
  if (side === "attacker") return a === "advance" && d === "charge" ? 1.1 : 1;
  if (d === "firstFire") return a === "charge" ? 1.4 : 1.2;
  if (d === "fortify") return 0.9 + battle.defences / 5000;
  if (d === "advance" && a === "charge") return 1.1;
  return 1;
}

/** Units lost and routed by one side: each formation loses a share of its units, some are wiped out. */
function casualties(
  army: ArmyState,
  random: () => number,
  share: [number, number],
  wipeChance: number,
  routShare: number,
): Omit<SideResult, "vp"> {
  const losses: SideResult["losses"] = {};
  const routed: SideResult["routed"] = {};
  for (const formation of army.formations) {
    const wiped = random() < wipeChance;
    const fraction = share[0] + random() * (share[1] - share[0]);
    for (const [type, count] of Object.entries(formation.units)) {
      if (count === 0) continue;
      const lost = wiped ? count : Math.min(count, Math.round(count * fraction));
      const fled = Math.floor((count - lost) * routShare);
      if (lost > 0) (losses[formation.id] ??= {})[type] = lost;
      if (fled > 0) (routed[formation.id] ??= {})[type] = fled;
    }
  }
  return { losses, routed };
}

/** A scripted, repeatable result for a demo battle: the stronger side usually wins, orders and luck shift it. */
export function scriptedResult(state: CampaignState, battle: BattleState): BattleResult {
  const random = seededRandom(`${state.campaign}/${battle.id}`);
  const attacker = state.armies[battle.attacker.army]!;
  const defender = state.armies[battle.defender.army]!;
  const extras = battleExtras(state, battle);
  const attackerScore =
    attacker.points * orderFactor(battle, "attacker") * extras.attacker.edge * (0.75 + random() * 0.5);
  const defenderScore =
    defender.points * orderFactor(battle, "defender") * extras.defender.edge * (0.75 + random() * 0.5);
  const margin = Math.abs(attackerScore - defenderScore) / Math.max(attackerScore, defenderScore);
  const outcome = margin < 0.06 ? "draw" : attackerScore > defenderScore ? "attacker" : "defender";
  return resultOf(state, battle, outcome, { attacker: attackerScore, defender: defenderScore }, random, extras);
}

/** B3: the winner's VPs: the battle's VP target and up to 7 more, by a draw `u` in [0, 1). */
export function winnerVp(target: number, u: number): number {
  return target + Math.floor(u * 8);
}

/** The loser's VPs: a tenth of the VP target, and more the closer the two sides' scores were. */
export function loserVp(target: number, scores: { attacker: number; defender: number }): number {
  return Math.floor(
    target * (0.1 + (0.55 * Math.min(scores.attacker, scores.defender)) / Math.max(scores.attacker, scores.defender)),
  );
}

/** Each side's VPs in a draw: half to four fifths of the VP target, by a draw `u` in [0, 1). */
export function drawVp(target: number, u: number): number {
  return Math.floor(target * (0.5 + u * 0.3));
}

/**
 * A battle's result once its outcome is known, from the two sides' scores (the weaker's share of the stronger's sets
 * the loser's VPs): the winner takes the VP target (B3) and up to 7 more, a draw half to four fifths of it each; each
 * side's losses and routs by how it fared. The draws come from `random`, in an order the demo's accounts depend on.
 */
export function resultOf(
  state: CampaignState,
  battle: BattleState,
  outcome: BattleResult["outcome"],
  scores: { attacker: number; defender: number },
  random: () => number,
  extras: ReturnType<typeof battleExtras> = battleExtras(state, battle),
): BattleResult {
  const attacker = state.armies[battle.attacker.army]!;
  const defender = state.armies[battle.defender.army]!;
  const target = battle.vpTarget;
  const strongVp = winnerVp(target, random());
  const weakVp = loserVp(target, scores);
  const side = (army: ArmyState, won: boolean | null): SideResult => {
    if (won === null) return { vp: drawVp(target, random()), ...casualties(army, random, [0.2, 0.4], 0.1, 0.1) };
    return won
      ? { vp: strongVp, ...casualties(army, random, [0.1, 0.3], 0.15, 0) }
      : { vp: weakVp, ...casualties(army, random, [0.4, 0.8], 0.3, 0.5) };
  };
  const attackerWon = outcome === "draw" ? null : outcome === "attacker";
  return {
    outcome,
    attacker: withAdvanced(state, battle, attacker, side(attacker, attackerWon), extras.attacker),
    defender: withAdvanced(
      state,
      battle,
      defender,
      side(defender, attackerWon === null ? null : !attackerWon),
      extras.defender,
    ),
  };
}

/** A7, A8: the side's result with the support it called in and the damage its titans took, when there are any. */
function withAdvanced(
  state: CampaignState,
  battle: BattleState,
  army: ArmyState,
  result: SideResult,
  extras: SideExtras,
): SideResult {
  const damage = titanDamage(state, battle, army, result.losses);
  return {
    ...result,
    ...(Object.keys(damage).length > 0 ? { titanDamage: damage } : {}),
    ...(extras.support.length > 0 ? { support: extras.support } : {}),
  };
}
