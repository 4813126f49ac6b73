import { squareKey } from "../../projections/grid.js";
import type { ArmyState, BattleState, CampaignState } from "../../projections/state.js";
import { armiesOnMap, battlesThisTurn } from "./action-common.js";

/** What stands on the map around a moving army, as the move rules see it. */
export interface Surroundings {
  width: number;
  height: number;
  /** Other armies of the mover's side, by square key. */
  friends: Map<string, ArmyState[]>;
  /** Enemy armies, by square key. */
  enemies: Map<string, ArmyState[]>;
  /** M4: squares where a battle started this turn, by square key. */
  battles: Map<string, BattleState>;
}

export function surroundings(state: CampaignState, mover: ArmyState): Surroundings {
  const { map } = state.setup!;
  const friends = new Map<string, ArmyState[]>();
  const enemies = new Map<string, ArmyState[]>();
  for (const army of armiesOnMap(state)) {
    if (army.id === mover.id) continue;
    const pool = army.player === mover.player ? friends : enemies;
    const key = squareKey(army.at!);
    pool.set(key, [...(pool.get(key) ?? []), army]);
  }
  const battles = new Map(battlesThisTurn(state).map((battle) => [squareKey(battle.at), battle] as const));
  return { width: map.width, height: map.height, friends, enemies, battles };
}
