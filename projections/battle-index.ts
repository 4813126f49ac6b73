import type { Draft } from "immer";
import type { BattleState, CampaignState } from "./state.js";

/**
 * Files battle `id` under `turn` in state.battleIdsByTurn and returns its index among that turn's battles (B1): the
 * number of battles of that turn already there. A battle id seen before under another turn (only in a log written
 * outside the rules) moves to its new turn, so the index always lists exactly the battles whose `turn` it is.
 */
export function fileBattle(state: Draft<CampaignState>, id: string, turn: number): number {
  const previousTurn = state.battles[id]?.turn;
  if (previousTurn !== undefined && previousTurn !== turn) {
    const previousIds = state.battleIdsByTurn[previousTurn]!;
    previousIds.splice(previousIds.indexOf(id), 1);
  }
  const ids = (state.battleIdsByTurn[turn] ??= []);
  const index = ids.length;
  if (!ids.includes(id)) ids.push(id);
  return index;
}

/** The battles of one turn, in the order they started, read through the index (only those battles are touched). */
export function battlesOfTurn(state: Draft<CampaignState>, turn: number): Array<Draft<BattleState>> {
  return (state.battleIdsByTurn[turn] ?? []).map((id) => state.battles[id]!);
}
