import { Level } from "level";
import { Observable, Subject } from "rxjs";
import { catalogue as defaultCatalogue, GENESIS_HASH, type NewEvent, type StoredEvent } from "../../events/index.js";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { checkAppend, sealChecked } from "./append-check.js";
import { checkStreamName, planBranch, refuseStreamInUse } from "./branch-plan.js";
import type { CheckerData } from "./chain-worker.js";
import {
  AppendConflictError,
  CorruptEventError,
  errorReason,
  EventExistsError,
  StoreFailedError,
  StoreOpenError,
} from "./errors.js";
import type { AppendOptions, ImportedStream, ReadPoint, SnapshotCache, StoreOptions } from "./event-store.js";
import { LineStore } from "./line-store.js";
import { checkRoomToReopen } from "./reopen-room.js";
import { eventKey, seqOfKey, streamKeyPrefix, streamOfKey, streamRange } from "./layout.js";
import type { BranchMeta, Head } from "./layout.js";
import { SerialQueue } from "./queue.js";
import { eventRange, rawEntries, readAhead, type LevelReadPoint } from "./read-ahead.js";
import { decodeInOrder, ReadOrder } from "./read-order.js";

export { checkAppend, sealEvent, type CheckedEvent } from "./append-check.js";
export type { StoreOptions } from "./event-store.js";

/**
 * The folders this process has a store open on. LevelDB's lock keeps other processes out; inside this one, the
 * database is opened for multithreaded reads (verify's checkers), which would let a second store share it, and two
 * stores appending to one log would race past each other's expected-seq checks.
 */
const openHere = new Set<string>();

/** Puts per LevelDB batch of an import: large enough to amortise a batch, small enough to hold little memory. */
const IMPORT_BATCH = 4096;

/** Ranges shorter than this are read with one getMany of their keys rather than with an iterator. */
const SMALL_READ = 256;

/** The sublevels of the root database: made again each time it is opened, since a sublevel stays closed with it. */
function sublevels(db: Level<string, string>) {
  return {
    events: db.sublevel<string, string>("events", { valueEncoding: "utf8" }),
    heads: db.sublevel<string, string>("heads", { valueEncoding: "utf8" }),
    branches: db.sublevel<string, string>("branches", { valueEncoding: "utf8" }),
    snapshots: db.sublevel<string, string>("snapshots", { valueEncoding: "utf8" }),
  };
}

/** How abstract-level is asked to open the root database, first and again. */
const openOptions = (createIfMissing: boolean) => ({ createIfMissing, multithreading: true });

/**
 * The append-only, hash-chained event log of many streams (campaigns and their branches) in one LevelDB.
 * Appends are serialised through one queue and written with their new head in one atomic batch.
 *
 * A branch is a stream that starts with another stream's prefix: it records (parent, fork seq, fork hash) and holds
 * only its own events, from fork seq + 1 on, the first linking to the fork hash. Every reader (readBatches, readAll,
 * batches$, events$) reads a branch as its whole line: the parent's events up to the fork (recursively), then its own.
 *
 * Any write that fails fails the store (`failure`): after a failed write LevelDB's write-ahead log may end in part of a
 * batch, and a batch written after it would be acknowledged and then lost when the log is next read from disk. The
 * store takes no write until it is reopened (`reopen`), which LevelDB's recovery makes whole.
 */
export class LevelEventStore extends LineStore {
  private readonly queue = new SerialQueue();
  private readonly heads = new Map<string, Head>();
  private readonly live = new Map<string, Subject<StoredEvent[]>>();
  private parts: ReturnType<typeof sublevels>;
  private failed: StoreFailedError | undefined;
  /** The append that failed the store: its stream and the seq it followed, which the disk may yet hold it after. */
  private unsure: { stream: string; after: number } | undefined;
  private readonly failed$ = new Subject<StoreFailedError>();
  readonly failures$ = this.failed$.asObservable();

  private constructor(
    readonly db: Level<string, string>,
    /** The folder as it was named when opened (LevelDB's own location is made absolute). */
    readonly location: string,
    private readonly options: Required<Omit<StoreOptions, "postgres">>,
  ) {
    super();
    this.parts = sublevels(db);
    this.snapshots = {
      get: (key) => this.parts.snapshots.get(key),
      // A cache: while the store takes no writes, a snapshot is simply not kept.
      put: (entries) =>
        this.failed
          ? Promise.resolve()
          : this.written(() =>
              this.parts.snapshots.batch(entries.map(({ key, value }) => ({ type: "put" as const, key, value }))),
            ),
      del: (key) => this.written(() => this.parts.snapshots.del(key)),
      last: async (gte, lte) => (await this.parts.snapshots.iterator({ gte, lte, reverse: true, limit: 1 }).all())[0],
      keys: (gte, lte) => this.parts.snapshots.keys({ gte, lte }).all(),
      values: (gte, lte) => this.parts.snapshots.values({ gte, lte }),
      clear: (range) => this.written(() => this.parts.snapshots.clear(range ?? {})),
    };
  }

  get events() {
    return this.parts.events;
  }

  private get headsDb() {
    return this.parts.heads;
  }

  private get branchesDb() {
    return this.parts.branches;
  }

  get failure(): StoreFailedError | undefined {
    return this.failed;
  }

  /** A write is refused, before anything is read for it, once the store has failed. */
  private refuseWhenFailed(): void {
    if (this.failed) throw this.failed;
  }

  /** Runs a write to LevelDB: refused once the store has failed; any error of it fails the store. */
  private async written(write: () => Promise<void>): Promise<void> {
    this.refuseWhenFailed();
    try {
      await write();
    } catch (error) {
      this.failed = StoreFailedError.writing(this.location, error);
      this.failed$.next(this.failed);
      throw this.failed;
    }
  }

  /**
   * Reopens the store after a failed write: LevelDB reads its write-ahead log again, keeping every whole batch and
   * dropping one written in part, and writes it out to a new file; every head is then read from disk. The append that
   * failed may have reached the disk after all: its events then go to the stream's followers as an append's would.
   */
  async reopen(): Promise<void> {
    await this.queue.run(async () => {
      if (!this.failed) return;
      // Closed only once the disk takes what the open writes: closed while the disk is full, it could not open again,
      // and every read would fail until the disk had room. A log that failed to open is opened without the trial.
      if (this.db.status === "open") await this.checkRoomToReopen();
      await this.db.close();
      try {
        await this.db.open(openOptions(false));
      } catch (error) {
        const { cause, message } = error as Error & { cause?: Error };
        throw new StoreOpenError(`cannot reopen ${this.location}: ${cause?.message ?? message}`, { cause: error });
      }
      this.parts = sublevels(this.db);
      this.heads.clear();
      this.lines.clear();
      this.failed = undefined;
      const unsure = this.unsure;
      this.unsure = undefined;
      const subject = unsure && this.live.get(unsure.stream);
      if (unsure && subject) {
        const head = await this.storedHead(unsure.stream);
        if (head.seq > unsure.after) subject.next(await this.readAll(unsure.stream, unsure.after + 1, head.seq));
      }
    });
  }

  private async checkRoomToReopen(): Promise<void> {
    try {
      await checkRoomToReopen(this.db.location);
    } catch (error) {
      throw new StoreOpenError(
        `cannot reopen ${this.location} yet: its disk cannot take what reopening it writes (${errorReason(error)}); it stays open for reads`,
        { cause: error },
      );
    }
  }

  readonly snapshots: SnapshotCache;
  /** LevelDB's lock keeps every other process out while the store is open. */
  readonly shared = false;

  static async open(location: string, options: StoreOptions = {}): Promise<LevelEventStore> {
    if (options.createIfMissing === false && !existsSync(join(location, "CURRENT"))) {
      throw new StoreOpenError(`no campaign database at ${location}`);
    }
    const where = resolve(location);
    if (openHere.has(where)) throw new StoreOpenError(`${location} is already open in this process`);
    const db = new Level<string, string>(where, { valueEncoding: "utf8" });
    try {
      // Multithreading lets verify's chain checkers (worker threads) read through the same LevelDB handle; another
      // process is still locked out, and openHere keeps a second store of this process out.
      await db.open(openOptions(options.createIfMissing ?? true));
    } catch (error) {
      const { cause, message } = error as Error & { cause?: Error & { code?: string } };
      if (cause?.code === "LEVEL_LOCKED") throw new StoreOpenError(`${location} is in use by another epicwar process`);
      if (/does not exist/.test(cause?.message ?? message))
        throw new StoreOpenError(`no campaign database at ${location}`);
      throw new StoreOpenError(`cannot open ${location}: ${cause?.message ?? message}`);
    }
    openHere.add(where);
    return new LevelEventStore(db, location, {
      sync: options.sync ?? true,
      catalogue: options.catalogue ?? defaultCatalogue,
      createIfMissing: options.createIfMissing ?? true,
    });
  }

  async close(): Promise<void> {
    await this.queue.run(async () => undefined);
    // The followers are told of the last appends first: their tasks were queued before this one.
    await new Promise((resolve) => setImmediate(resolve));
    for (const subject of this.live.values()) subject.complete();
    this.live.clear();
    await this.db.close();
    openHere.delete(this.db.location);
  }

  /** The stream's last seq and hash; seq 0 and the genesis hash for a stream with no events. */
  async head(stream: string): Promise<Head> {
    return this.heads.get(stream) ?? this.storedHead(stream);
  }

  /**
   * The head as stored in LevelDB, bypassing this process's cache: what verify compares the chain against (as of
   * `readPoint`, when given).
   */
  async storedHead(stream: string, readPoint?: ReadPoint): Promise<Head> {
    const value = await this.headsDb.get(stream, readPoint ? { snapshot: readPoint as LevelReadPoint } : {});
    return value === undefined ? { seq: 0, hash: GENESIS_HASH } : (JSON.parse(value) as Head);
  }

  /**
   * Every stream that has at least one event (a branch counts the events it inherits), in stream order: those with a
   * head, and those with events stored under their own keys but no head (its head was deleted outside the engine), so
   * that verify sees them too.
   */
  async streams(): Promise<string[]> {
    const [withHeads, withEvents] = await Promise.all([this.headsDb.keys().all(), this.streamsWithEvents()]);
    return [...new Set([...withHeads, ...withEvents])].sort();
  }

  /** The streams with at least one event under their own keys: one seek per stream, to just past its key range. */
  private async streamsWithEvents(): Promise<string[]> {
    const found: string[] = [];
    const iterator = this.events.keys();
    try {
      for (let key = await iterator.next(); key !== undefined; key = await iterator.next()) {
        const stream = streamOfKey(key);
        found.push(stream);
        // The range's upper bound is no key ("~" is no digit), and no other stream's keys fall inside the range.
        iterator.seek(streamRange(stream).lte);
      }
    } finally {
      await iterator.close();
    }
    return found;
  }

  /**
   * The seq of the stream's first event stored under its own keys at `seq` or after (as of `readPoint`, when given),
   * or undefined when there is none: one seek.
   */
  async firstStoredFrom(stream: string, seq: number, readPoint?: ReadPoint): Promise<number | undefined> {
    // On the root database with the prefixed keys: a third quicker than through the sublevel.
    const { gte, lte } = eventRange(this.eventsPrefix, stream, seq);
    const [key] = await this.db
      .keys({ gte, lte, limit: 1, ...(readPoint ? { snapshot: readPoint as LevelReadPoint } : {}) })
      .all();
    return key === undefined ? undefined : seqOfKey(key);
  }

  /** The branch record of a stream, or undefined for a stream that is not a branch. */
  async branch(stream: string): Promise<BranchMeta | undefined> {
    const value = await this.branchesDb.get(stream);
    return value === undefined ? undefined : (JSON.parse(value) as BranchMeta);
  }

  /** Every branch in the folder, in stream order. */
  async branches(): Promise<BranchMeta[]> {
    return (await this.branchesDb.values().all()).map((value) => JSON.parse(value) as BranchMeta);
  }

  protected ownValue(stream: string, seq: number): Promise<string | undefined> {
    return this.events.get(eventKey(stream, seq));
  }

  /**
   * Makes `stream` a branch of `parent` at `forkSeq`: it copies nothing and writes the branch record and a head at
   * (forkSeq, the parent's hash there) in one atomic batch, so that the first append to the branch gets seq
   * forkSeq + 1 and links to that hash. Refused for a stream id already in use and for a fork point the parent does
   * not have; the parent's event at the fork must match its own hash.
   */
  async createBranch(
    stream: string,
    parent: string,
    forkSeq: number,
    options: { name?: string; sync?: boolean; created?: string } = {},
  ): Promise<BranchMeta> {
    checkStreamName(stream);
    return this.queue.run(async () => {
      this.refuseWhenFailed();
      const meta = await planBranch(this, stream, parent, forkSeq, options);
      const head: Head = { seq: forkSeq, hash: meta.forkHash };
      await this.written(() => {
        const batch = this.db.batch();
        batch.put(stream, JSON.stringify(meta), { sublevel: this.branchesDb });
        batch.put(stream, JSON.stringify(head), { sublevel: this.headsDb });
        return batch.write({ sync: options.sync ?? this.options.sync });
      });
      this.heads.set(stream, head);
      this.lines.delete(stream);
      return meta;
    });
  }

  /**
   * Puts on the root database (keys with their sublevel's prefix) in one atomic batch. A chained batch: an array batch
   * costs several times as much a put, abstract-level copying each operation together with the batch's options.
   */
  private async putBatch(puts: ReadonlyArray<readonly [key: string, value: string]>, sync: boolean): Promise<void> {
    const batch = this.db.batch();
    try {
      for (const [key, value] of puts) batch.put(key, value);
    } catch (error) {
      await batch.close();
      throw error;
    }
    await batch.write({ sync });
  }

  /**
   * Writes whole streams that an import has checked (src/log/import-file.ts): each one's stored values as given, never
   * re-encoded, in batches without a flush, then every head and branch record in one last batch, flushed to disk. Until
   * that last batch no head counts the events, so no reader sees a stream half imported. Refused with BranchError,
   * before anything is written, when any of the streams is in use in this folder (a head, a branch record, or events).
   */
  async importStreams(streams: readonly ImportedStream[]): Promise<void> {
    for (const { stream } of streams) checkStreamName(stream);
    return this.queue.run(async () => {
      this.refuseWhenFailed();
      for (const { stream } of streams) await refuseStreamInUse(this, stream);
      const last = this.db.batch();
      for (const { stream, branch, values, first, head } of streams) {
        for (let start = 0; start < values.length; start += IMPORT_BATCH) {
          const puts = values
            .slice(start, start + IMPORT_BATCH)
            .map((value, i): [string, string] => [this.events.prefix + eventKey(stream, first + start + i), value]);
          await this.written(() => this.putBatch(puts, false));
        }
        if (branch) last.put(stream, JSON.stringify(branch), { sublevel: this.branchesDb });
        last.put(stream, JSON.stringify(head), { sublevel: this.headsDb });
      }
      await this.written(() => last.write({ sync: this.options.sync }));
      for (const { stream, head } of streams) {
        this.heads.set(stream, head);
        this.lines.delete(stream);
      }
    });
  }

  /**
   * Appends events after `expectedSeq`, the seq the writer last saw. A stale expectedSeq is refused with
   * AppendConflictError; an event that fails its schema is refused with InvalidEventError; an event stored after the
   * head (the head was deleted or set back outside the engine) with EventExistsError, since a stored event is never
   * overwritten. Whichever, nothing is written.
   */
  async append(
    stream: string,
    expectedSeq: number,
    events: readonly NewEvent[],
    options: AppendOptions = {},
  ): Promise<StoredEvent[]> {
    // Checked (and copied) before queueing, in the caller's turn: errors reject the returned promise, and a caller
    // changing its objects afterwards cannot change what was checked. Queued synchronously, so call order is kept.
    const checked = checkAppend(stream, events, this.options.catalogue);
    return this.queue.run(async () => {
      this.refuseWhenFailed();
      const head = await this.head(stream);
      if (head.seq !== expectedSeq) throw new AppendConflictError(stream, expectedSeq, head.seq);
      if (checked.length === 0) return [];
      // Appends are contiguous, so one seek tells whether any key this batch would write (or any after it) is taken;
      // it runs on LevelDB's thread while this one seals the events. Only a head read from the database needs it: a
      // head this store wrote itself (this.heads, trusted as the head is) was checked when it was written, and nothing
      // else writes to the folder while the store has it open.
      const taken = this.heads.has(stream) ? undefined : this.firstStoredFrom(stream, head.seq + 1);
      let prev = head.hash;
      const stored: StoredEvent[] = [];
      // One batch on the root database with the sublevels' prefixed keys: the events and the head, atomically.
      const puts: Array<[key: string, value: string]> = [];
      for (const [index, event] of checked.entries()) {
        const seq = head.seq + index + 1;
        const sealed = sealChecked(stream, seq, prev, event);
        puts.push([this.events.prefix + eventKey(stream, seq), sealed.value]);
        stored.push(sealed.stored);
        prev = sealed.stored.hash;
      }
      const takenSeq = await taken;
      if (takenSeq !== undefined) throw new EventExistsError(stream, takenSeq, head.seq);
      const newHead: Head = { seq: head.seq + stored.length, hash: prev };
      puts.push([this.headsDb.prefix + stream, JSON.stringify(newHead)]);
      if (!this.failed) this.unsure = { stream, after: head.seq };
      // LevelDB takes the batch on its own thread; this one is free for the caller's work until it is flushed.
      const writing = this.written(() => this.putBatch(puts, options.sync ?? this.options.sync));
      const { whileWriting } = options;
      // Its own task: whatever it does or throws is not the append's.
      if (whileWriting) queueMicrotask(() => whileWriting(stored));
      await writing;
      this.unsure = undefined;
      this.heads.set(stream, newHead);
      // Followers get the data as a replay reads it back (parsed from the stored canonical JSON, so keys sorted), in
      // objects of their own: the reducers freeze what they keep, and the events returned to the caller stay its own.
      // They are told in a task of their own, in append order, once the caller has its answer: a server answers a
      // command before its live state folds the command's events (batches$ skips what a follower has read already).
      const subject = this.live.get(stream);
      if (subject)
        setImmediate(() =>
          subject.next(
            stored.map((event, index) => ({ ...event, data: JSON.parse(checked[index]!.dataJson) as unknown })),
          ),
        );
      return stored;
    });
  }

  /**
   * The stream's own stored key/value pairs in key order, from seq `from` (to `to`), in batches: what verify walks.
   * For a branch these are only its own events; verify walks the parent's part of its line with the parent's.
   */
  async *rawBatches(
    stream: string,
    from = 1,
    to?: number,
    readPoint?: ReadPoint,
  ): AsyncGenerator<Array<[number, string]>> {
    for await (const entries of this.rawEntries(stream, from, to, readPoint)) {
      yield entries.map(([key, value]) => [seqOfKey(key), value] as [number, string]);
    }
  }

  /** The same entries with their keys as the root database holds them (storedKeyPrefix). */
  rawEntries(stream: string, from = 1, to?: number, readPoint?: ReadPoint): AsyncGenerator<Array<[string, string]>> {
    return rawEntries(this.db, this.eventsPrefix, stream, from, to, readPoint as LevelReadPoint | undefined);
  }

  /**
   * A consistent view of the database as it is now, for reads that must agree with each other while appends go on
   * (verify reads the head and then the events up to it). Close it when done.
   */
  readPoint(): Promise<ReadPoint> {
    return Promise.resolve(this.db.snapshot());
  }

  /** The checker threads open the folder themselves, through LevelDB's multithreaded handle. */
  checkerData(): CheckerData {
    return { location: this.db.location, eventsPrefix: this.eventsPrefix };
  }

  /** What the stream's event keys start with in the root database, as rawEntries gives them: the seq's digits follow. */
  storedKeyPrefix(stream: string): string {
    return this.eventsPrefix + streamKeyPrefix(stream);
  }

  /** The events sublevel's key prefix in the root database. */
  get eventsPrefix(): string {
    return this.events.prefix;
  }

  /**
   * The stream's events from seq `from` to `to` (inclusive), in batches, as stored. For a branch: its line, the
   * parent's events up to the fork, then its own.
   */
  async *readBatches(stream: string, from = 1, to?: number): AsyncGenerator<StoredEvent[]> {
    for (const segment of await this.line(stream)) {
      const start = Math.max(from, segment.from);
      const end = Math.min(to ?? Infinity, segment.to);
      if (start > end) continue;
      yield* this.ownBatches(segment.stream, start, end === Infinity ? undefined : end);
    }
  }

  /**
   * The stream's own events from..to, checked to follow on (ReadOrder): a missing, moved or unlinked event is a
   * CorruptEventError naming its seq. The range may end before `to`: whether the stream should reach further is the
   * head's to say (batches$ and the replays check it).
   */
  private async *ownBatches(stream: string, from: number, to: number | undefined): AsyncGenerator<StoredEvent[]> {
    const order = new ReadOrder(stream, from);
    if (to !== undefined && to - from < SMALL_READ) {
      // A short known range (a replay from a snapshot, a look around a seq): one read of exactly those keys is
      // cheaper than an iterator's open, reads and close. Missing keys at its end are where the stored events end.
      const keys: string[] = [];
      for (let seq = from; seq <= to; seq++) keys.push(eventKey(stream, seq));
      const values = await this.events.getMany(keys);
      const events: StoredEvent[] = [];
      for (const [index, value] of values.entries()) {
        if (value !== undefined) events.push(decodeInOrder(order, stream, value, from + index));
      }
      if (events.length > 0) yield events;
      return;
    }
    const iterator = this.db.values(eventRange(this.eventsPrefix, stream, from, to));
    for await (const values of readAhead(iterator)) yield values.map((value) => decodeInOrder(order, stream, value));
  }

  /**
   * The stream's events from seq `from` on, in batches: first those already stored, then each append's events as it
   * is written. The one way projections follow the log; no event is skipped or repeated across the switch to live.
   */
  batches$(stream: string, from = 1): Observable<StoredEvent[]> {
    return new Observable<StoredEvent[]>((subscriber) => {
      let last = from - 1;
      let catchingUp = true;
      const pending: StoredEvent[][] = [];
      const emit = (batch: StoredEvent[]) => {
        const fresh = batch.filter((event) => event.seq > last);
        if (fresh.length === 0) return;
        last = fresh[fresh.length - 1]!.seq;
        subscriber.next(fresh);
      };
      const liveSubscription = this.liveSubject(stream).subscribe({
        next: (batch) => (catchingUp ? pending.push(batch) : emit(batch)),
        complete: () => subscriber.complete(),
      });
      void (async () => {
        try {
          // The head as it was before the read: appends only add to the line, so the read must reach it. A line that
          // ends before it lost its tail outside the engine, and a follower waiting for that seq would wait forever.
          const head = await this.head(stream);
          for await (const batch of this.readBatches(stream, from)) {
            if (subscriber.closed) return;
            emit(batch);
          }
          if (last < head.seq)
            throw new CorruptEventError(stream, last + 1, `is missing: the head counts ${head.seq} events`);
          for (const batch of pending.splice(0)) emit(batch);
          catchingUp = false;
        } catch (error) {
          subscriber.error(error);
        }
      })();
      return () => liveSubscription.unsubscribe();
    });
  }

  private liveSubject(stream: string): Subject<StoredEvent[]> {
    let subject = this.live.get(stream);
    if (!subject) {
      subject = new Subject<StoredEvent[]>();
      this.live.set(stream, subject);
    }
    return subject;
  }
}
