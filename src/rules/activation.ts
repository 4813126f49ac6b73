import type { Square } from "../../events/common.js";
import type { DomainEvent } from "../../events/index.js";
import { sameSquare, squareKey } from "../../projections/grid.js";
import type { CampaignState } from "../../projections/state.js";
import type { CommandOf } from "../engine/command-schemas.js";
import {
  actsThisTurn,
  battlesAwaitingReveal,
  battlesThisTurn,
  nextActivator,
  pendingDefenders,
  requireActionPhase,
} from "./action-common.js";
import { canLeave, checkPath } from "./movement.js";
import { surroundings } from "./surroundings.js";
import { refuseRule, sq } from "./refusal.js";
import { checkActivationAfterScouting } from "./scouting.js";
import { requirePlayer, requirePlayersArmy, requireSetup } from "./guards.js";
import { stepPricing } from "./terrain-costs.js";
import { capturedCity, cityHolder } from "./cities.js";
import { predict } from "./phases.js";
import { revealEvents } from "./reveal.js";

/** What a player held up by the other may do (T5 stall ruling). */
const STALL_HINT = " (if it never comes, the player who owes nothing may claim the stall: ClaimStall)";

/**
 * T3-T5, M1-M5, S7 ruling: a player activates one of its armies with a hidden order (only its commitment is given) and
 * the squares it moves through. What no order could allow is refused here; what the order did not allow is found when
 * it is revealed (src/rules/reveal.ts).
 */
export function decideActivateArmy(state: CampaignState, command: CommandOf<"ActivateArmy">): DomainEvent[] {
  requireSetup(state);
  const player = requirePlayer(state, command.actor);
  const turnState = requireActionPhase(state);
  if (turnState.first === null) refuseRule("T2", `who activates first in turn ${state.turn} has not been chosen yet`);
  const army = requirePlayersArmy(state, player, command.army);
  if (!actsThisTurn(army, state.turn)) {
    refuseRule(
      "T3",
      `army "${army.id}" is not on the map (${army.status === "active" ? "not yet fielded" : army.status}): only armies on the map are activated`,
    );
  }
  if (turnState.activations[army.id])
    refuseRule("T3", `army "${army.id}" has already been activated this turn: each army is activated exactly once`);

  const { path } = command;
  const pending = pendingDefenders(state);
  const engagedIn = pending.find((battle) => battle.defender.army === army.id);
  if (engagedIn) {
    // Engaged-activation ruling: a defender attacked before its own activation gives its order now, out of sequence,
    // and is pinned on its square.
    if (path.length > 0) {
      refuseRule(
        "M3",
        `army "${army.id}" was attacked at ${sq(engagedIn.at)} (battle ${engagedIn.id}) before it was activated: it is pinned there and may not move; give its order with an empty path`,
      );
    }
  } else {
    const waiting = pending[0];
    if (waiting) {
      refuseRule(
        "T5",
        `${waiting.defender.army} must be given its order first: it is the defender of battle ${waiting.id} at ${sq(waiting.at)}${STALL_HINT}`,
      );
    }
    const hidden = battlesAwaitingReveal(state)[0];
    if (hidden) {
      refuseRule(
        "T5",
        `reveal the orders of battle ${hidden.id} first (${hidden.attacker.army} against ${hidden.defender.army} at ${sq(hidden.at)}): both orders are revealed when one army engages the other${STALL_HINT}`,
      );
    }
    const next = nextActivator(state);
    if (next !== player.id)
      refuseRule("T3", `it is ${next}'s turn to activate an army, not ${player.id}'s: players alternate`);
  }
  checkActivationAfterScouting(state, army, command.commitment, path);

  const from = army.at!;
  const rate = army.moveRate;
  const pricing = stepPricing(state.setup!);
  const around = surroundings(state, army);
  const homeBase = state.homeBases[player.id];
  const onHomeBase = homeBase !== undefined && sameSquare(homeBase.at, from);
  const stacked = onHomeBase && around.friends.has(squareKey(from));
  const { defender } = checkPath(around, from, path, rate, pricing);
  const end = path[path.length - 1] ?? from;

  if (stacked && (path.length === 0 || sameSquare(end, from)) && canLeave(around, from, 2 * rate, pricing)) {
    refuseRule(
      "S7",
      `army "${army.id}" starts stacked on its home base ${sq(from)}: it must end its move off the home base, and a legal square allows it`,
    );
  }
  if (path.length > 0) {
    const friends = around.friends.get(squareKey(end));
    if (friends) {
      refuseRule(
        "M2",
        `the move ends on ${sq(end)}, which holds friendly army ${friends.map((f) => f.id).join(", ")}: an army may pass through friends but not end its move on one`,
      );
    }
  }

  const turn = state.turn;
  const events: DomainEvent[] = [
    {
      type: "ArmyActivated",
      data: {
        turn,
        army: army.id,
        player: player.id,
        commitment: command.commitment,
        rate,
        engaged: engagedIn !== undefined,
        stacked,
      },
    },
  ];
  if (path.length > 0) events.push(...moveEvents(state, player.id, army.id, from, path, defender?.id));
  return [...events, ...publicReveal(state, army.id, events)];
}

/** M1, E1, B1: an activated army's move, what it captures on the way, and the battle it starts at its end. */
function moveEvents(
  state: CampaignState,
  player: string,
  army: string,
  from: Square,
  path: Square[],
  defender: string | undefined,
): DomainEvent[] {
  const turn = state.turn;
  const end = path[path.length - 1]!;
  const events: DomainEvent[] = [{ type: "ArmyMoved", data: { turn, army, from, path } }];
  // E1: moving into or through an objective captures it; entering to attack does not (the battle decides, B6).
  events.push(...captures(state, player, army, defender ? path.slice(0, -1) : path, turn));
  if (defender) {
    events.push({
      type: "BattleStarted",
      data: {
        turn,
        battle: `t${turn}b${battlesThisTurn(state).length + 1}`,
        at: end,
        attacker: army,
        defender,
        attackerFrom: path.length > 1 ? path[path.length - 2]! : from,
      },
    });
  }
  return events;
}

/**
 * A3, T5: an army whose order a scouting made public (the scout's Advance, a scouted army's First Fire committed for
 * the +2) is activated with that order revealed: its reveal is recorded with the activation, so no battle waits on it
 * and the Action phase's close finds nothing withheld.
 */
function publicReveal(state: CampaignState, army: string, activated: readonly DomainEvent[]): DomainEvent[] {
  const pledge = state.turnState?.scouting?.pledges[army];
  if (!pledge || pledge.separateReveal) return [];
  const after = predict(state, activated);
  return revealEvents(after, after.turnState!.activations[army]!, pledge.order, pledge.salt);
}

/** E1: the objectives, home bases and (A8) cities an army captures by moving into or through their squares, in path order. */
function captures(
  state: CampaignState,
  player: string,
  army: string,
  squares: readonly Square[],
  turn: number,
): DomainEvent[] {
  const events: DomainEvent[] = [];
  const held = new Map<string, string | null>();
  const take = (key: string, heldBy: string | null, objective: string, kind: "objective" | "homeBase") => {
    const holder = held.has(key) ? held.get(key)! : heldBy;
    if (holder === player) return;
    held.set(key, player);
    events.push({ type: "ObjectiveCaptured", data: { turn, objective, kind, by: player, army, how: "moved" } });
  };
  for (const square of squares) {
    for (const objective of Object.values(state.objectives)) {
      if (sameSquare(objective.at, square))
        take(`objective:${objective.id}`, objective.heldBy, objective.id, "objective");
    }
    for (const home of Object.values(state.homeBases)) {
      if (sameSquare(home.at, square)) take(`homeBase:${home.player}`, home.heldBy, home.player, "homeBase");
    }
    // A8 ruling: a city square is held like an objective.
    const city = `city:${squareKey(square)}`;
    if (capturedCity(state, square) && (held.has(city) ? held.get(city) : cityHolder(state, square)) !== player) {
      held.set(city, player);
      events.push({ type: "CityCaptured", data: { turn, at: square, by: player, army, how: "moved" } });
    }
  }
  return events;
}
