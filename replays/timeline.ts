/**
 * A readable timeline of a campaign (or branch): one line per event in players' words, prefixed with where it happened:
 * "Turn 3 Action: c4 moves (4,2)->(4,4)". The words are describeEvent's, the same as the log and the event feed use.
 * It shows the log as stored (what `epicwar log` shows without --as): commitments, never a hidden order; or, given
 * the words of a player's view (`epicwar timeline --as PLAYER`), each event as that player may see it.
 */
import { toCurrent } from "../events/index.js";
import { describeEvent } from "../src/words/events.js";
import type { CurrentEvent } from "../events/index.js";
import type { EventStore } from "../src/log/index.js";
import { PlaceTracker, placeLabel, type Place } from "./positions.js";
import type { Replays } from "./replayer.js";

export interface TimelineEntry {
  seq: number;
  /** The turn (0 during set-up) and phase the event belongs to. */
  turn: number;
  phase: Place["phase"];
  /** "Turn 3 Action" or "Set-up". */
  label: string;
  type: string;
  actor: string;
  at: string;
  /** The event in players' words. */
  text: string;
}

export function timelineLine(entry: TimelineEntry): string {
  return `${entry.label}: ${entry.text}`;
}

export interface TimelineOptions {
  /** From the start of this turn (the whole log by default). */
  fromTurn?: number;
  /** Each event in words: as stored by default (describeEvent); a player's view for `--as` (src/cli/commands/viewer.ts). */
  describe?: (event: CurrentEvent) => string;
}

/** The timeline of a stream's line, from the start of turn `fromTurn` (the whole log by default), in batches. */
export async function* timeline(
  store: EventStore,
  replays: Replays,
  stream: string,
  options: TimelineOptions = {},
): AsyncGenerator<TimelineEntry[]> {
  const { describe = describeEvent } = options;
  let from = 1;
  if (options.fromTurn !== undefined && options.fromTurn > 0)
    from = await replays.phaseStart(stream, options.fromTurn, "action");
  const tracker = new PlaceTracker();
  for await (const batch of store.readBatches(stream, from)) {
    yield batch.map((stored) => {
      const event = toCurrent(stored);
      const place = tracker.place(event);
      return {
        seq: event.seq,
        turn: place.turn,
        phase: place.phase,
        label: placeLabel(place),
        type: event.type,
        actor: event.actor,
        at: event.at,
        text: describe(event),
      };
    });
  }
}
