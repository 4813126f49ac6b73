import { HOST } from "../../events/common.js";
import type { ArmyState, BattleState, CampaignSetup, CampaignState, TurnState } from "../../projections/state.js";
import { refuseField, refuseRule } from "./refusal.js";
import { requireSetup } from "./guards.js";

/** Helpers shared by the turn, activation and reveal deciders (T1-T5). */

export { ORDER_NAMES } from "../words/orders.js";

export function requireHostActor(actor: string): void {
  if (actor !== HOST) refuseField("actor", `only the host may do this, not "${actor}"`);
}

/** T1: the campaign is under way (set-up is over). */
export function requireActive(state: CampaignState, rule = "T1"): CampaignSetup {
  const setup = requireSetup(state);
  if (state.status !== "active")
    refuseRule(rule, "the campaign has not started yet: turns begin once set-up is complete");
  return setup;
}

/** T1: a turn has been started by the host and has not ended. */
export function requireTurnUnderWay(state: CampaignState, rule = "T1"): TurnState {
  requireActive(state, rule);
  const turn = state.turnState;
  if (turn === null) refuseRule(rule, `turn ${state.turn} has not started: the host starts it first`);
  if (turn.hostSeed !== null)
    refuseRule(rule, `turn ${state.turn} is over: the host starts turn ${state.turn + 1} first`);
  return turn;
}

/** T1: the turn is in its Action phase. */
export function requireActionPhase(state: CampaignState, rule = "T1"): TurnState {
  const turn = requireTurnUnderWay(state, rule);
  if (state.phase !== "action")
    refuseRule(rule, `the Action phase of turn ${state.turn} is over (now the ${state.phase} phase)`);
  return turn;
}

/** An army that stands on the map and may act this turn (T3). */
export function actsThisTurn(army: ArmyState, turn: number): boolean {
  return army.status === "active" && army.at !== null && army.sinceTurn <= turn;
}

/** Every army standing on a square of the map. */
export function armiesOnMap(state: CampaignState): ArmyState[] {
  return Object.values(state.armies).filter((army) => army.status === "active" && army.at !== null);
}

/** The armies that must still be activated this turn (T3). */
export function unactivatedArmies(state: CampaignState): ArmyState[] {
  const activations = state.turnState?.activations ?? {};
  return Object.values(state.armies).filter((army) => actsThisTurn(army, state.turn) && !activations[army.id]);
}

/** What the battle rules below read of a battle: a player's view of the state holds these too (src/views/view.ts). */
export type BattleSides = Pick<BattleState, "id" | "turn" | "index"> & {
  attacker: Pick<BattleState["attacker"], "army" | "player">;
  defender: Pick<BattleState["defender"], "army" | "player">;
};

/** What the battle rules below read of the state. */
export type BattleTurn<B extends BattleSides> = Pick<CampaignState, "turn" | "turnState"> & {
  battles: Record<string, B>;
};

/** Battles started in the current turn, in the order they started (B1). */
export function battlesThisTurn<B extends BattleSides>(state: BattleTurn<B>): B[] {
  return Object.values(state.battles)
    .filter((battle) => battle.turn === state.turn)
    .sort((a, b) => a.index - b.index);
}

/** Engaged-activation ruling: defenders of this turn's battles that have not been activated yet. */
export function pendingDefenders<B extends BattleSides>(state: BattleTurn<B>): B[] {
  const activations = state.turnState?.activations ?? {};
  // On a branch, a defender whose order the fork voided commits again before the attack is revealed.
  return battlesThisTurn(state).filter(
    (battle) => !activations[battle.defender.army] || activations[battle.defender.army]!.voided,
  );
}

/** T5: battles of this turn where an activated army's order is still hidden. */
export function battlesAwaitingReveal<B extends BattleSides>(state: BattleTurn<B>): B[] {
  const activations = state.turnState?.activations ?? {};
  return battlesThisTurn(state).filter((battle) =>
    [battle.attacker.army, battle.defender.army].some((army) => {
      const activation = activations[army];
      return activation !== undefined && activation.order === null;
    }),
  );
}

/**
 * T3 alternation with the run-out ruling: the player to make the next regular activation. `first` opens; after that
 * the other player than the last one to activate, unless it has no army left to activate, in which case the same
 * player goes on. Null when nobody has an army left (or first has not been chosen).
 */
export function alternation(input: {
  players: readonly string[];
  first: string | null;
  lastActivator: string | null;
  /** Per player, how many of its armies still await activation. */
  remaining: Readonly<Record<string, number>>;
}): string | null {
  const { players, first, lastActivator, remaining } = input;
  if (first === null) return null;
  const left = (player: string) => (remaining[player] ?? 0) > 0;
  const candidate = lastActivator === null ? first : players.find((p) => p !== lastActivator)!;
  if (left(candidate)) return candidate;
  const other = players.find((p) => p !== candidate)!;
  return left(other) ? other : null;
}

/** T3: who makes the next regular (not engaged) activation in the current state. */
export function nextActivator(state: CampaignState): string | null {
  const setup = requireSetup(state);
  const turn = state.turnState;
  if (!turn) return null;
  const remaining: Record<string, number> = {};
  for (const army of unactivatedArmies(state)) remaining[army.player] = (remaining[army.player] ?? 0) + 1;
  return alternation({
    players: setup.players.map((p) => p.id),
    first: turn.first,
    lastActivator: turn.lastActivator,
    remaining,
  });
}
