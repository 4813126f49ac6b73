import type { CampaignState } from "../projections/state.js";

/** A commander is known to the enemy once killed (S8): its unit type is gone from its formation. */
export function commanderKilled(state: CampaignState, armyId: string): boolean {
  const army = state.armies[armyId];
  if (!army) return false;
  const formation = army.formations.find((f) => f.id === army.commander.formation);
  return (formation?.units[army.commander.unitType] ?? 0) === 0;
}

/**
 * What a player may see of the campaign state: everything the log shows, less the other side's secrets —
 * the identity of its commanders while they live (S8). Orders are in the state only once revealed.
 */
export function viewState(state: CampaignState, viewer: string | undefined): CampaignState {
  if (viewer === undefined) return state;
  const armies = Object.fromEntries(
    Object.entries(state.armies).map(([id, army]) =>
      army.player === viewer || commanderKilled(state, id) ? [id, army] : [id, { ...army, commander: { formation: "hidden", unitType: "hidden" } }],
    ),
  );
  return { ...state, armies };
}
