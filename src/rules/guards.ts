import type { ArmyState, CampaignSetup, CampaignState, PlayerState, TurnState } from "../../projections/state.js";
import { refuseField, refuseRule } from "./refusal.js";

/** The guards that many deciders share: a campaign set up, a player of it, the player's own army, the End phase. */

export function requireSetup(state: CampaignState): CampaignSetup {
  if (!state.setup) refuseField("campaign", "no campaign has been created here yet");
  return state.setup;
}

export function requirePlayer(state: CampaignState, actor: string): PlayerState {
  const player = requireSetup(state).players.find((p) => p.id === actor);
  if (!player)
    refuseField(
      "actor",
      `"${actor}" is not a player of this campaign (the players are ${state.setup!.players.map((p) => p.id).join(", ")})`,
    );
  return player;
}

/** An army of the campaign that belongs to `player`. */
export function requirePlayersArmy(state: CampaignState, player: PlayerState, id: string): ArmyState {
  const army = state.armies[id];
  if (!army) refuseField("army", `no army "${id}"`);
  if (army.player !== player.id) refuseField("actor", `army "${army.id}" belongs to ${army.player}, not ${player.id}`);
  return army;
}

/** One of the player's armies still on the map. */
export function requireOwnArmy(state: CampaignState, player: PlayerState, id: string, rule: string): ArmyState {
  const army = requirePlayersArmy(state, player, id);
  if (army.status !== "active") refuseRule(rule, `army "${army.id}" was ${army.status}: it is no longer on the map`);
  return army;
}

export function requireEndPhase(state: CampaignState, what: string): TurnState {
  if (state.status !== "active" || !state.turnState) refuseRule("T1", `${what} only in the End phase of a turn`);
  if (state.phase !== "end")
    refuseRule("T1", `${what} only in the End phase; turn ${state.turn} is in the ${state.phase} phase`);
  if (state.turnState.hostSeed !== null)
    refuseRule("T1", `turn ${state.turn} has ended; ${what} in the End phase of the next turn`);
  return state.turnState;
}

/** A player acting in its End phase, not yet finished with it. */
export function requireEndPhasePlayer(state: CampaignState, actor: string, rule: string, what: string): PlayerState {
  const turn = requireEndPhase(state, what);
  const player = requirePlayer(state, actor);
  if (turn.endPhaseDone.includes(player.id))
    refuseRule(rule, `${player.id} has finished its End phase of turn ${state.turn}`);
  return player;
}
