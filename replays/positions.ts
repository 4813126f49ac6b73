/**
 * Where an event falls in the campaign (turn and phase), and the points of a log a replay can stop at.
 *
 * A position is a seq: the state once events 1..seq are folded in (0 is before the first event). A turn and phase
 * name the position where that phase begins: right after TurnStarted for the Action phase, after ActionPhaseEnded for
 * the Battle phase, after BattlePhaseEnded for the End phase. That is what `epicwar state --turn N --phase P` shows
 * and where `epicwar branch --from-turn N --phase P` forks.
 */
import type { StoredEvent } from "../events/index.js";

export const PHASES = ["action", "battle", "end"] as const;
export type TurnPhase = (typeof PHASES)[number];

/** The part of the campaign an event belongs to: set-up, or a phase of a turn. */
export type Place = { turn: 0; phase: "setup" } | { turn: number; phase: TurnPhase };

export const SETUP: Place = { turn: 0, phase: "setup" };

/** A point of a log: an event's seq, or the start of a phase of a turn (the Action phase when none is given). */
export type Position = { seq: number } | { turn: number; phase?: TurnPhase };

type Typed = Pick<StoredEvent, "type" | "data">;

const turnOf = (event: Typed) => (event.data as { turn: number }).turn;

/** The phase an event opens (its turn and phase), if it opens one: TurnStarted, ActionPhaseEnded, BattlePhaseEnded. */
export function opens(event: Typed): { turn: number; phase: TurnPhase } | undefined {
  switch (event.type) {
    case "TurnStarted":
      return { turn: turnOf(event), phase: "action" };
    case "ActionPhaseEnded":
      return { turn: turnOf(event), phase: "battle" };
    case "BattlePhaseEnded":
      return { turn: turnOf(event), phase: "end" };
    default:
      return undefined;
  }
}

/**
 * Follows the turn and phase along a log. `place(event)` is where the event belongs: an event that ends a phase
 * belongs to the phase it ends ("Turn 3 Action: all orders are in"), TurnStarted to the turn it begins.
 */
export class PlaceTracker {
  constructor(private current: Place = SETUP) {}

  get now(): Place {
    return this.current;
  }

  place(event: Typed): Place {
    if (event.type === "TurnStarted") this.current = { turn: turnOf(event), phase: "action" };
    const at = this.current;
    const opened = event.type === "TurnStarted" ? undefined : opens(event);
    if (opened) this.current = opened;
    else if (event.type === "CampaignStarted") this.current = { turn: turnOf(event), phase: "action" };
    return at;
  }
}

const PHASE_NAMES = { setup: "Set-up", action: "Action", battle: "Battle", end: "End" } as const;

/** "Turn 3 Action", or "Set-up". */
export function placeLabel(place: Place): string {
  return place.phase === "setup" ? PHASE_NAMES.setup : `Turn ${place.turn} ${PHASE_NAMES[place.phase]}`;
}

export function parsePhase(text: string): TurnPhase | undefined {
  const lower = text.toLowerCase();
  return (PHASES as readonly string[]).includes(lower) ? (lower as TurnPhase) : undefined;
}

/** What a replay steps by: one event, one activation (an ArmyActivated and what follows it), one phase. */
export type StepUnit = "event" | "activation" | "phase";

/** Events after which an activation is over: the next activation, or a change of phase. */
export function endsActivation(event: Typed): boolean {
  return event.type === "ArmyActivated" || opens(event) !== undefined || event.type === "CampaignFinished";
}

/** Events whose position (state right after them) is a phase stop: where a phase begins, and the ends of the set-up and of the campaign. */
export function isPhaseStop(event: Typed): boolean {
  return opens(event) !== undefined || event.type === "CampaignStarted" || event.type === "CampaignFinished";
}
