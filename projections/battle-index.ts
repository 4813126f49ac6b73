import type { Draft } from "immer";
import type { BattleState, CampaignState } from "./state.js";

/**
 * The index of a battle starting in `turn` among that turn's battles (B1): how many the state already has. The state
 * holds only the current turn's battles, so this looks at a handful at most.
 */
export function battleIndex(state: Draft<CampaignState>, turn: number): number {
  return Object.values(state.battles).filter((battle) => battle.turn === turn).length;
}

/** The battles of one turn in the state, in the order they started. */
export function battlesOfTurn(state: Draft<CampaignState>, turn: number): Array<Draft<BattleState>> {
  return Object.values(state.battles)
    .filter((battle) => battle.turn === turn)
    .sort((a, b) => a.index - b.index);
}
