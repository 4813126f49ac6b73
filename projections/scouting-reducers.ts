import type { Draft } from "immer";
import type { EventData } from "../events/index.js";
import type { TurnScouting } from "./scouting.js";
import type { CampaignState, TurnState } from "./state.js";

/** A3: the reducers of the scouting events. */

/** The scouting record of the current turn, made on first use (turns without scouting carry none). */
function turnScouting(turn: Draft<TurnState>): Draft<TurnScouting> {
  turn.scouting ??= { scoutings: {}, pledges: {} };
  return turn.scouting;
}

export function scoutingDeclared(state: Draft<CampaignState>, data: EventData<"ScoutingDeclared">, seq: number): void {
  const scouting = turnScouting(state.turnState!);
  scouting.scoutings[data.scouting] = {
    id: data.scouting,
    army: data.army,
    player: data.player,
    target: data.target,
    targetPlayer: state.armies[data.target]!.player,
    seq,
    scoutBonus: data.bonus,
    scoutedBonus: null,
    band: null,
    statedPoints: null,
  };
  scouting.pledges[data.army] = {
    order: data.order,
    commitment: data.commitment,
    salt: data.salt,
    ...(data.separateReveal && { separateReveal: true }),
  };
}

export function scoutingAnswered(state: Draft<CampaignState>, data: EventData<"ScoutingAnswered">): void {
  const scouting = turnScouting(state.turnState!);
  scouting.scoutings[data.scouting]!.scoutedBonus = data.bonus;
  if (data.firstFire && !state.turnState!.activations[data.army]) {
    scouting.pledges[data.army] = {
      order: "firstFire",
      ...data.firstFire,
      ...(data.separateReveal && { separateReveal: true }),
    };
  }
}

export function scoutingRolled(state: Draft<CampaignState>, data: EventData<"ScoutingRolled">): void {
  const turn = state.turnState!;
  turn.diceUsed = data.firstDie + 4 * data.rounds.length;
  turnScouting(turn).scoutings[data.scouting]!.band = data.band;
}

export function armySizeStated(state: Draft<CampaignState>, data: EventData<"ArmySizeStated">): void {
  turnScouting(state.turnState!).scoutings[data.scouting]!.statedPoints = data.points;
}
