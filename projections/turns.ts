import type { CampaignState, TurnState } from "./state.js";

/** T1: whether a turn is under way: started, and its host seed not yet revealed at its end. */
export function turnUnderWay(state: Pick<CampaignState, "turnState">): boolean {
  return state.turnState !== null && state.turnState.hostSeed === null;
}

/** T1: the turn the next StartTurn begins: turn 1 right after set-up, else the one after the last ended turn. */
export function turnToStart(state: Pick<CampaignState, "turnState" | "turn">): number {
  return state.turnState === null ? state.turn : state.turn + 1;
}

/** D1 on a branch: the turn's seeds were voided by the fork (LineForked) and the host has not yet reseeded it. */
export function reseeding(turn: Pick<TurnState, "forked"> | null): boolean {
  return turn?.forked?.reseeded === false;
}
