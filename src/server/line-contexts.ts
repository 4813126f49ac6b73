import { toCurrent, type StoredEvent } from "../../events/index.js";
import type { CampaignState } from "../../projections/state.js";
import type { EventStore } from "../log/index.js";
import { ContextSnapshots, type ContextAt } from "../../replays/context-snapshots.js";
import { GrowingViewContext } from "../views/log.js";
import type { ViewContext } from "../views/secret-field.js";

interface Kept {
  growing: GrowingViewContext;
  seq: number;
  context: ViewContext;
}

/**
 * The view context of each line the server has been asked about (logViewContext: the campaign now, and the commanders
 * battles have killed), kept between requests and advanced with only the events appended since. Judging a player's
 * view from the whole line on every command and every read made each cost as much as the campaign was long.
 */
export class LineContexts {
  /** Per stream, the context as last advanced; each advance waits for the one before it, so none folds twice. */
  private readonly lines = new Map<string, Promise<Kept>>();

  private readonly snapshots: ContextSnapshots;

  constructor(private readonly store: EventStore) {
    this.snapshots = new ContextSnapshots(store);
  }

  private start(at: ContextAt | undefined): Kept {
    const growing = new GrowingViewContext(at?.context);
    return { growing, seq: at?.seq ?? 0, context: growing.advance([]) };
  }

  /**
   * The context of the stream's line as it stands now. `known`: events of the line the caller holds, in order (those
   * it just wrote); where they follow what was folded last, they are not read again. `folded`: the state after them,
   * where the caller has it (the engine's live state): taken as it is instead of folding them a second time.
   */
  now(stream: string, known: readonly StoredEvent[] = [], folded?: CampaignState): Promise<ViewContext> {
    // A read that failed leaves nothing half-folded behind: the next request starts the line again.
    const previous = this.lines.get(stream)?.catch(() => undefined) ?? Promise.resolve(undefined);
    const next = previous.then(async (last): Promise<Kept> => {
      // The head is kept in memory: a line that has not moved is not read at all, and one that has is read as a
      // known short range (a lookup of those keys, not an iterator).
      const head = await this.store.head(stream);
      // A line first asked about starts from its latest context snapshot, and folds only the events after it.
      const kept = last ?? this.start(await this.snapshots.latest(stream, head.seq));
      if (head.seq <= kept.seq) return kept;
      const events =
        known[0]?.seq === kept.seq + 1 && known.at(-1)!.seq === head.seq
          ? known
          : await this.store.readAll(stream, kept.seq + 1, head.seq);
      if (events.length === 0) return kept;
      const seq = events.at(-1)!.seq;
      const context = kept.growing.advance(
        events.map(toCurrent),
        folded?.seq === seq && events === known ? folded : undefined,
      );
      await this.snapshots.keep(stream, events, context);
      return { growing: kept.growing, seq, context };
    });
    this.lines.set(stream, next);
    return next.then((kept) => kept.context);
  }

  /**
   * The context after `events`, which follow the line's context as last kept, folded on a copy and kept nowhere: the
   * view of a command's answer, worked out while its events are being written. They are folded as stored (their data
   * read back from the log's JSON), so that the context's state is the log's, key order included, as `now`'s is.
   * Undefined when the context is not right before them. `keep`, once they are written, puts it in place (and
   * keeps a context snapshot where `now` would), unless the line's context has moved meanwhile.
   */
  async draft(
    stream: string,
    events: readonly StoredEvent[],
  ): Promise<{ context: ViewContext; keep(): void } | undefined> {
    // A line not asked about yet is taken up to where the batch starts: its head is still there until the write lands.
    if (!this.lines.has(stream)) void this.now(stream).catch(() => undefined);
    const from = await this.lines.get(stream)?.catch(() => undefined);
    const last = events.at(-1);
    if (!from || !last || events[0]!.seq !== from.seq + 1) return undefined;
    const growing = new GrowingViewContext(from.context);
    const context = growing.advance(events.map(toCurrent));
    const to: Kept = { growing, seq: last.seq, context };
    return {
      context,
      keep: () => {
        const previous = this.lines.get(stream) ?? Promise.resolve(from);
        const next = previous.then(async (kept) => {
          if (kept !== from) return kept;
          await this.snapshots.keep(stream, events, context);
          return to;
        });
        // Nobody waits for it now: a snapshot that could not be kept, or a read before it that failed, is met by the
        // next request, which takes the line again (`now`), not by the process.
        next.catch(() => undefined);
        this.lines.set(stream, next);
      },
    };
  }
}
