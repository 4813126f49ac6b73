import { mergeMap, type Observable } from "rxjs";
import { GENESIS_HASH, type NewEvent, type StoredEvent } from "../../events/index.js";
import type { CheckerData } from "./chain-worker.js";
import type { StoreFailedError } from "./errors.js";
import type { AppendOptions, EventStore, ImportedStream, ReadPoint, SnapshotCache } from "./event-store.js";
import { HASH_LENGTH, type BranchMeta, type Head, type Segment } from "./layout.js";
import { walkLine } from "./line-walk.js";
import { eventInPlace } from "./read-order.js";

/**
 * What both stores read the same way, in terms of what each stores its own way: a stream's line (cached once it can
 * no longer change), the event or value at a seq of a line, and reads built on readBatches and batches$.
 */
export abstract class LineStore implements EventStore {
  /** Lines known not to change: every branch's, and every stream's that has events (it can no longer become a branch). */
  protected readonly lines = new Map<string, Segment[]>();

  abstract readonly location: string;
  abstract readonly shared: boolean;
  abstract readonly snapshots: SnapshotCache;
  abstract close(): Promise<void>;
  abstract readonly failure: StoreFailedError | undefined;
  abstract readonly failures$: Observable<StoreFailedError>;
  abstract reopen(): Promise<void>;
  abstract head(stream: string): Promise<Head>;
  abstract storedHead(stream: string, readPoint?: ReadPoint): Promise<Head>;
  abstract streams(): Promise<string[]>;
  abstract firstStoredFrom(stream: string, seq: number, readPoint?: ReadPoint): Promise<number | undefined>;
  abstract branch(stream: string): Promise<BranchMeta | undefined>;
  abstract branches(): Promise<BranchMeta[]>;
  abstract createBranch(
    stream: string,
    parent: string,
    forkSeq: number,
    options?: { name?: string; sync?: boolean; created?: string },
  ): Promise<BranchMeta>;
  abstract importStreams(streams: readonly ImportedStream[]): Promise<void>;
  abstract append(
    stream: string,
    expectedSeq: number,
    events: readonly NewEvent[],
    options?: AppendOptions,
  ): Promise<StoredEvent[]>;
  abstract rawBatches(
    stream: string,
    from?: number,
    to?: number,
    readPoint?: ReadPoint,
  ): AsyncGenerator<Array<[number, string]>>;
  abstract rawEntries(
    stream: string,
    from?: number,
    to?: number,
    readPoint?: ReadPoint,
  ): AsyncGenerator<Array<[string, string]>>;
  abstract storedKeyPrefix(stream: string): string;
  abstract readPoint(): Promise<ReadPoint>;
  abstract checkerData(): CheckerData | undefined;
  abstract readBatches(stream: string, from?: number, to?: number): AsyncGenerator<StoredEvent[]>;
  abstract batches$(stream: string, from?: number): Observable<StoredEvent[]>;
  /** The value stored under one of a stream's own seqs, or undefined. */
  protected abstract ownValue(stream: string, seq: number): Promise<string | undefined>;

  async line(stream: string): Promise<Segment[]> {
    const known = this.lines.get(stream);
    if (known) return known;
    const segments = await walkLine(stream, (current) => this.branch(current));
    if (segments.length > 1 || (await this.head(stream)).seq > 0) this.lines.set(stream, segments);
    return segments;
  }

  /**
   * The first seq of a line stored after its head, or undefined when there is none: events the head does not count,
   * because it was deleted or set back outside the engine (appends never leave any).
   */
  async storedAfterHead(stream: string): Promise<number | undefined> {
    const [head, line] = await Promise.all([this.head(stream), this.line(stream)]);
    return this.firstStoredFrom(line.at(-1)!.stream, head.seq + 1);
  }

  /** The stored value (hash and body) of the event at `seq` of a stream's line, or undefined when there is none. */
  async valueAt(stream: string, seq: number): Promise<string | undefined> {
    return (await this.storedAt(stream, seq))?.value;
  }

  /** The value at `seq` of a stream's line, with the stream whose own event it is (the parent's, before a fork). */
  private async storedAt(stream: string, seq: number): Promise<{ owner: string; value: string } | undefined> {
    const segment = (await this.line(stream)).find((s) => seq >= s.from && seq <= s.to);
    const value = segment && (await this.ownValue(segment.stream, seq));
    return value === undefined ? undefined : { owner: segment!.stream, value };
  }

  /** The hash of the event at `seq` of a stream's line, as stored (GENESIS_HASH for seq 0). */
  async hashAt(stream: string, seq: number): Promise<string | undefined> {
    if (seq === 0) return GENESIS_HASH;
    return (await this.valueAt(stream, seq))?.slice(0, HASH_LENGTH);
  }

  /** The event at `seq` of a stream's line, or undefined when there is none. */
  async eventAt(stream: string, seq: number): Promise<StoredEvent | undefined> {
    const stored = await this.storedAt(stream, seq);
    return stored && eventInPlace(stream, stored.owner, seq, stored.value);
  }

  async readAll(stream: string, from = 1, to?: number): Promise<StoredEvent[]> {
    const all: StoredEvent[] = [];
    for await (const batch of this.readBatches(stream, from, to)) all.push(...batch);
    return all;
  }

  /** The same as batches$, one event at a time. */
  events$(stream: string, from = 1): Observable<StoredEvent> {
    return this.batches$(stream, from).pipe(mergeMap((batch) => batch));
  }
}
