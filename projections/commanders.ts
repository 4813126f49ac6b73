import type { Draft } from "immer";
import type { Commander } from "../events/common.js";
import type { ArmyState, CampaignState } from "./state.js";

/** A6 reducers: an army's commander level, and the spare commanders of a player. */

export function appointCommander(
  state: Draft<CampaignState>,
  data: { army: string; player: string; commander: Commander; level: number; formerArmy?: string | undefined },
): void {
  const army = state.armies[data.army]!;
  army.commander = data.commander;
  army.commanderLevel = data.level;
  if (data.formerArmy === undefined) return;
  const ledger = state.ledgers[data.player]!;
  ledger.spareCommanders = (ledger.spareCommanders ?? []).filter((spare) => spare.army !== data.formerArmy);
}

/** The army has no commander: killed in battle, or stood down (into the spares when it lives). */
export function relieveCommander(state: Draft<CampaignState>, armyId: string): void {
  state.armies[armyId]!.commanderLevel = null;
}

export function standDownCommander(
  state: Draft<CampaignState>,
  data: { army: string; player: string; commander: Commander; level: number },
): void {
  relieveCommander(state, data.army);
  const ledger = state.ledgers[data.player]!;
  (ledger.spareCommanders ??= []).push({ army: data.army, unitType: data.commander.unitType, level: data.level });
}

/**
 * A6, S8: whether the last battle left no unit of the commander's type in the commander's formation: it is dead. Read
 * here, with ownersCommander, so that no rule reads a commander but for its owner's events (src/rules never quotes
 * one in a refusal).
 */
export function commanderFell(army: ArmyState): boolean {
  const formation = army.formations.find((f) => f.id === army.commander.formation);
  return formation === undefined || (formation.units[army.commander.unitType] ?? 0) === 0;
}

/** The army's commander, for events its owner alone sees until the commander dies (src/views/commanders.ts). */
export function ownersCommander(army: ArmyState): Commander {
  return army.commander;
}
