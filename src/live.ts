import { BehaviorSubject, filter, firstValueFrom, type Subscription } from "rxjs";
import { toCurrent } from "../events/index.js";
import { evolveAll } from "../projections/campaign.js";
import { initialState, type CampaignState } from "../projections/state.js";
import type { EventStore } from "./log/index.js";

/**
 * A campaign's (or branch's) state kept live from the log's Observable: one immer transaction per batch of events.
 * The store reads a branch as its whole line, so a branch's state starts from its parent's prefix.
 */
export class LiveCampaign {
  readonly state$ = new BehaviorSubject<CampaignState>(initialState);
  private readonly subscription: Subscription;

  constructor(store: EventStore, readonly stream: string) {
    this.subscription = store.batches$(stream).subscribe({
      next: (batch) => this.state$.next(evolveAll(this.state$.value, batch.map(toCurrent))),
      error: (error: unknown) => this.state$.error(error),
    });
  }

  /** The state once every event up to `seq` has been folded in. */
  at(seq: number): Promise<CampaignState> {
    return firstValueFrom(this.state$.pipe(filter((state) => state.seq >= seq)));
  }

  close(): void {
    this.subscription.unsubscribe();
    this.state$.complete();
  }
}
