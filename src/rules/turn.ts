import { turnToStart, turnUnderWay } from "../../projections/turns.js";
import type { DomainEvent } from "../../events/index.js";
import { turnOfSeedPrint } from "../../projections/seed-prints.js";
import type { CampaignState } from "../../projections/state.js";
import type { CommandOf } from "../engine/command-schemas.js";
import { seedCommitment } from "../crypto/commitments.js";
import {
  requireActionPhase,
  requireActive,
  requireHostActor,
  requireTurnUnderWay,
  unactivatedArmies,
} from "./action-common.js";
import { refuseField, refuseRule } from "./refusal.js";
import { endActionPhase } from "./phases.js";
import { owedItems, stalledCloseAllowed } from "./stall.js";
import { passedDeadline } from "./organiser.js";
import { requirePlayer, requireSetup } from "./guards.js";
import { requireDiceSeeded } from "./line-fork.js";
import { reseeding } from "../../projections/turns.js";

/** T1: the turn a StartTurn begins: turn 1 right after set-up, later turns once the previous one has ended. */
function requireTurnToStart(state: CampaignState): number {
  requireActive(state);
  if (turnUnderWay(state)) {
    refuseRule(
      "T1",
      `turn ${state.turn} is still under way (${state.phase} phase): it must end before turn ${state.turn + 1} starts`,
    );
  }
  return turnToStart(state);
}

/**
 * D1: each player commits to its dice seed for the next turn before the host draws and commits its own, so that no
 * seed can be chosen after another party's is known.
 */
export function decideCommitSeed(state: CampaignState, command: CommandOf<"CommitSeed">): DomainEvent[] {
  const player = requirePlayer(state, command.actor);
  // On a branch whose fork voided the turn's seeds, the players commit afresh to seeds for the turn under way.
  const turn = reseeding(state.turnState) ? state.turn : requireTurnToStart(state);
  if (state.seedCommitments[player.id] !== undefined) {
    refuseRule(
      "D1",
      `${player.id} has already committed to its dice seed for turn ${turn}: it gives that seed once the host has committed`,
    );
  }
  return [{ type: "PlayerSeedCommitted", data: { turn, player: player.id, seedHash: command.seedHash } }];
}

/** T1: the host starts a turn, committing to its dice seed (D1) once every player has committed to its own. */
export function decideStartTurn(state: CampaignState, command: CommandOf<"StartTurn">): DomainEvent[] {
  const setup = requireSetup(state);
  requireHostActor(command.actor);
  const turn = requireTurnToStart(state);
  const uncommitted = setup.players.map((p) => p.id).filter((p) => state.seedCommitments[p] === undefined);
  if (uncommitted.length > 0) {
    refuseRule(
      "D1",
      `the host commits to its dice seed for turn ${turn} after every player has committed to its own (CommitSeed): ${uncommitted.join(" and ")} ${uncommitted.length === 1 ? "has" : "have"} not`,
    );
  }
  const used = turnOfSeedPrint(state.hostSeedPrints, command.hostSeedHash);
  if (used !== null) {
    // A seed revealed at a turn's end is known to the players: used again, the last to give its own seed could choose the dice.
    refuseRule("D1", `the host committed to this dice seed in turn ${used} already: each turn needs a fresh seed`);
  }
  return [{ type: "TurnStarted", data: { turn, hostSeedHash: command.hostSeedHash } }];
}

/** D1: each player gives its dice seed once per turn, after the host's commitment and before initiative: the one it committed to. */
export function decideGiveSeed(state: CampaignState, command: CommandOf<"GiveSeed">): DomainEvent[] {
  const player = requirePlayer(state, command.actor);
  // On a branch whose fork voided the turn's seeds, the fresh ones are given in whatever phase the fork fell.
  const forked = state.turnState?.forked;
  const turn = forked ? requireTurnUnderWay(state, "D1") : requireActionPhase(state);
  if (reseeding(turn))
    refuseRule(
      "D1",
      `turn ${state.turn}'s seeds are being made afresh on this branch: a seed is given once the host has reseeded the turn`,
    );
  if (turn.playerSeeds[player.id] !== undefined)
    refuseRule("D1", `${player.id} has already given its dice seed for turn ${state.turn}`);
  if (turn.initiativeWinner !== null && !forked)
    refuseRule("T2", `initiative for turn ${state.turn} has already been rolled`);
  const committed = turn.playerSeedHashes[player.id];
  if (committed === undefined)
    refuseRule(
      "D1",
      `${player.id} made no seed commitment before turn ${state.turn} started, so it can give no seed for it`,
    );
  if (seedCommitment(command.seed) !== committed) {
    refuseRule(
      "D1",
      `this seed does not hash to ${player.id}'s commitment for turn ${state.turn} (${committed.slice(0, 16)}...): give the seed committed to`,
    );
  }
  return [{ type: "PlayerSeedGiven", data: { turn: state.turn, player: player.id, seed: command.seed } }];
}

/** T2: each player rolls a d6, ties rerolled. The host records the rounds it drew; their form is checked here. */
export function decideRollInitiative(state: CampaignState, command: CommandOf<"RollInitiative">): DomainEvent[] {
  const setup = requireSetup(state);
  requireHostActor(command.actor);
  const turn = requireActionPhase(state);
  if (turn.initiativeWinner !== null)
    refuseRule("T2", `initiative for turn ${state.turn} has already been rolled: ${turn.initiativeWinner} won it`);
  requireDiceSeeded(state);
  const players = setup.players.map((p) => p.id);
  const missing = players.filter((p) => turn.playerSeeds[p] === undefined);
  if (missing.length > 0)
    refuseRule(
      "T2",
      `initiative is rolled once both players have given their dice seeds (D1): ${missing.join(" and ")} has not`,
    );

  const { rounds } = command;
  rounds.forEach((round, i) => {
    const named = Object.keys(round);
    const strangers = named.filter((p) => !players.includes(p));
    if (strangers.length > 0)
      refuseRule("T2", `round ${i + 1} gives a die to ${strangers.join(", ")}, who is not a player`);
    const without = players.filter((p) => round[p] === undefined);
    if (without.length > 0)
      refuseRule("T2", `round ${i + 1} gives no die to ${without.join(" and ")}: each player rolls one d6 a round`);
    const values = players.map((p) => round[p]!);
    const tie = new Set(values).size !== values.length;
    const last = i === rounds.length - 1;
    if (!last && !tie)
      refuseRule("T2", `round ${i + 1} (${describeRound(players, round)}) is not a tie, so no round may follow it`);
    if (last && tie) refuseRule("T2", `the last round (${describeRound(players, round)}) is a tie: ties are rerolled`);
  });
  const final = rounds[rounds.length - 1]!;
  const winner = players.reduce((best, p) => (final[p]! > final[best]! ? p : best));
  return [{ type: "InitiativeRolled", data: { turn: state.turn, firstDie: turn.diceUsed, rounds, winner } }];
}

function describeRound(players: readonly string[], round: Record<string, number>): string {
  return players.map((p) => `${p} ${round[p]}`).join(", ");
}

/** T2: the initiative winner chooses who activates first, once. */
export function decideChooseFirst(state: CampaignState, command: CommandOf<"ChooseFirst">): DomainEvent[] {
  const setup = requireSetup(state);
  const player = requirePlayer(state, command.actor);
  const turn = requireActionPhase(state);
  if (turn.initiativeWinner === null) refuseRule("T2", `initiative for turn ${state.turn} has not been rolled yet`);
  if (turn.first !== null)
    refuseRule("T2", `${turn.initiativeWinner} has already chosen: ${turn.first} activates first this turn`);
  if (player.id !== turn.initiativeWinner) {
    refuseRule(
      "T2",
      `only the initiative winner (${turn.initiativeWinner}) chooses who activates first, not ${player.id}`,
    );
  }
  if (!setup.players.some((p) => p.id === command.first))
    refuseField("first", `"${command.first}" is not a player of this campaign`);
  return [{ type: "FirstPlayerChosen", data: { turn: state.turn, chosenBy: player.id, first: command.first } }];
}

/**
 * T5: the host ends the Action phase once every army has been activated; armies whose orders are still hidden are
 * recorded as withheld (a T5 violation each). Stall ruling: while the phase waits on a claimed stall, or on anything
 * once its deadline has passed at the command's recorded time `at` (O2), the host may end it before: the attacked
 * armies that never gave their order are withheld too, and the armies the stall kept from activating are recorded as
 * not activated. Closed at the deadline, the phase first records who it waited on.
 */
export function decideCloseActionPhase(
  state: CampaignState,
  command: CommandOf<"CloseActionPhase">,
  at: string,
): DomainEvent[] {
  requireSetup(state);
  requireHostActor(command.actor);
  const turn = requireActionPhase(state);
  if (turn.first === null) refuseRule("T2", `who activates first in turn ${state.turn} has not been chosen yet`);
  const hidden = Object.values(turn.activations)
    .filter((activation) => activation.order === null)
    .sort((a, b) => a.seq - b.seq)
    .map((activation) => activation.army);
  const waiting = unactivatedArmies(state);
  if (waiting.length === 0) return endActionPhase(state, state.turn, hidden);
  const stall = stalledCloseAllowed(state);
  const deadline = stall.allowed ? undefined : passedDeadline(state, at);
  if (!stall.allowed && deadline === undefined) {
    const list = waiting.map((army) => `${army.id} (${army.player})`).join(", ");
    const set = turn.actionDeadline;
    refuseRule(
      "T3",
      `every army is activated once a turn before the Action phase ends: ${list} ${waiting.length === 1 ? "has" : "have"} not been; and ${stall.reason}` +
        (set === undefined ? "" : `; or the host closes it once its deadline, ${set}, has passed (O2)`),
    );
  }
  const owed = stall.allowed ? stall.owed : owedItems(state);
  const neverGiven = owed.filter((item) => item.owes === "order");
  // An attacker whose defender never gave its order could not reveal its own (T5): no breach of its player.
  const couldNotReveal = new Set(neverGiven.map((item) => state.battles[item.battle]!.attacker.army));
  // A3: a First Fire a scouting made public is revealed; its battle has it, so its army is only kept from activating.
  const publicOrder = (army: string) => {
    const pledge = turn.scouting?.pledges[army];
    return pledge !== undefined && !pledge.separateReveal;
  };
  const withheldOrders = neverGiven.filter((item) => !publicOrder(item.army)).map((item) => item.army);
  const withheld = [...hidden.filter((army) => !couldNotReveal.has(army)), ...withheldOrders];
  const notActivated = waiting.filter((army) => !withheldOrders.includes(army.id));
  const ended = endActionPhase(
    state,
    state.turn,
    withheld,
    notActivated.map((army) => army.id),
  );
  if (deadline === undefined) return ended;
  const waitedOn = notActivated.map((army) => ({ army: army.id, player: army.player }));
  return [
    { type: "ActionDeadlineEnforced", data: { turn: state.turn, deadline, owed, notActivated: waitedOn } },
    ...ended,
  ];
}
