import type { Draft } from "immer";
import type { CurrentEvent, DomainEvent } from "../events/index.js";
import { applyEvent } from "./campaign.js";
import { deepFreeze } from "./freeze.js";
import type { CampaignState } from "./state.js";

/**
 * Working copies: states that one holder alone keeps and changes, such as a forecast's run, folded where they stand
 * instead of copied and frozen at every event as the engine's states are (evolveAll). The same event handlers fold
 * both, so a working copy holds what the immutable fold of the same events would. A copy of the state's plain data
 * takes a tenth of the time of a fold through immer's drafts for a state of Ashfall's size (docs/performance.md).
 */
const workingCopies = new WeakSet<CampaignState>();

/**
 * A working copy of `state`. The set-up is shared, not copied: no event changes it once the campaign is created, and it
 * is frozen here if it is not already (a state passed to a worker thread arrives unfrozen), as the engine's states are.
 *
 * A working copy is known by its identity: a spread of one is a plain state, and immer (evolveAll) would freeze the
 * parts it shares with the copy. Squares and commanders are shared between places in a state, as immer shares them:
 * no handler changes one in place.
 */
export function workingCopy(state: CampaignState): CampaignState {
  const copy = { ...(copyData({ ...state, setup: null }) as CampaignState), setup: deepFreeze(state.setup) };
  workingCopies.add(copy);
  return copy;
}

export function isWorkingCopy(state: CampaignState): boolean {
  return workingCopies.has(state);
}

type Sequenced = Pick<CurrentEvent, "seq"> & DomainEvent;

/**
 * Folds the events into the working copy itself. As with evolveAll, the events' objects become part of the state, and
 * a later event changes them there: they are the copy's from then on.
 */
export function foldInPlace(state: CampaignState, events: Iterable<Sequenced>): void {
  for (const event of events) applyEvent(state as Draft<CampaignState>, event);
}

/** The state the events lead to from a working copy, as a working copy of its own: `state` is left as it was. */
export function evolveWorkingCopy(state: CampaignState, events: Iterable<Sequenced>): CampaignState {
  const next = workingCopy(state);
  foldInPlace(next, events);
  return next;
}

/** A copy of JSON-like data (a state is: it is written to snapshots as JSON), every object and array new. */
function copyData(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(copyData);
  const copy: Record<string, unknown> = {};
  for (const key in value) copy[key] = copyData((value as Record<string, unknown>)[key]);
  return copy;
}
