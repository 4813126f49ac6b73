import { HOST } from "../../events/common.js";
import type { DomainEvent, EventOf } from "../../events/index.js";
import { turnOfSeedPrint } from "../../projections/seed-prints.js";
import type { CampaignState } from "../../projections/state.js";
import { reseeding, turnToStart, turnUnderWay } from "../../projections/turns.js";
import type { CommandOf } from "../engine/command-schemas.js";
import { requireActionPhase, requireHostActor, requireTurnUnderWay } from "./action-common.js";
import { requirePlayer, requirePlayersArmy, requireSetup } from "./guards.js";
import { refuseRule } from "./refusal.js";

/**
 * A branch is a new line of play (docs/replays.md): no secret of its parent line reaches it. Whatever was committed on
 * the parent and is still secret at the fork is void on the branch, and made afresh there by the party it belongs to:
 * the turn's dice seeds in D1's order (players, then the host, then the players give theirs), each hidden order by
 * its player (T5). ForkLine is the host's declaration of what is void, the branch's first event.
 */

/** What a fork at this state leaves void: undefined when no commitment is open. */
export function openAtFork(state: CampaignState): EventOf<"LineForked"> | undefined {
  const players = state.setup?.players.map((p) => p.id) ?? [];
  const turn = state.turnState;
  if (turn && turnUnderWay(state)) {
    const voidedOrders =
      state.phase === "action"
        ? Object.values(turn.activations)
            .filter((activation) => activation.order === null)
            .sort((a, b) => a.seq - b.seq)
            .map(({ army, player }) => ({ army, player }))
        : [];
    return {
      type: "LineForked",
      data: { turn: state.turn, fromDie: turn.diceUsed, voidedSeeds: [HOST, ...players], voidedOrders },
    };
  }
  const committed = players.filter((player) => state.seedCommitments[player] !== undefined);
  if (committed.length === 0) return undefined;
  return {
    type: "LineForked",
    data: { turn: turnToStart(state), fromDie: 0, voidedSeeds: committed, voidedOrders: [] },
  };
}

/** D1, T5: the host declares what the fork leaves void; refused where nothing is open, as a fork needs nothing then. */
export function decideForkLine(state: CampaignState, command: CommandOf<"ForkLine">): DomainEvent[] {
  requireSetup(state);
  requireHostActor(command.actor);
  const forked = openAtFork(state);
  if (!forked)
    refuseRule("D1", "no commitment is open here (no turn under way, no seed committed): a fork here voids nothing");
  if (state.turnState?.forked && !state.turnState.forked.reseeded)
    refuseRule("D1", `turn ${state.turn}'s seeds are already void here: the host reseeds it once the players commit`);
  return [forked];
}

/** D1 on a branch: the host commits to a fresh seed for the turn the fork voided, once every player has. */
export function decideReseedTurn(state: CampaignState, command: CommandOf<"ReseedTurn">): DomainEvent[] {
  const setup = requireSetup(state);
  requireHostActor(command.actor);
  const turn = requireTurnUnderWay(state, "D1");
  if (!reseeding(turn))
    refuseRule("D1", `turn ${state.turn}'s seeds are in force: only a turn a fork voided the seeds of is reseeded`);
  const uncommitted = setup.players.map((p) => p.id).filter((p) => state.seedCommitments[p] === undefined);
  if (uncommitted.length > 0)
    refuseRule(
      "D1",
      `the host commits to its fresh seed for turn ${state.turn} after every player has committed to its own (CommitSeed): ${uncommitted.join(" and ")} ${uncommitted.length === 1 ? "has" : "have"} not`,
    );
  const used = turnOfSeedPrint(state.hostSeedPrints, command.hostSeedHash);
  if (used !== null)
    refuseRule("D1", `the host committed to this dice seed in turn ${used} already: each seed is fresh`);
  return [
    {
      type: "TurnReseeded",
      data: { turn: state.turn, hostSeedHash: command.hostSeedHash, fromDie: turn.forked!.fromDie },
    },
  ];
}

/** T5 on a branch: a player commits afresh to the order of its army whose order the fork voided. */
export function decideRecommitOrder(state: CampaignState, command: CommandOf<"RecommitOrder">): DomainEvent[] {
  const player = requirePlayer(state, command.actor);
  const turn = requireActionPhase(state, "T5");
  const army = requirePlayersArmy(state, player, command.army);
  if (!turn.activations[army.id]?.voided)
    refuseRule(
      "T5",
      `army "${army.id}" has no order the fork voided: only an order committed on the parent line and hidden at the fork is committed again`,
    );
  return [
    {
      type: "OrderRecommitted",
      data: { turn: state.turn, army: army.id, player: player.id, commitment: command.commitment },
    },
  ];
}

/** D1: no die of a turn is drawn while a fork has its seeds being made afresh: every party's must be fixed first. */
export function requireDiceSeeded(state: CampaignState): void {
  const turn = state.turnState;
  if (!turn?.forked) return;
  const missing = (state.setup?.players ?? []).map((p) => p.id).filter((p) => turn.playerSeeds[p] === undefined);
  if (!turn.forked.reseeded || missing.length > 0)
    refuseRule(
      "D1",
      `turn ${state.turn}'s dice from die ${turn.forked.fromDie} on are drawn from the seeds made afresh on this branch: ${turn.forked.reseeded ? `${missing.join(" and ")} must give its seed first` : "the players commit and the host reseeds first"}`,
    );
}
