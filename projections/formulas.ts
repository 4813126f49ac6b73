import type { VpTableRow } from "../events/common.js";

/** The campaign's formulas (S2-S5, B3, E2), shared by reducers and rules, so both agree. */

/** S5: move rate by army points. */
export function moveRate(points: number): number {
  if (points <= 3000) return 3;
  if (points < 6000) return 2;
  return 1;
}

/** S2: F = M x N. */
export function campaignForce(maxArmyPoints: number, armies: number): number {
  return maxArmyPoints * armies;
}

/** S3: the CVPs a side needs to win. */
export function cvpTarget(force: number): number {
  return Math.round(force / 100);
}

export interface AwardTable {
  /** k = F / 10,000 */
  k: number;
  objective: number;
  homeBase: number;
  draw: number;
  win: number;
  overwhelming: number;
}

/** S4: the k-based CVP awards, each rounded half up to a whole CVP. */
export function awardTable(force: number): AwardTable {
  const k = force / 10000;
  const award = (multiple: number) => Math.floor(multiple * k + 0.5);
  return { k, objective: award(5), homeBase: award(10), draw: award(1), win: award(2), overwhelming: award(3) };
}

/** B3: the VPs needed to win a battle of this average size: the campaign's table, or 10 x ceil(average / 1,000) + 5. */
export function vpTarget(averagePoints: number, table?: readonly VpTableRow[]): number {
  if (table && table.length > 0) return (table.find((row) => averagePoints <= row.upTo) ?? table[table.length - 1]!).vp;
  return 10 * Math.ceil(averagePoints / 1000) + 5;
}

/** S4: a win is overwhelming when the winner's VPs are at least 1.5 x the loser's (or the loser has none and the winner some). */
export function isOverwhelming(winnerVp: number, loserVp: number): boolean {
  if (loserVp === 0) return winnerVp > 0;
  return winnerVp * 2 >= loserVp * 3;
}
