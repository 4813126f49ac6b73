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
  type StoredEvent,
} from "../../events/index.js";
import { Id } from "../../events/common.js";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { AppendConflictError, CorruptEventError, InvalidEventError } from "./errors.js";
import { canonicalJson, sha256Hex } from "./hash.js";
import { decodeEvent, encodeEvent, eventKey, seqOfKey, streamRange, type Head } from "./layout.js";
import { SerialQueue } from "./queue.js";

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

const READ_BATCH = 1000;

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/;

/** RFC 3339 date-time: the shape, and a real calendar date and time of day (no month 13, 30 February or hour 25). */
function isDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  if (days === undefined || day < 1 || day > days || hour > 23 || minute > 59 || second > 60) return false;
  return match[9] === undefined || (Number(match[9]) <= 23 && Number(match[10]) <= 59);
}

const envelopeAjv = new Ajv({ strict: true });
envelopeAjv.addFormat("date-time", { type: "string", validate: isDateTime });
const checkEnvelope = envelopeAjv.compile(NewEventSchema);
/** Stream names are ids: no "#" or "~", which would let one stream's keys fall inside another's key range. */
const STREAM_NAME = new RegExp(Id.pattern!);

/** Seals an envelope into the chain: its hash covers every field but the hash itself. */
export function sealEvent(stream: string, seq: number, prev: string, event: NewEvent): { stored: StoredEvent; value: string } {
  const body = canonicalJson({ stream, seq, type: event.type, version: event.version, at: event.at, actor: event.actor, data: event.data, prev });
  const hash = sha256Hex(body);
  const stored: StoredEvent = { stream, seq, type: event.type, version: event.version, at: event.at, actor: event.actor, data: event.data, prev, hash };
  return { stored, value: encodeEvent(hash, body) };
}

/**
 * The append-only, hash-chained event log of many streams (campaigns, later branches) in one LevelDB.
 * Appends are serialised through one queue and written with their new head in one atomic batch.
 */
export class EventStore {
  private readonly queue = new SerialQueue();
  private readonly heads = new Map<string, Head>();
  private readonly live = new Map<string, Subject<StoredEvent[]>>();
  readonly events;
  private readonly headsDb;

  private constructor(
    readonly db: Level<string, string>,
    private readonly options: Required<StoreOptions>,
  ) {
    this.events = db.sublevel<string, string>("events", { valueEncoding: "utf8" });
    this.headsDb = db.sublevel<string, string>("heads", { valueEncoding: "utf8" });
  }

  static async open(location: string, options: StoreOptions = {}): Promise<EventStore> {
    if (options.createIfMissing === false && !existsSync(join(location, "CURRENT"))) {
      throw new StoreOpenError(`no campaign database at ${location}`);
    }
    const db = new Level<string, string>(location, { valueEncoding: "utf8" });
    try {
      await db.open({ createIfMissing: options.createIfMissing ?? true });
    } catch (error) {
      const { cause, message } = error as Error & { cause?: Error & { code?: string } };
      if (cause?.code === "LEVEL_LOCKED") throw new StoreOpenError(`${location} is in use by another epicwar process`);
      if (/does not exist/.test(cause?.message ?? message)) throw new StoreOpenError(`no campaign database at ${location}`);
      throw new StoreOpenError(`cannot open ${location}: ${cause?.message ?? message}`);
    }
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
  }

  /** The stream's last seq and hash; seq 0 and the genesis hash for a stream with no events. */
  async head(stream: string): Promise<Head> {
    return this.heads.get(stream) ?? this.storedHead(stream);
  }

  /** The head as stored in LevelDB, bypassing this process's cache: what verify compares the chain against. */
  async storedHead(stream: string): Promise<Head> {
    const value = await this.headsDb.get(stream);
    return value === undefined ? { seq: 0, hash: GENESIS_HASH } : (JSON.parse(value) as Head);
  }

  /** Every stream that has at least one event. */
  async streams(): Promise<string[]> {
    return this.headsDb.keys().all();
  }

  /**
   * Appends events after `expectedSeq`, the seq the writer last saw. A stale expectedSeq is refused with
   * AppendConflictError; an event that fails its schema is refused with InvalidEventError. Either way nothing is written.
   */
  async append(stream: string, expectedSeq: number, events: readonly NewEvent[], options: { sync?: boolean } = {}): Promise<StoredEvent[]> {
    // Checked (and copied) before queueing, in the caller's turn: errors reject the returned promise, and a caller
    // changing its objects afterwards cannot change what was checked. Queued synchronously, so call order is kept.
    if (!STREAM_NAME.test(stream)) throw new RangeError(`stream ${JSON.stringify(stream)} is not a valid stream name (an id: letters, digits, _ . -)`);
    const checked = events.map((event, index) => this.checkEvent(event, index));
    return this.queue.run(async () => {
      const head = await this.head(stream);
      if (head.seq !== expectedSeq) throw new AppendConflictError(stream, expectedSeq, head.seq);
      if (checked.length === 0) return [];
      let prev = head.hash;
      const stored: StoredEvent[] = [];
      const batch = this.db.batch();
      for (const [index, event] of checked.entries()) {
        const seq = head.seq + index + 1;
        const sealed = sealEvent(stream, seq, prev, event);
        batch.put(eventKey(stream, seq), sealed.value, { sublevel: this.events });
        stored.push(sealed.stored);
        prev = sealed.stored.hash;
      }
      const newHead: Head = { seq: head.seq + stored.length, hash: prev };
      batch.put(stream, JSON.stringify(newHead), { sublevel: this.headsDb });
      await batch.write({ sync: options.sync ?? this.options.sync });
      this.heads.set(stream, newHead);
      this.live.get(stream)?.next(stored);
      return stored;
    });
  }

  private checkEvent(original: NewEvent, index: number): NewEvent {
    let event: NewEvent;
    try {
      event = structuredClone(original);
    } catch {
      throw new InvalidEventError(index, "event", "is not plain data");
    }
    if (!checkEnvelope(event)) {
      const problem = describeAjvError(checkEnvelope.errors, "event");
      throw new InvalidEventError(index, problem.field, problem.message);
    }
    const problem = this.options.catalogue.check(event);
    if (problem) throw new InvalidEventError(index, problem.field, problem.message);
    return event;
  }

  /** The stream's stored key/value pairs in key order, in batches: what verify walks. */
  async *rawBatches(stream: string, from = 1): AsyncGenerator<Array<[number, string]>> {
    const iterator = this.events.iterator(streamRange(stream, from));
    try {
      for (;;) {
        const entries = await iterator.nextv(READ_BATCH);
        if (entries.length === 0) return;
        yield entries.map(([key, value]) => [seqOfKey(key), value] as [number, string]);
      }
    } finally {
      await iterator.close();
    }
  }

  /** The stream's events from seq `from` to `to` (inclusive), in batches, as stored. */
  async *readBatches(stream: string, from = 1, to?: number): AsyncGenerator<StoredEvent[]> {
    const iterator = this.events.values(streamRange(stream, from, to));
    let next = from;
    const decode = (value: string): StoredEvent => {
      try {
        return decodeEvent(value);
      } catch {
        throw new CorruptEventError(stream, next);
      } finally {
        next++;
      }
    };
    try {
      for (;;) {
        const values = await iterator.nextv(READ_BATCH);
        if (values.length === 0) return;
        yield values.map(decode);
      }
    } finally {
      await iterator.close();
    }
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
          for await (const batch of this.readBatches(stream, from)) {
            if (subscriber.closed) return;
            emit(batch);
          }
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
