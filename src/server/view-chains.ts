import type { StoredEvent } from "../../events/index.js";
import type { Engine } from "../engine/engine.js";
import { sealedContext, ViewChain } from "../views/chain.js";

/**
 * Each seat's view chain of each line the server has answered a command on (src/views/chain.ts), kept between
 * requests and advanced with only the events appended since, as LineContexts keeps the view contexts.
 */
export class ViewChains {
  /** Per line and seat, the chain as last advanced; each advance waits for the one before it. */
  private readonly chains = new Map<string, Promise<ViewChain>>();

  constructor(private readonly engine: Engine) {}

  /**
   * The seat's view chain of the line up to `seq` (its head then). `known`: events of the line the caller holds, in
   * order (those it just wrote), not read again where they follow what the chain has taken. Called while the line's
   * commands wait, so that nothing moves the line meanwhile.
   */
  async at(
    stream: string,
    seat: string,
    seq: number,
    known: readonly StoredEvent[] = [],
  ): Promise<{ seq: number; head: string }> {
    const key = `${stream}\u0000${seat}`;
    const fresh = async () => new ViewChain(seat, sealedContext(await this.engine.state(stream)));
    // A read that failed leaves nothing half-taken behind: the next request takes the line from its start.
    const previous = (this.chains.get(key) ?? fresh()).catch(fresh);
    const next = previous.then(async (chain) => {
      if (chain.seq >= seq) return chain;
      const first = chain.seq + 1;
      const events =
        known[0] !== undefined && known[0].seq <= first && known.at(-1)!.seq === seq
          ? known
          : await this.engine.store.readAll(stream, first, seq);
      chain.advance(events);
      return chain;
    });
    this.chains.set(key, next);
    this.lend(stream, seat, known);
    const chain = await next;
    // Taken while the line's commands wait (Campaigns.serialize): no other request has moved it past `seq`.
    if (chain.seq !== seq) throw new Error(`the view chain of ${seat} on ${stream} is at seq ${chain.seq}, not ${seq}`);
    return { seq: chain.seq, head: chain.head };
  }

  /**
   * Every chain of the line that ends right before `events` advanced over them on a copy, kept nowhere: the view head
   * of a command's answer, worked out while its events are being written. `keep`, once they are written, puts the
   * copies in place, as `at` and `lend` would have advanced the chains; one that has moved meanwhile is left as it is.
   */
  async draft(stream: string, seat: string, events: readonly StoredEvent[]): Promise<ChainsDraft> {
    const first = events[0]?.seq;
    const prefix = `${stream}\u0000`;
    const drafted = new Map<string, { from: ViewChain; seq: number; to: ViewChain }>();
    for (const [key, chain] of [...this.chains].filter(([key]) => key.startsWith(prefix))) {
      const from = await chain.catch(() => undefined);
      if (first === undefined || from?.seq !== first - 1) continue;
      const to = from.copy();
      to.advance(events);
      drafted.set(key, { from, seq: from.seq, to });
    }
    const own = drafted.get(`${prefix}${seat}`)?.to;
    return {
      ...(own ? { view: { seq: own.seq, head: own.head } } : {}),
      keep: () => {
        for (const [key, { from, seq, to }] of drafted)
          this.put(
            key,
            (this.chains.get(key) ?? Promise.resolve(from)).then((chain) =>
              chain === from && chain.seq === seq ? to : chain,
            ),
          );
      },
    };
  }

  /**
   * The events a seat's command just wrote, taken by the other seats' chains of the line that end right before them:
   * their next command then reads nothing from the log for them. A chain that is behind, or ahead, is left as it is.
   */
  private lend(stream: string, seat: string, written: readonly StoredEvent[]): void {
    const first = written[0]?.seq;
    if (first === undefined) return;
    const prefix = `${stream}\u0000`;
    for (const [key, chain] of this.chains)
      if (key.startsWith(prefix) && key !== `${prefix}${seat}`)
        this.put(
          key,
          chain.then((other) => {
            if (other.seq === first - 1) other.advance(written);
            return other;
          }),
        );
  }

  /**
   * A chain as the next request will take it. Nobody waits for it now: a chain that failed is met by that request,
   * which takes the line from its start (`at`), not by the process.
   */
  private put(key: string, next: Promise<ViewChain>): void {
    next.catch(() => undefined);
    this.chains.set(key, next);
  }
}

/** The line's chains advanced over a batch being written (ViewChains.draft). */
export interface ChainsDraft {
  /** The seat's view after the batch, when its chain was right before it. */
  view?: { seq: number; head: string };
  /** Puts the advanced chains in place: only once the batch is written. */
  keep(): void;
}
