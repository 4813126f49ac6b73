import { Level } from "level";
import { mergeMap, Observable, Subject } from "rxjs";
import { Ajv } from "ajv";
import {
  catalogue as defaultCatalogue,
  describeAjvError,
  GENESIS_HASH,
  NewEventSchema,
  type EventCatalogue,
  type NewEvent,
  type SchemaProblem,
  type StoredEvent,
} from "../../events/index.js";
import { Id } from "../../events/common.js";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { AppendConflictError, BranchError, CorruptEventError, EventExistsError, InvalidEventError } from "./errors.js";
import { canonicalPlainJson, sha256Hex } from "./hash.js";
import { canonicalJson } from "../commitments.js";
import {
  decodeEvent,
  encodeEvent,
  eventKey,
  HASH_LENGTH,
  seqOfKey,
  streamKeyPrefix,
  streamOfKey,
  streamRange,
  type BranchMeta,
  type Head,
  type Segment,
} from "./layout.js";
import { SerialQueue } from "./queue.js";
import { eventRange, rawEntries, readAhead, type ReadPoint } from "./read-ahead.js";

/** A stream as an import writes it: its own stored values (hash and body) from seq `first`, its head, its branch record. */
export interface ImportedStream {
  stream: string;
  branch?: BranchMeta;
  first: number;
  values: readonly string[];
  head: Head;
}

export interface StoreOptions {
  /** Fsync every append before acknowledging it (default true). Relax only for bulk imports and benchmarks. */
  sync?: boolean;
  /** Event types this store accepts (default: the engine's catalogue). */
  catalogue?: EventCatalogue;
  /** Create the folder when it holds no database yet (default true); readers pass false. */
  createIfMissing?: boolean;
}

/** The folder could not be opened as an event log: missing, locked by another process, or not a database. */
export class StoreOpenError extends Error {
  override readonly name = "StoreOpenError";
}

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

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/;

/** RFC 3339 date-time: the shape, and a real calendar date and time of day (no month 13, 30 February or hour 25). */
function isDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  if (days === undefined || day < 1 || day > days || hour > 23 || minute > 59 || second > 60) return false;
  return match[9] === undefined || (Number(match[9]) <= 23 && Number(match[10]) <= 59);
}

const envelopeAjv = new Ajv({ strict: true });
envelopeAjv.addFormat("date-time", { type: "string", validate: isDateTime });
const checkEnvelope = envelopeAjv.compile(NewEventSchema);
/** What is wrong with an envelope's fields as a writer supplies them (type, version, at, actor, data), if anything. */
export function envelopeProblem(event: unknown): SchemaProblem | undefined {
  return checkEnvelope(event) ? undefined : describeAjvError(checkEnvelope.errors, "event");
}

/** Stream names are ids: no "#" or "~", which would let one stream's keys fall inside another's key range. */
const STREAM_NAME = new RegExp(Id.pattern!);

/** Seals an envelope into the chain: its hash covers every field but the hash itself. */
export function sealEvent(
  stream: string,
  seq: number,
  prev: string,
  event: NewEvent,
): { stored: StoredEvent; value: string } {
  const body = canonicalJson({
    stream,
    seq,
    type: event.type,
    version: event.version,
    at: event.at,
    actor: event.actor,
    data: event.data,
    prev,
  });
  const hash = sha256Hex(body);
  const stored: StoredEvent = {
    stream,
    seq,
    type: event.type,
    version: event.version,
    at: event.at,
    actor: event.actor,
    data: event.data,
    prev,
    hash,
  };
  return { stored, value: encodeEvent(hash, body) };
}

/** A checked event: its data copied, and the canonical JSON of that data, written once when it was checked. */
export interface CheckedEvent extends NewEvent {
  dataJson: string;
}

/**
 * sealEvent for a checked event: the canonical envelope is put together around the data's canonical JSON (keys in
 * RFC 8785 order: actor, at, data, prev, seq, stream, type, version), giving the same bytes as canonicalJson.
 */
function sealChecked(
  stream: string,
  seq: number,
  prev: string,
  event: CheckedEvent,
): { stored: StoredEvent; value: string } {
  const body =
    `{"actor":${JSON.stringify(event.actor)},"at":${JSON.stringify(event.at)},"data":${event.dataJson},"prev":${JSON.stringify(prev)},` +
    `"seq":${seq},"stream":${JSON.stringify(stream)},"type":${JSON.stringify(event.type)},"version":${event.version}}`;
  const hash = sha256Hex(body);
  const stored: StoredEvent = {
    stream,
    seq,
    type: event.type,
    version: event.version,
    at: event.at,
    actor: event.actor,
    data: event.data,
    prev,
    hash,
  };
  return { stored, value: encodeEvent(hash, body) };
}

/**
 * What append checks before it writes, thrown as append throws it: the stream's name (RangeError), and each event
 * (InvalidEventError), copied: the envelope's fields are strings and numbers; the data is written out as canonical JSON
 * once, and copied in the same turn, so what is checked is exactly what will be hashed and stored, whatever the caller
 * does with its objects afterwards. Exported for the command handler that keeps no log (src/memory-engine.ts).
 */
export function checkAppend(stream: string, events: readonly NewEvent[], catalogue: EventCatalogue): CheckedEvent[] {
  if (!STREAM_NAME.test(stream))
    throw new RangeError(`stream ${JSON.stringify(stream)} is not a valid stream name (an id: letters, digits, _ . -)`);
  return events.map((event, index) => checkEvent(event, index, catalogue));
}

function checkEvent(original: NewEvent, index: number, catalogue: EventCatalogue): CheckedEvent {
  if (typeof original !== "object" || original === null)
    throw new InvalidEventError(index, "event", "is not plain data");
  if (!checkEnvelope(original)) {
    const problem = describeAjvError(checkEnvelope.errors, "event");
    throw new InvalidEventError(index, problem.field, problem.message);
  }
  let dataJson: string;
  try {
    dataJson = canonicalPlainJson(original.data);
  } catch {
    throw new InvalidEventError(index, "event", "is not plain data");
  }
  // The copy is read back from the canonical JSON: what append returns is what a read of the log gives, key order
  // included, and the caller's objects are not shared with it.
  const data: unknown = JSON.parse(dataJson);
  const event: CheckedEvent = {
    type: original.type,
    version: original.version,
    at: original.at,
    actor: original.actor,
    data,
    dataJson,
  };
  const problem = catalogue.check(event);
  if (problem) throw new InvalidEventError(index, problem.field, problem.message);
  return event;
}

/**
 * Checks that the events one read of a stream gives follow on as the chain says: each stored under its own seq and
 * stream, none missing from the first seq asked for to the last found, each linking to the one before. A fold can
 * trust nothing less, and it costs a few comparisons an event; the hashes are verify's. A broken order is reported as
 * the CorruptEventError of the first seq that is not where it should be.
 */
class ReadOrder {
  private prev: string | undefined;

  constructor(
    private readonly stream: string,
    /** The seq the next event must have. */
    public next: number,
  ) {
    this.prev = next === 1 ? GENESIS_HASH : undefined;
  }

  /** `keySeq`: the seq of the key the event was stored under, where the read knows it. */
  check(event: StoredEvent, keySeq = this.next): void {
    const seq = this.next;
    if (keySeq !== seq) throw new CorruptEventError(this.stream, seq, "is missing");
    if (event.seq !== seq || event.stream !== this.stream) {
      throw new CorruptEventError(
        this.stream,
        seq,
        `is missing or out of place: the event read in its place says it is ${String(event.stream)} #${String(event.seq)}`,
      );
    }
    if (this.prev !== undefined && event.prev !== this.prev)
      throw new CorruptEventError(this.stream, seq, `does not link to event ${seq - 1}`);
    this.prev = event.hash;
    this.next = seq + 1;
  }
}

/**
 * The append-only, hash-chained event log of many streams (campaigns and their branches) in one LevelDB.
 * Appends are serialised through one queue and written with their new head in one atomic batch.
 *
 * A branch is a stream that starts with another stream's prefix: it records (parent, fork seq, fork hash) and holds
 * only its own events, from fork seq + 1 on, the first linking to the fork hash. Every reader (readBatches, readAll,
 * batches$, events$) reads a branch as its whole line: the parent's events up to the fork (recursively), then its own.
 */
export class EventStore {
  private readonly queue = new SerialQueue();
  private readonly heads = new Map<string, Head>();
  private readonly live = new Map<string, Subject<StoredEvent[]>>();
  readonly events;
  private readonly headsDb;
  private readonly branchesDb;
  /** Lines known not to change: every branch's, and every stream's that has events (it can no longer become a branch). */
  private readonly lines = new Map<string, Segment[]>();

  private constructor(
    readonly db: Level<string, string>,
    private readonly options: Required<StoreOptions>,
  ) {
    this.events = db.sublevel<string, string>("events", { valueEncoding: "utf8" });
    this.headsDb = db.sublevel<string, string>("heads", { valueEncoding: "utf8" });
    this.branchesDb = db.sublevel<string, string>("branches", { valueEncoding: "utf8" });
  }

  static async open(location: string, options: StoreOptions = {}): Promise<EventStore> {
    if (options.createIfMissing === false && !existsSync(join(location, "CURRENT"))) {
      throw new StoreOpenError(`no campaign database at ${location}`);
    }
    const where = resolve(location);
    if (openHere.has(where)) throw new StoreOpenError(`${location} is already open in this process`);
    const db = new Level<string, string>(where, { valueEncoding: "utf8" });
    try {
      // Multithreading lets verify's chain checkers (worker threads) read through the same LevelDB handle; another
      // process is still locked out, and openHere keeps a second store of this process out.
      await db.open({ createIfMissing: options.createIfMissing ?? true, multithreading: true });
    } catch (error) {
      const { cause, message } = error as Error & { cause?: Error & { code?: string } };
      if (cause?.code === "LEVEL_LOCKED") throw new StoreOpenError(`${location} is in use by another epicwar process`);
      if (/does not exist/.test(cause?.message ?? message))
        throw new StoreOpenError(`no campaign database at ${location}`);
      throw new StoreOpenError(`cannot open ${location}: ${cause?.message ?? message}`);
    }
    openHere.add(where);
    return new EventStore(db, {
      sync: options.sync ?? true,
      catalogue: options.catalogue ?? defaultCatalogue,
      createIfMissing: options.createIfMissing ?? true,
    });
  }

  async close(): Promise<void> {
    await this.queue.run(async () => undefined);
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
    const value = await this.headsDb.get(stream, readPoint ? { snapshot: readPoint } : {});
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
    const [key] = await this.db.keys({ gte, lte, limit: 1, ...(readPoint ? { snapshot: readPoint } : {}) }).all();
    return key === undefined ? undefined : seqOfKey(key);
  }

  /**
   * The first seq of a line stored after its head, or undefined when there is none: events the head does not count,
   * because it was deleted or set back outside the engine (appends never leave any).
   */
  async storedAfterHead(stream: string): Promise<number | undefined> {
    const [head, line] = await Promise.all([this.head(stream), this.line(stream)]);
    return this.firstStoredFrom(line.at(-1)!.stream, head.seq + 1);
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

  /**
   * The stretches of streams a stream reads, in seq order: for a campaign its own events; for a branch its parent's
   * line up to the fork seq, then its own events. A stretch emptied by a fork below it is left out.
   */
  async line(stream: string): Promise<Segment[]> {
    const known = this.lines.get(stream);
    if (known) return known;
    const segments: Segment[] = [];
    const seen = new Set<string>();
    let current = stream;
    let to = Infinity;
    for (;;) {
      if (seen.has(current))
        throw new BranchError(
          `the branch records of ${stream} form a loop through ${current}: the folder was changed outside epicwar`,
        );
      seen.add(current);
      const meta = await this.branch(current);
      if (!meta) {
        segments.unshift({ stream: current, from: 1, to });
        break;
      }
      if (meta.forkSeq + 1 <= to) segments.unshift({ stream: current, from: meta.forkSeq + 1, to });
      to = Math.min(to, meta.forkSeq);
      current = meta.parent;
    }
    if (segments.length > 1 || (await this.head(stream)).seq > 0) this.lines.set(stream, segments);
    return segments;
  }

  /** The stored value (hash and body) of the event at `seq` of a stream's line, or undefined when there is none. */
  async valueAt(stream: string, seq: number): Promise<string | undefined> {
    return (await this.storedAt(stream, seq))?.value;
  }

  /** The value at `seq` of a stream's line, with the stream whose own event it is (the parent's, before a fork). */
  private async storedAt(stream: string, seq: number): Promise<{ owner: string; value: string } | undefined> {
    const segment = (await this.line(stream)).find((s) => seq >= s.from && seq <= s.to);
    const value = segment && (await this.events.get(eventKey(segment.stream, seq)));
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
    if (stored === undefined) return undefined;
    let event: StoredEvent;
    try {
      event = decodeEvent(stored.value);
    } catch {
      throw new CorruptEventError(stream, seq);
    }
    if (event.seq !== seq || event.stream !== stored.owner) {
      throw new CorruptEventError(
        stored.owner,
        seq,
        `is out of place: the event stored in its place says it is ${String(event.stream)} #${String(event.seq)}`,
      );
    }
    return event;
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
    if (!STREAM_NAME.test(stream))
      throw new RangeError(
        `stream ${JSON.stringify(stream)} is not a valid stream name (an id: letters, digits, _ . -)`,
      );
    return this.queue.run(async () => {
      // Events stored under the id without a head (deleted outside the engine) take it too: they are never overwritten.
      if (
        (await this.head(stream)).seq > 0 ||
        (await this.branch(stream)) ||
        (await this.firstStoredFrom(stream, 1)) !== undefined
      ) {
        throw new BranchError(`${stream} already exists in this folder`);
      }
      const parentHead = await this.head(parent);
      if (parentHead.seq === 0) throw new BranchError(`there is no stream ${parent} to branch from`);
      if (!Number.isInteger(forkSeq) || forkSeq < 1 || forkSeq > parentHead.seq) {
        throw new BranchError(`a branch of ${parent} forks at a seq from 1 to ${parentHead.seq}, not ${forkSeq}`);
      }
      const value = await this.valueAt(parent, forkSeq);
      if (value === undefined || sha256Hex(value.slice(HASH_LENGTH)) !== value.slice(0, HASH_LENGTH))
        throw new CorruptEventError(parent, forkSeq);
      const forkHash = value.slice(0, HASH_LENGTH);
      const parentMeta = await this.branch(parent);
      const meta: BranchMeta = {
        stream,
        name: options.name ?? stream,
        parent,
        root: parentMeta?.root ?? parent,
        forkSeq,
        forkHash,
        created: options.created ?? new Date().toISOString(),
      };
      const head: Head = { seq: forkSeq, hash: forkHash };
      const batch = this.db.batch();
      batch.put(stream, JSON.stringify(meta), { sublevel: this.branchesDb });
      batch.put(stream, JSON.stringify(head), { sublevel: this.headsDb });
      await batch.write({ sync: options.sync ?? this.options.sync });
      this.heads.set(stream, head);
      this.lines.delete(stream);
      return meta;
    });
  }

  /**
   * Writes whole streams that an import has checked (src/log/import-file.ts): each one's stored values as given, never
   * re-encoded, in batches without a flush, then every head and branch record in one last batch, flushed to disk. Until
   * that last batch no head counts the events, so no reader sees a stream half imported. Refused with BranchError,
   * before anything is written, when any of the streams is in use in this folder (a head, a branch record, or events).
   */
  async importStreams(streams: readonly ImportedStream[]): Promise<void> {
    for (const { stream } of streams)
      if (!STREAM_NAME.test(stream))
        throw new RangeError(
          `stream ${JSON.stringify(stream)} is not a valid stream name (an id: letters, digits, _ . -)`,
        );
    return this.queue.run(async () => {
      for (const { stream } of streams) {
        if (
          (await this.head(stream)).seq > 0 ||
          (await this.branch(stream)) ||
          (await this.firstStoredFrom(stream, 1)) !== undefined
        )
          throw new BranchError(`${stream} already exists in this folder`);
      }
      const last = this.db.batch();
      for (const { stream, branch, values, first, head } of streams) {
        for (let start = 0; start < values.length; start += IMPORT_BATCH) {
          const puts = values.slice(start, start + IMPORT_BATCH).map((value, i) => ({
            type: "put" as const,
            key: this.events.prefix + eventKey(stream, first + start + i),
            value,
          }));
          await this.db.batch(puts, { sync: false });
        }
        if (branch) last.put(stream, JSON.stringify(branch), { sublevel: this.branchesDb });
        last.put(stream, JSON.stringify(head), { sublevel: this.headsDb });
      }
      await last.write({ sync: this.options.sync });
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
    options: { sync?: boolean } = {},
  ): Promise<StoredEvent[]> {
    // Checked (and copied) before queueing, in the caller's turn: errors reject the returned promise, and a caller
    // changing its objects afterwards cannot change what was checked. Queued synchronously, so call order is kept.
    const checked = checkAppend(stream, events, this.options.catalogue);
    return this.queue.run(async () => {
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
      const operations: Array<{ type: "put"; key: string; value: string }> = [];
      for (const [index, event] of checked.entries()) {
        const seq = head.seq + index + 1;
        const sealed = sealChecked(stream, seq, prev, event);
        operations.push({ type: "put", key: this.events.prefix + eventKey(stream, seq), value: sealed.value });
        stored.push(sealed.stored);
        prev = sealed.stored.hash;
      }
      const takenSeq = await taken;
      if (takenSeq !== undefined) throw new EventExistsError(stream, takenSeq, head.seq);
      const newHead: Head = { seq: head.seq + stored.length, hash: prev };
      operations.push({ type: "put", key: this.headsDb.prefix + stream, value: JSON.stringify(newHead) });
      await this.db.batch(operations, { sync: options.sync ?? this.options.sync });
      this.heads.set(stream, newHead);
      // Followers get the data as a replay reads it back (parsed from the stored canonical JSON, so keys sorted), in
      // objects of their own: the reducers freeze what they keep, and the events returned to the caller stay its own.
      this.live
        .get(stream)
        ?.next(stored.map((event, index) => ({ ...event, data: JSON.parse(checked[index]!.dataJson) as unknown })));
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
    return rawEntries(this.db, this.eventsPrefix, stream, from, to, readPoint);
  }

  /**
   * A consistent view of the database as it is now, for reads that must agree with each other while appends go on
   * (verify reads the head and then the events up to it). Close it when done.
   */
  readPoint(): ReadPoint {
    return this.db.snapshot();
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
        if (value === undefined) continue;
        let event: StoredEvent;
        try {
          event = decodeEvent(value);
        } catch {
          throw new CorruptEventError(stream, from + index);
        }
        order.check(event, from + index);
        events.push(event);
      }
      if (events.length > 0) yield events;
      return;
    }
    const iterator = this.db.values(eventRange(this.eventsPrefix, stream, from, to));
    const decode = (value: string): StoredEvent => {
      let event: StoredEvent;
      try {
        event = decodeEvent(value);
      } catch {
        throw new CorruptEventError(stream, order.next);
      }
      order.check(event);
      return event;
    };
    for await (const values of readAhead(iterator)) yield values.map(decode);
  }

  async readAll(stream: string, from = 1, to?: number): Promise<StoredEvent[]> {
    const all: StoredEvent[] = [];
    for await (const batch of this.readBatches(stream, from, to)) all.push(...batch);
    return all;
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

  /** The same as batches$, one event at a time. */
  events$(stream: string, from = 1): Observable<StoredEvent> {
    return this.batches$(stream, from).pipe(mergeMap((batch) => batch));
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
