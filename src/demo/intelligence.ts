import { scoutingOf } from "../../projections/scouting.js";
import type { ArmyState, CampaignState } from "../../projections/state.js";

/**
 * How large `army`'s commander believes `enemy` to be: the size a scouting by this army told this turn (A3), bluff
 * and all; else its true size. The scripted commanders play both sides, so they do not pretend to a fog of war (A2)
 * they cannot have; a scouting's answer is the one thing that changes their minds.
 */
export function believedPoints(state: CampaignState, army: ArmyState, enemy: ArmyState): number {
  const told = scoutingOf(state.turnState, army.id, enemy.id)?.statedPoints;
  return told ?? enemy.points;
}
