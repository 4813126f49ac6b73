import { toCurrent, type StoredEvent } from "../events/index.js";
import { GrowingViewContext } from "../src/views/log.js";
import type { ViewContext } from "../src/views/view.js";
import { opens } from "./positions.js";

/** A turn's moment for its picture: where its Battle phase began, or now for a turn that has not got that far. */
export interface TurnMoment {
  turn: number;
  /** True for the last moment when its turn's Battle phase has not begun: the campaign as it is now. */
  now: boolean;
  context: ViewContext;
}

/**
 * One moment per turn of a line, in order, judged from the log up to it: where the turn's Battle phase began (every
 * army's move of the turn made and its battles to fight, the most telling picture of a turn), and for the turn under
 * way before its Battle phase, the campaign now. Nothing is shown before the first turn begins.
 */
export function* turnMoments(events: readonly StoredEvent[]): Generator<TurnMoment> {
  const growing = new GrowingViewContext();
  let pending: StoredEvent[] = [];
  let lastShown = 0;
  let context: ViewContext | undefined;
  for (const event of events) {
    pending.push(event);
    const opened = opens(event);
    if (opened?.phase !== "battle") continue;
    context = growing.advance(pending.map(toCurrent));
    pending = [];
    lastShown = opened.turn;
    yield { turn: opened.turn, now: false, context };
  }
  if (pending.length > 0) context = growing.advance(pending.map(toCurrent));
  if (context && context.state.turn >= 1 && context.state.turn > lastShown)
    yield { turn: context.state.turn, now: true, context };
}
