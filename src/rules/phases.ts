import type { DomainEvent } from "../../events/index.js";
import { addUnits } from "../../projections/units.js";
import { evolveAll } from "../../projections/campaign.js";
import type { CampaignState } from "../../projections/state.js";
import { evolveWorkingCopy, foldInPlace, isWorkingCopy } from "../../projections/working-copy.js";
import { warChestIncome } from "./war-chest-income.js";

/**
 * The last prediction made from each state: the events (the decider's own objects) and the state they led to, kept as
 * long as the state it started from, for foldDecided. A cache only: a fold is a function of the state and the events
 * (a working copy's entry goes when it is folded in place).
 */
const predictions = new WeakMap<CampaignState, { events: readonly DomainEvent[]; state: CampaignState }>();

/** The state as it will be once `events` are written: lets a decider see the consequences of its own events. */
export function predict(state: CampaignState, events: readonly DomainEvent[]): CampaignState {
  // No events leave the state as it is (a fold of none through immer gives the same object; a copy is not needed).
  if (events.length === 0) return state;
  const predicted = fold(state, events);
  predictions.set(state, { events: [...events], state: predicted });
  return predicted;
}

function fold(state: CampaignState, events: readonly DomainEvent[]): CampaignState {
  const evolve = isWorkingCopy(state) ? evolveWorkingCopy : evolveAll;
  return evolve(state, sequenced(state, events));
}

function sequenced(state: CampaignState, events: readonly DomainEvent[]) {
  let seq = state.seq;
  return events.map((event) => ({ ...event, seq: ++seq }));
}

/**
 * The state once a decision's `events` are written, as evolveAll with the next seqs gives it: where the decider already
 * predicted the state after some of those very events, folding goes on from there instead of folding them again. A
 * working copy (projections/working-copy.ts) takes the rest where it stands.
 */
export function foldDecided(state: CampaignState, events: readonly DomainEvent[]): CampaignState {
  let done = 0;
  for (;;) {
    const known = predictions.get(state);
    const same =
      known !== undefined &&
      known.events.length > 0 &&
      known.events.length <= events.length - done &&
      known.events.every((event, k) => event === events[done + k]);
    if (!same) break;
    state = known.state;
    done += known.events.length;
  }
  if (done === events.length) return state;
  const rest = events.slice(done);
  if (!isWorkingCopy(state)) return fold(state, rest);
  // The state changes where it stands: a prediction made from it no longer describes it.
  predictions.delete(state);
  foldInPlace(state, sequenced(state, rest));
  return state;
}

/**
 * T1, E4: the Battle phase is over; the End phase begins with the units sent In Transit before this turn joining the
 * Reserves.
 */
export function beginEndPhase(state: CampaignState, turn: number): DomainEvent[] {
  const events: DomainEvent[] = [{ type: "BattlePhaseEnded", data: { turn } }];
  for (const [player, ledger] of Object.entries(state.ledgers)) {
    const byTurn = new Map<number, Record<string, number>>();
    for (const batch of ledger.inTransit) {
      if (batch.turn >= turn) continue;
      const units = byTurn.get(batch.turn) ?? {};
      addUnits(units, batch.units);
      byTurn.set(batch.turn, units);
    }
    for (const [sentTurn, units] of [...byTurn].sort(([a], [b]) => a - b)) {
      events.push({ type: "TransitArrived", data: { turn, player, sentTurn, units } });
    }
  }
  events.push(...warChestIncome(state, turn));
  return events;
}

/** T5, T1: the Action phase is over; with no battle this turn the Battle phase passes straight to the End phase. */
export function endActionPhase(
  state: CampaignState,
  turn: number,
  withheld: string[],
  notActivated: string[] = [],
): DomainEvent[] {
  const events: DomainEvent[] = [
    { type: "ActionPhaseEnded", data: { turn, withheld, ...(notActivated.length > 0 ? { notActivated } : {}) } },
  ];
  const battles = Object.values(state.battles).some((battle) => battle.turn === turn);
  return battles ? events : [...events, ...beginEndPhase(predict(state, events), turn)];
}
