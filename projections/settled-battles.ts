import type { CurrentEvent, DomainEvent } from "../events/index.js";
import { evolveAll } from "./campaign.js";
import { initialState, type BattleState, type CampaignState } from "./state.js";

type LoggedEvent = Pick<CurrentEvent, "seq"> & DomainEvent;

/**
 * The settled battles: those of the turns before the current one, by id, each as it stood when its turn ended (sheet,
 * kit, result). The campaign state lets go of a turn's battles when the next turn starts; this projection of the same
 * events keeps them, for the reads that show past battles (a battle's sheet, a view of the whole campaign). Nothing
 * that decides a command reads it.
 */
export type SettledBattles = Readonly<Record<string, BattleState>>;

export const noSettledBattles: SettledBattles = Object.freeze({});

/** What folding events gives: the campaign state after them, and the battles settled by then. */
export interface SettledFold {
  state: CampaignState;
  settled: SettledBattles;
}

/**
 * Folds events into the campaign state and its settled battles: the battles the state holds when a TurnStarted comes
 * are settled, before it lets go of them. The settled record is a new object only when a turn's battles join it.
 */
export function evolveSettling({ state, settled }: SettledFold, events: Iterable<LoggedEvent>): SettledFold {
  let pending: LoggedEvent[] = [];
  for (const event of events) {
    if (event.type === "TurnStarted") {
      state = evolveAll(state, pending);
      pending = [];
      settled = settle(settled, state.battles);
    }
    pending.push(event);
  }
  return { state: evolveAll(state, pending), settled };
}

function settle(settled: SettledBattles, battles: Record<string, BattleState>): SettledBattles {
  return Object.keys(battles).length === 0 ? settled : Object.freeze({ ...settled, ...battles });
}

/** A log's events folded from the start, from copies (a fold may write into what it folds). */
export function replaySettling(events: Iterable<LoggedEvent>): SettledFold {
  return evolveSettling({ state: initialState, settled: noSettledBattles }, structuredClone([...events]));
}

/** The battles a log's events settle: those of every turn before its last. */
export function settledBattles(events: Iterable<LoggedEvent>): SettledBattles {
  return replaySettling(events).settled;
}

/** Every battle known at that point: the settled ones and the current turn's (which win where an id is in both). */
export function allBattles(fold: SettledFold): Record<string, BattleState> {
  return Object.keys(fold.settled).length === 0 ? fold.state.battles : { ...fold.settled, ...fold.state.battles };
}
