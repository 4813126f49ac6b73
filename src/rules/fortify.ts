import type { FortifyBuilds } from "../../events/common.js";
import type { DomainEvent } from "../../events/index.js";
import { sameSquare } from "../../projections/grid.js";
import type { ActivationState, CampaignSetup, CampaignState } from "../../projections/state.js";

/** E3: the points of defences a Fortify order builds. */
export const FORTIFY_DEFENCES = 450;

/** E3 timing: the campaign's option, the ruling (from the activation) unless it chose the End phase. */
export function fortifyBuilds(setup: CampaignSetup): FortifyBuilds {
  return setup.options.fortifyBuilds ?? "fromActivation";
}

/**
 * E3: the defences an activation revealed as Fortify builds, if its army still stands where it was activated: an army
 * that moved did not fortify (T4 records the breach), and one gone from the map builds nothing any more.
 */
export function defencesBuilt(state: CampaignState, activation: ActivationState): DomainEvent[] {
  const army = state.armies[activation.army];
  const at = activation.from;
  if (!army || at === null || army.status !== "active" || army.at === null || !sameSquare(army.at, at)) return [];
  return [
    {
      type: "DefencesBuilt",
      data: { turn: state.turn, at, army: army.id, player: army.player, points: FORTIFY_DEFENCES },
    },
  ];
}
