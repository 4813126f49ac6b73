/**
 * Context snapshots: the view context of a line (the campaign state, its settled battles and the armies whose
 * commander a battle killed, src/views/log.ts) as it stood after one seq, kept in the store's snapshot cache beside the
 * state snapshots (replays/snapshots.ts), so that a server's first look at a long line folds only the events after it.
 *
 * One is kept per line, the latest: each new one replaces the one before. Like every snapshot it is a cache of a fold
 * of the log, used only if it is stamped with this engine's REDUCER_VERSION, its line and seq, and the chain hash of
 * the line's event at that seq; anything else is deleted, and the line is folded from its first event instead. It
 * holds only what a fold of the whole log holds, and it is shown to a seat only through the seat's view, as the fold is.
 */
import { toCurrent, type StoredEvent } from "../events/index.js";
import { deepFreeze } from "../projections/freeze.js";
import type { SettledBattles } from "../projections/settled-battles.js";
import type { CampaignState } from "../projections/state.js";
import { SEQ_DIGITS, seqDigits } from "../src/log/layout.js";
import { sha256Hex, type EventStore } from "../src/log/index.js";
import { GrowingViewContext } from "../src/views/log.js";
import type { ViewContext } from "../src/views/secret-field.js";
import { isSnapshotPoint, REDUCER_VERSION, splitSnapshot, type Rejection } from "./snapshots.js";

/** A context snapshot's key: `<line>$<seq, 12 digits>` (`$` sorts before every id character and after `#`). */
const contextKey = (line: string, seq: number) => `${line}$${seqDigits(seq)}`;

/** A line's context at a seq, as a fold of its events up to it gives it. */
export interface ContextAt {
  seq: number;
  context: ViewContext;
}

/** What a context snapshot says about itself, in front of the context. */
interface ContextHeader {
  v: number;
  stream: string;
  seq: number;
  /** The chain hash of the line's event at `seq`. */
  hash: string;
  /** The SHA-256 of the context's JSON: an edit of it, or a write torn in it, is not read as a context. */
  body: string;
}

/** The context as stored: the killed armies as a sorted list. */
interface StoredContext {
  state: CampaignState;
  settled: SettledBattles;
  killed: string[];
}

export class ContextSnapshots {
  /** Counts of what was found unusable and deleted, for tests and the benchmark. */
  readonly rejected: Record<Rejection, number> = { stale: 0, forged: 0, unreadable: 0 };

  constructor(private readonly store: EventStore) {}

  /**
   * The line's latest usable context at a seq up to `atMost`, or undefined (then the line is folded from its start).
   * One found unusable is deleted: it is rebuilt when the line is next kept.
   */
  async latest(line: string, atMost: number): Promise<ContextAt | undefined> {
    const entry = await this.store.snapshots.last(contextKey(line, 1), contextKey(line, atMost));
    if (!entry) return undefined;
    const [key, value] = entry;
    const checked = await this.check(line, Number(key.slice(-SEQ_DIGITS)), value);
    if ("context" in checked) return checked;
    this.rejected[checked.rejected]++;
    // A store that takes no writes (until it is reopened) keeps it for now: it is checked again, and fails again.
    if (!this.store.failure) await this.store.snapshots.del(key);
    return undefined;
  }

  private async check(line: string, seq: number, value: string): Promise<ContextAt | { rejected: Rejection }> {
    let header: ContextHeader;
    let stored: StoredContext;
    try {
      const split = splitSnapshot(value);
      header = split.header as unknown as ContextHeader;
      if (header.v !== REDUCER_VERSION) return { rejected: "stale" };
      if (header.body !== sha256Hex(split.body)) return { rejected: "forged" };
      stored = JSON.parse(split.body) as StoredContext;
    } catch {
      return { rejected: "unreadable" };
    }
    if (header.stream !== line || header.seq !== seq || stored.state?.seq !== seq) return { rejected: "forged" };
    // The chain decides: a context folded on a history that is not this line's (rewritten, or another's) is not it.
    if (header.hash !== (await this.store.hashAt(line, seq))) return { rejected: "forged" };
    return {
      seq,
      context: {
        state: deepFreeze(stored.state),
        settled: deepFreeze(stored.settled),
        killed: new Set(stored.killed),
      },
    };
  }

  /**
   * Keeps the context after `events` (the last events folded into it, in order) when they pass a snapshot point of the
   * schedule (isSnapshotPoint: a phase's end, every thousandth seq), in place of the one before: a write per phase.
   */
  async keep(line: string, events: readonly StoredEvent[], context: ViewContext): Promise<void> {
    const last = events.at(-1);
    // A cache: while the store takes no writes, none is kept, and the reads that would keep one go on.
    if (!last || last.seq !== context.state.seq || !events.some(isSnapshotPoint) || this.store.failure) return;
    const stored: StoredContext = {
      state: context.state,
      settled: context.settled ?? {},
      killed: [...(context.killed ?? [])].sort(),
    };
    const body = JSON.stringify(stored);
    const header: ContextHeader = {
      v: REDUCER_VERSION,
      stream: line,
      seq: last.seq,
      hash: last.hash,
      body: sha256Hex(body),
    };
    await this.store.snapshots.put([{ key: contextKey(line, last.seq), value: `${JSON.stringify(header)}\n${body}` }]);
    if (last.seq > 1)
      await this.store.snapshots.clear({ gte: contextKey(line, 0), lte: contextKey(line, last.seq - 1) });
  }
}

/**
 * The line's context now, as logViewContext gives it for the whole line: its latest context snapshot with the events
 * after it folded in, kept again when they pass a snapshot point.
 */
export async function contextNow(store: EventStore, line: string): Promise<ViewContext> {
  const snapshots = new ContextSnapshots(store);
  const start = await snapshots.latest(line, (await store.head(line)).seq);
  const events = await store.readAll(line, (start?.seq ?? 0) + 1);
  const context = new GrowingViewContext(start?.context).advance(events.map(toCurrent));
  await snapshots.keep(line, events, context);
  return context;
}
