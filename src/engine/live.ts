import { BehaviorSubject, filter, firstValueFrom, from, switchMap, type Subscription } from "rxjs";
import { toCurrent } from "../../events/index.js";
import { evolveAll } from "../../projections/campaign.js";
import { initialState, type CampaignState } from "../../projections/state.js";
import { blameBrokenLog, type EventStore } from "../log/index.js";
import { ContextSnapshots } from "../../replays/context-snapshots.js";
import { SnapshotStore } from "../../replays/snapshots.js";

/**
 * Where a line's live state starts, so that the first command after a start folds only the events after it: the line's
 * latest context snapshot (replays/context-snapshots.ts); for a branch, the latest state snapshot of its parent's
 * prefix (replays/snapshots.ts) where that is later, as it is for a new branch, whose first command (a ForkLine) would
 * otherwise fold the whole prefix. Each is used only where the line's chain bears it out; the line's first event where
 * there is neither. The state snapshots after a fork are the branch's own, and a campaign's own line starts from its
 * context snapshot only, as before.
 */
async function startOf(store: EventStore, stream: string): Promise<CampaignState | undefined> {
  const head = await store.head(stream);
  const context = (await new ContextSnapshots(store).latest(stream, head.seq))?.context.state;
  const fork = await store.branch(stream);
  const prefix =
    fork && (await new SnapshotStore(store).latest(stream, Math.min(fork.forkSeq, head.seq), { after: context?.seq }));
  return prefix ? prefix.state : context;
}

/**
 * A campaign's (or branch's) state kept live from the log's Observable: one immer transaction per batch of events.
 * The store reads a branch as its whole line, so a branch's state starts from its parent's prefix. It starts from the
 * line's context snapshot where there is one, and reads only the events after it.
 *
 * A log broken outside the engine fails the state: a read that finds an event missing or out of place (the store's
 * CorruptEventError), or a fold that throws on what was read while the log fails verification (blameBrokenLog). Every
 * `at` then rejects with that error instead of waiting or throwing out of the Observable.
 */
export class LiveCampaign {
  readonly state$ = new BehaviorSubject<CampaignState>(initialState);
  private readonly subscription: Subscription;
  private failed: unknown;

  constructor(
    private readonly store: EventStore,
    readonly stream: string,
  ) {
    const batches = from(startOf(store, stream)).pipe(
      switchMap((start) => {
        if (start) this.state$.next(start);
        return store.batches$(stream, (start?.seq ?? 0) + 1);
      }),
    );
    this.subscription = batches.subscribe({
      next: (batch) => {
        try {
          this.state$.next(evolveAll(this.state$.value, batch.map(toCurrent)));
        } catch (error) {
          this.fail(error);
        }
      },
      error: (error: unknown) => this.end(error),
    });
  }

  /** The state once every event up to `seq` has been folded in. */
  at(seq: number): Promise<CampaignState> {
    return firstValueFrom(this.state$.pipe(filter((state) => state.seq >= seq)));
  }

  /** Why its state failed (the log could not be read or folded), after which it follows the log no more. */
  get failure(): unknown {
    return this.failed;
  }

  close(): void {
    this.subscription.unsubscribe();
    this.state$.complete();
  }

  private fail(error: unknown): void {
    this.subscription.unsubscribe();
    void blameBrokenLog(this.store, this.stream, error).then((blamed) => this.end(blamed));
  }

  private end(error: unknown): void {
    this.failed = error;
    this.state$.error(error);
  }
}
