import pg from "pg";
import { NEVER, Observable } from "rxjs";
import { catalogue as defaultCatalogue, GENESIS_HASH, type NewEvent, type StoredEvent } from "../../events/index.js";
import { checkAppend, sealChecked, type CheckedEvent } from "./append-check.js";
import { checkStreamName, planBranch, refuseStreamInUse } from "./branch-plan.js";
import {
  AppendConflictError,
  BranchError,
  CorruptEventError,
  EventExistsError,
  StoreOpenError,
  type StoreFailedError,
} from "./errors.js";
import type {
  AppendOptions,
  ComputerSeatRows,
  ImportedStream,
  Lease,
  PostgresOptions,
  ReadPoint,
  SealedTexts,
  SeatRows,
  SnapshotCache,
  StoreOptions,
} from "./event-store.js";
import { LineStore } from "./line-store.js";
import { HASH_LENGTH, seqDigits, streamKeyPrefix, type BranchMeta, type Head } from "./layout.js";
import { checkOut, inTransaction } from "./postgres-checkout.js";
import { databaseAway } from "./postgres-errors.js";
import { AdvisoryLease } from "./postgres-lease.js";
import { AppendListener } from "./postgres-listener.js";
import { postgresComputerSeats, postgresSeatRows } from "./postgres-seats.js";
import { APPENDS_CHANNEL, hasSchema, migrateSchema } from "./postgres-schema.js";
import { SerialQueue } from "./queue.js";
import { READ_BATCH } from "./read-ahead.js";
import { decodeInOrder, ReadOrder } from "./read-order.js";

/** A PostgreSQL read point: one connection in a repeatable-read transaction, whose snapshot every read through it sees. */
interface PgReadPoint extends ReadPoint {
  client: pg.PoolClient;
}

/** Anything a query can go through: the pool, or a read point's connection. */
type Queryable = Pick<pg.Pool, "query">;

/** How long a follower waits to read again after the database was away. */
const AWAY_RETRY_MS = 1_000;

/** Rows per INSERT of an import. */
const IMPORT_ROWS = 5_000;

/** PostgreSQL's code for a unique key refusing a row: another writer took the seq first. */
const UNIQUE_VIOLATION = "23505";

interface BranchRow {
  stream: string;
  name: string;
  parent: string;
  root: string;
  fork_seq: string;
  fork_hash: string;
  created: string;
}

const branchOfRow = (row: BranchRow): BranchMeta => ({
  stream: row.stream,
  name: row.name,
  parent: row.parent,
  root: row.root,
  forkSeq: Number(row.fork_seq),
  forkHash: row.fork_hash,
  created: row.created,
});

/**
 * A stream's followers in this process: how to wake each, with the last seq it has been given. An append is news to a
 * follower that has not been given it, whatever the others have: one that began later may have read past an
 * append whose notification is still on its way, which must still wake those that began earlier.
 */
interface Followed {
  wake: Map<(appended?: StoredEvent[]) => void, { last: number }>;
}

/** Wakes the followers that have not been given `seq` yet (every follower when it is not known). */
function wakeBehind(followed: Followed | undefined, seq: number | undefined): void {
  for (const [wake, at] of followed?.wake ?? []) if (seq === undefined || at.last < seq) wake();
}

/** A batch of checked events sealed onto a head: the events, their columns as written, and the new head. */
function sealBatch(stream: string, head: Head, checked: readonly CheckedEvent[]) {
  let prev = head.hash;
  const stored: StoredEvent[] = [];
  const seqs: number[] = [];
  const hashes: string[] = [];
  const bodies: string[] = [];
  for (const [index, event] of checked.entries()) {
    const seq = head.seq + index + 1;
    const sealed = sealChecked(stream, seq, prev, event);
    seqs.push(seq);
    hashes.push(sealed.stored.hash);
    bodies.push(sealed.value.slice(HASH_LENGTH));
    stored.push(sealed.stored);
    prev = sealed.stored.hash;
  }
  return { stored, seqs, hashes, bodies, head: { seq: head.seq + stored.length, hash: prev } };
}

/** The pool's size and timeouts when the options do not say (docs/scaling.md, "Connections and timeouts"). */
export const POSTGRES_DEFAULTS: PostgresOptions = { poolSize: 8, connectTimeoutMs: 10_000, statementTimeoutMs: 60_000 };

/** A connection's settings: the URL's, with a connect timeout and a statement timeout (0: none). */
function connectionConfig(location: string, options: PostgresOptions): pg.ClientConfig {
  return {
    connectionString: location,
    connectionTimeoutMillis: options.connectTimeoutMs,
    ...(options.statementTimeoutMs > 0 ? { statement_timeout: options.statementTimeoutMs } : {}),
  };
}

/** The URL as it may be shown: without its password. */
function shownLocation(location: string): string {
  try {
    const url = new URL(location);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return "a PostgreSQL URL that does not parse";
  }
}

/**
 * The event log in PostgreSQL, shared by every process that opens the same database (several `epicwar serve`
 * instances). Tables: events (stream, seq, hash, body), heads, branches, snapshots (postgres-schema.ts).
 *
 * Each append is one transaction: it locks the stream's head row, refuses a stale expected seq (AppendConflictError)
 * or an event stored after the head (EventExistsError), inserts the events (whose primary key refuses a seq another
 * writer took first) and the new head, and notifies the appends channel. The head is read from the database on every
 * call, since other processes append too; followers (batches$) read by seq whenever a notification or a head read
 * says their stream moved.
 */
export class PostgresEventStore extends LineStore {
  private readonly queue = new SerialQueue();
  /** Per followed stream, its followers' wake-ups and the highest seq any of them has been given. */
  private readonly followed = new Map<string, Followed>();
  private listener: AppendListener | undefined;
  /**
   * Each stream's head as this process last read or wrote it. Only an append's first guess of the hash its events
   * chain onto: its statement writes them only if the stored head is still that one (appendOnHead).
   */
  private readonly lastHeads = new Map<string, Head>();
  readonly snapshots: SnapshotCache;
  readonly sealedTexts: SealedTexts;
  readonly seatRows: SeatRows;
  readonly computerSeats: ComputerSeatRows;
  /** Several processes (servers, CLI commands) may append to one database at once. */
  readonly shared = true;
  /** A transaction that fails leaves nothing of this process to distrust: every head is read from the database. */
  readonly failure: StoreFailedError | undefined = undefined;
  readonly failures$: Observable<StoreFailedError> = NEVER;

  private constructor(
    private readonly pool: pg.Pool,
    /** How the listening connection connects: as the pool's connections do. */
    private readonly connection: pg.ClientConfig,
    readonly location: string,
    private readonly options: Required<Omit<StoreOptions, "postgres">>,
  ) {
    super();
    this.snapshots = postgresSnapshotCache(pool);
    this.sealedTexts = postgresSealedTexts(pool);
    this.seatRows = postgresSeatRows(pool);
    this.computerSeats = postgresComputerSeats(pool);
  }

  /** A session-level advisory lock on a connection of the lease's own (postgres-lease.ts). */
  lease(name: string, changed: (held: boolean) => void): Lease {
    return new AdvisoryLease(this.connection, name, changed);
  }

  static async open(location: string, options: StoreOptions = {}): Promise<PostgresEventStore> {
    const shown = shownLocation(location);
    const connection = connectionConfig(location, { ...POSTGRES_DEFAULTS, ...options.postgres });
    const pool = new pg.Pool({ ...connection, max: options.postgres?.poolSize ?? POSTGRES_DEFAULTS.poolSize });
    // An idle connection's error (the server restarting) is the next query's to report, not the process's to die of.
    pool.on("error", () => undefined);
    try {
      const client = await pool.connect();
      try {
        if (options.createIfMissing === false) {
          if (!(await hasSchema(client))) throw new StoreOpenError(`no campaign database at ${shown}`);
        } else {
          await migrateSchema(client);
        }
      } finally {
        client.release();
      }
    } catch (error) {
      await pool.end();
      if (error instanceof StoreOpenError) throw error;
      throw new StoreOpenError(`cannot open ${shown}: ${(error as Error).message}`);
    }
    return new PostgresEventStore(pool, connection, shown, {
      sync: options.sync ?? true,
      catalogue: options.catalogue ?? defaultCatalogue,
      createIfMissing: options.createIfMissing ?? true,
    });
  }

  async close(): Promise<void> {
    await this.queue.run(async () => undefined);
    await this.listener?.close();
    this.followed.clear();
    await this.pool.end();
  }

  /** Never failed: nothing to reopen. */
  async reopen(): Promise<void> {}

  private on(readPoint: ReadPoint | undefined): Queryable {
    return (readPoint as PgReadPoint | undefined)?.client ?? this.pool;
  }

  async head(stream: string): Promise<Head> {
    const head = await this.storedHead(stream);
    // Another process may have appended without this one hearing of it yet: its followers read on now.
    wakeBehind(this.followed.get(stream), head.seq);
    return head;
  }

  async storedHead(stream: string, readPoint?: ReadPoint): Promise<Head> {
    const { rows } = await this.on(readPoint).query<{ seq: string; hash: string }>({
      name: "epicwar-head",
      text: "SELECT seq, hash FROM heads WHERE stream = $1",
      values: [stream],
    });
    const row = rows[0];
    const head = row ? { seq: Number(row.seq), hash: row.hash } : { seq: 0, hash: GENESIS_HASH };
    if (!readPoint) this.lastHeads.set(stream, head);
    return head;
  }

  async streams(): Promise<string[]> {
    // The streams with events are found by one index probe each (a loose scan), as LevelDB seeks past each stream.
    const { rows } = await this.pool.query<{ stream: string }>(`
      WITH RECURSIVE found(stream) AS (
        (SELECT stream FROM events ORDER BY stream LIMIT 1)
        UNION ALL
        SELECT (SELECT e.stream FROM events e WHERE e.stream > found.stream ORDER BY e.stream LIMIT 1)
        FROM found WHERE found.stream IS NOT NULL
      )
      SELECT stream FROM found WHERE stream IS NOT NULL
      UNION SELECT stream FROM heads`);
    return rows.map((row) => row.stream).sort();
  }

  async firstStoredFrom(stream: string, seq: number, readPoint?: ReadPoint): Promise<number | undefined> {
    const { rows } = await this.on(readPoint).query<{ seq: string }>(
      "SELECT seq FROM events WHERE stream = $1 AND seq >= $2 ORDER BY seq LIMIT 1",
      [stream, seq],
    );
    return rows[0] ? Number(rows[0].seq) : undefined;
  }

  async branch(stream: string): Promise<BranchMeta | undefined> {
    const { rows } = await this.pool.query<BranchRow>("SELECT * FROM branches WHERE stream = $1", [stream]);
    return rows[0] && branchOfRow(rows[0]);
  }

  async branches(): Promise<BranchMeta[]> {
    const { rows } = await this.pool.query<BranchRow>("SELECT * FROM branches ORDER BY stream");
    return rows.map(branchOfRow);
  }

  async createBranch(
    stream: string,
    parent: string,
    forkSeq: number,
    options: { name?: string; sync?: boolean; created?: string } = {},
  ): Promise<BranchMeta> {
    checkStreamName(stream);
    return this.queue.run(async () => {
      const meta = await planBranch(this, stream, parent, forkSeq, options);
      try {
        await this.transaction(options.sync, async (client) => {
          await this.insertBranch(client, meta);
          // A plain insert: a head another process wrote for this stream since it was checked refuses the branch.
          await client.query("INSERT INTO heads (stream, seq, hash) VALUES ($1, $2, $3)", [
            stream,
            meta.forkSeq,
            meta.forkHash,
          ]);
        });
      } catch (error) {
        if ((error as { code?: string }).code === UNIQUE_VIOLATION)
          throw new BranchError(`${stream} already exists in this log`);
        throw error;
      }
      this.lines.delete(stream);
      return meta;
    });
  }

  /**
   * Writes whole streams an import has checked: their values as given (split into hash and body, never re-encoded),
   * their heads and branch records, in one transaction, so that no reader sees a stream half imported. A stream in
   * use is refused with BranchError before anything is written; one taken by another writer meanwhile by the heads'
   * primary key, which rolls the whole import back.
   */
  async importStreams(streams: readonly ImportedStream[]): Promise<void> {
    for (const { stream } of streams) checkStreamName(stream);
    return this.queue.run(async () => {
      for (const { stream } of streams) await refuseStreamInUse(this, stream);
      try {
        await this.transaction(undefined, async (client) => {
          for (const { stream, branch, values, first, head } of streams) {
            for (let start = 0; start < values.length; start += IMPORT_ROWS) {
              const slice = values.slice(start, start + IMPORT_ROWS);
              await client.query(
                `INSERT INTO events (stream, seq, hash, body)
                 SELECT $1, $2::bigint + ordinality - 1, substr(value, 1, ${HASH_LENGTH}), substr(value, ${HASH_LENGTH + 1})
                 FROM unnest($3::text[]) WITH ORDINALITY AS batch(value, ordinality)`,
                [stream, first + start, slice],
              );
            }
            if (branch) await this.insertBranch(client, branch);
            await client.query("INSERT INTO heads (stream, seq, hash) VALUES ($1, $2, $3)", [
              stream,
              head.seq,
              head.hash,
            ]);
          }
        });
      } catch (error) {
        if ((error as { code?: string }).code === UNIQUE_VIOLATION)
          throw new BranchError(`a stream of the import was written by another process meanwhile: nothing was written`);
        throw error;
      }
      for (const { stream } of streams) this.lines.delete(stream);
    });
  }

  async append(
    stream: string,
    expectedSeq: number,
    events: readonly NewEvent[],
    options: AppendOptions = {},
  ): Promise<StoredEvent[]> {
    // Checked and copied in the caller's turn, as LevelDB's store does; queued in call order.
    const checked = checkAppend(stream, events, this.options.catalogue);
    return this.queue.run(async () => {
      let stored: StoredEvent[] | undefined;
      try {
        const known = this.lastHeads.get(stream);
        // The usual append (a durable one, on the head last read here: the engine reads it to decide) is one
        // statement; any other, or one that finds the head moved, is the transaction that tells why.
        if (checked.length > 0 && (options.sync ?? this.options.sync) && known?.seq === expectedSeq)
          stored = await this.appendOnHead(stream, known, checked, options.whileWriting);
        stored ??= await this.appendInTransaction(stream, expectedSeq, checked, options.sync);
        const last = stored.at(-1);
        if (last) this.lastHeads.set(stream, { seq: last.seq, hash: last.hash });
        return stored;
      } finally {
        // Followers get the data as a replay reads it back (parsed from the stored canonical JSON), in objects of
        // their own, as LevelDB's store gives them; after a failed append they read on from the database.
        this.wakeFollowers(
          stream,
          stored?.length
            ? stored.map((event, index) => ({ ...event, data: JSON.parse(checked[index]!.dataJson) as unknown }))
            : undefined,
        );
      }
    });
  }

  /**
   * The events written in one statement if the stream's head is still `head` (its seq and hash: the compare of a
   * compare-and-set, made on the head's row under its lock) and nothing is stored after it; undefined, with nothing
   * written, when it is not, or when a seq is taken.
   */
  private async appendOnHead(
    stream: string,
    head: Head,
    checked: readonly CheckedEvent[],
    whileWriting: AppendOptions["whileWriting"],
  ): Promise<StoredEvent[] | undefined> {
    const batch = sealBatch(stream, head, checked);
    try {
      const writing = this.pool.query({
        name: "epicwar-append",
        // A head row is made for a stream that has none only at seq 0; one another first append makes meanwhile is
        // waited for by ON CONFLICT, then compared. The events are written only with the head's move.
        text: `WITH moved AS (
                 INSERT INTO heads (stream, seq, hash)
                 SELECT $1, $5, $6
                 WHERE ($7 = 0 OR EXISTS (SELECT 1 FROM heads WHERE stream = $1))
                   AND NOT EXISTS (SELECT 1 FROM events WHERE stream = $1 AND seq > $7)
                 ON CONFLICT (stream) DO UPDATE SET seq = EXCLUDED.seq, hash = EXCLUDED.hash
                 WHERE heads.seq = $7 AND heads.hash = $8
                 RETURNING seq
               ), written AS (
                 INSERT INTO events (stream, seq, hash, body)
                 SELECT $1, batch.seq, batch.hash, batch.body
                 FROM moved, unnest($2::bigint[], $3::text[], $4::text[]) AS batch(seq, hash, body)
               )
               SELECT pg_notify('${APPENDS_CHANNEL}', $1 || ' ' || moved.seq) FROM moved`,
        values: [stream, batch.seqs, batch.hashes, batch.bodies, batch.head.seq, batch.head.hash, head.seq, head.hash],
      });
      // Its own task: whatever it does or throws is not the append's.
      if (whileWriting) queueMicrotask(() => whileWriting(batch.stored));
      const { rows } = await writing;
      return rows.length === 1 ? batch.stored : undefined;
    } catch (error) {
      // A seq taken meanwhile: the transaction tells whose.
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return undefined;
      throw error;
    }
  }

  /**
   * The append as one transaction: the head's row locked (lockHead), the expected seq compared, any event stored
   * after the head refused (EventExistsError), then the events, the head and the notification written.
   */
  private async appendInTransaction(
    stream: string,
    expectedSeq: number,
    checked: readonly CheckedEvent[],
    sync: boolean | undefined,
  ): Promise<StoredEvent[]> {
    try {
      return await this.transaction(sync, async (client) => {
        // Nothing to write: the expected seq is checked, and no head row is made for a stream that has none.
        const head = checked.length === 0 ? await this.storedHead(stream) : await this.lockHead(client, stream);
        if (head.seq !== expectedSeq) throw new AppendConflictError(stream, expectedSeq, head.seq);
        if (checked.length === 0) return [];
        const taken = await this.firstStoredFrom(stream, head.seq + 1, {
          client,
          close: async () => {},
        } as PgReadPoint);
        if (taken !== undefined) throw new EventExistsError(stream, taken, head.seq);
        const batch = sealBatch(stream, head, checked);
        await client.query(
          `WITH written AS (
             INSERT INTO events (stream, seq, hash, body)
             SELECT $1, seq, hash, body FROM unnest($2::bigint[], $3::text[], $4::text[]) AS batch(seq, hash, body)
           ), moved AS (
             INSERT INTO heads (stream, seq, hash) VALUES ($1, $5, $6)
             ON CONFLICT (stream) DO UPDATE SET seq = EXCLUDED.seq, hash = EXCLUDED.hash
           )
           SELECT pg_notify('${APPENDS_CHANNEL}', $1 || ' ' || $5)`,
          [stream, batch.seqs, batch.hashes, batch.bodies, batch.head.seq, batch.head.hash],
        );
        return batch.stored;
      });
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      // Another writer's first append of the stream took these seqs between this one's head read and its insert.
      throw new AppendConflictError(stream, expectedSeq, (await this.storedHead(stream)).seq);
    }
  }

  private async insertBranch(client: pg.PoolClient, meta: BranchMeta): Promise<void> {
    await client.query(
      "INSERT INTO branches (stream, name, parent, root, fork_seq, fork_hash, created) VALUES ($1, $2, $3, $4, $5, $6, $7)",
      [meta.stream, meta.name, meta.parent, meta.root, meta.forkSeq, meta.forkHash, meta.created],
    );
  }

  /**
   * The stream's head, its row locked until the transaction ends: every other append of the stream waits for this
   * one, then reads the head it left. A stream's first append has no row to lock yet: it writes one at seq 0 (kept
   * only if the append is), waiting for any other first append's transaction, whose head it then reads.
   */
  private async lockHead(client: pg.PoolClient, stream: string): Promise<Head> {
    const read = () =>
      client.query<{ seq: string; hash: string }>("SELECT seq, hash FROM heads WHERE stream = $1 FOR UPDATE", [stream]);
    let { rows } = await read();
    if (!rows[0]) {
      await client.query("INSERT INTO heads (stream, seq, hash) VALUES ($1, 0, $2) ON CONFLICT (stream) DO NOTHING", [
        stream,
        GENESIS_HASH,
      ]);
      ({ rows } = await read());
    }
    return { seq: Number(rows[0]!.seq), hash: rows[0]!.hash };
  }

  /** Runs work in one transaction on one connection; `sync: false` commits without waiting for the disk. */
  private async transaction<T>(sync: boolean | undefined, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const { client, release } = await checkOut(this.pool);
    try {
      await client.query("BEGIN");
      if (!(sync ?? this.options.sync)) await client.query("SET LOCAL synchronous_commit = off");
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(release);
      throw error;
    } finally {
      release();
    }
  }

  protected async ownValue(stream: string, seq: number): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ value: string }>(
      "SELECT hash || body AS value FROM events WHERE stream = $1 AND seq = $2",
      [stream, seq],
    );
    return rows[0]?.value;
  }

  async *rawBatches(
    stream: string,
    from = 1,
    to?: number,
    readPoint?: ReadPoint,
  ): AsyncGenerator<Array<[number, string]>> {
    yield* this.pages(stream, from, to, readPoint);
  }

  async *rawEntries(
    stream: string,
    from = 1,
    to?: number,
    readPoint?: ReadPoint,
  ): AsyncGenerator<Array<[string, string]>> {
    const prefix = this.storedKeyPrefix(stream);
    for await (const page of this.pages(stream, from, to, readPoint))
      yield page.map(([seq, value]) => [prefix + seqDigits(seq), value] as [string, string]);
  }

  /**
   * A stream's own stored events from..to in pages of READ_BATCH by seq (each page a range of the primary key), the
   * next page asked for as soon as the last arrives, as LevelDB's iterator reads ahead.
   */
  private async *pages(
    stream: string,
    from: number,
    to: number | undefined,
    readPoint: ReadPoint | undefined,
  ): AsyncGenerator<Array<[number, string]>> {
    const on = this.on(readPoint);
    const last = to ?? Number.MAX_SAFE_INTEGER;
    const page = async (after: number): Promise<Array<[number, string]>> => {
      const { rows } = await on.query<{ seq: string; value: string }>(
        "SELECT seq, hash || body AS value FROM events WHERE stream = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4",
        [stream, after, last, READ_BATCH],
      );
      return rows.map((row) => [Number(row.seq), row.value]);
    };
    let next: Promise<Array<[number, string]>> | undefined = page(Math.max(from, 1) - 1);
    try {
      for (;;) {
        const batch = await next;
        next = undefined;
        if (batch.length === 0) return;
        if (batch.length === READ_BATCH) next = page(batch.at(-1)![0]);
        yield batch;
        if (!next) return;
      }
    } finally {
      await next?.catch(() => undefined);
    }
  }

  storedKeyPrefix(stream: string): string {
    return streamKeyPrefix(stream);
  }

  async readPoint(): Promise<ReadPoint> {
    const { client, release } = await checkOut(this.pool);
    try {
      await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
      // The snapshot is taken by the transaction's first statement, not by BEGIN.
      await client.query("SELECT 1");
    } catch (error) {
      release(error);
      throw error;
    }
    const point: PgReadPoint = {
      client,
      close: async () => {
        await client.query("COMMIT").catch(release);
        release();
      },
    };
    return point;
  }

  /** Verify's checker threads read a LevelDB folder themselves; on PostgreSQL the chain is checked on this thread. */
  checkerData(): undefined {
    return undefined;
  }

  async *readBatches(stream: string, from = 1, to?: number): AsyncGenerator<StoredEvent[]> {
    for (const segment of await this.line(stream)) {
      const start = Math.max(from, segment.from);
      const end = Math.min(to ?? Infinity, segment.to);
      if (start > end) continue;
      const order = new ReadOrder(segment.stream, start);
      for await (const page of this.pages(segment.stream, start, end === Infinity ? undefined : end, undefined))
        yield page.map(([seq, value]) => decodeInOrder(order, segment.stream, value, seq));
    }
  }

  /**
   * The line's events from `from` on: what is stored, then whatever is appended, by any process. The follower reads
   * by seq from where it is whenever it is woken: by an append of this process, by a notification from the database,
   * or by a head read that finds the stream further on than any follower here has been given. A notification that
   * never comes costs only time, never an event; nor does the database going away for a while (a restart, a
   * failover): the follower reads on from where it is once it answers again.
   */
  batches$(stream: string, from = 1): Observable<StoredEvent[]> {
    return new Observable<StoredEvent[]>((subscriber) => {
      const at = { last: from - 1 };
      let reading: Promise<void> | undefined;
      let again = false;
      let retry: NodeJS.Timeout | undefined;
      const followed = this.follow(stream);
      const readOn = async () => {
        do {
          again = false;
          for await (const batch of this.readBatches(stream, at.last + 1)) {
            if (subscriber.closed) return;
            at.last = batch.at(-1)!.seq;
            subscriber.next(batch);
          }
        } while (again && !subscriber.closed);
      };
      // The database away (restarting, failing over) ends no follower: it reads on from where it is a little later,
      // or as soon as the listener is back. Any other error is the follower's.
      const failed = (error: unknown, tryAgain: () => void) => {
        if (subscriber.closed) return;
        if (!databaseAway(error)) return subscriber.error(error);
        clearTimeout(retry);
        retry = setTimeout(tryAgain, AWAY_RETRY_MS);
        retry.unref();
      };
      const wake = (appended?: StoredEvent[]) => {
        // An append of this process that follows what this follower has is given as it is, without a read.
        if (appended && !reading && appended[0]!.seq === at.last + 1) {
          at.last = appended.at(-1)!.seq;
          subscriber.next(appended);
          return;
        }
        if (reading) {
          again = true;
          return;
        }
        reading = readOn()
          .catch((error: unknown) => failed(error, wake))
          .finally(() => {
            reading = undefined;
            // Woken after the read's last look for more and before it was done (by an append a follower made in
            // between): read on, or that append would wait for the next one to be delivered.
            if (again && !subscriber.closed) wake();
          });
      };
      const begin = async () => {
        try {
          // The head as it was before the first read: a line that ends before it lost its tail outside epicwar.
          const head = await this.storedHead(stream);
          await readOn();
          if (subscriber.closed) return;
          if (at.last < head.seq)
            throw new CorruptEventError(stream, at.last + 1, `is missing: the head counts ${head.seq} events`);
          followed.wake.set(wake, at);
          // Anything appended while the first read ran.
          wake();
        } catch (error) {
          failed(error, () => void begin());
        }
      };
      void begin();
      return () => {
        clearTimeout(retry);
        followed.wake.delete(wake);
        if (followed.wake.size === 0) this.followed.delete(stream);
      };
    });
  }

  /** The stream's followers here, and the listener that wakes them on other processes' appends (started once). */
  private follow(stream: string): Followed {
    if (!this.listener) {
      this.listener = new AppendListener(this.connection, (heard, seq) => {
        if (heard === undefined) for (const followed of this.followed.values()) wakeBehind(followed, undefined);
        // An append every follower here was given already (this process's own) needs no read.
        else wakeBehind(this.followed.get(heard), seq);
      });
      void this.listener.start();
    }
    let followed = this.followed.get(stream);
    if (!followed) this.followed.set(stream, (followed = { wake: new Map() }));
    return followed;
  }

  /** Wakes the stream's followers here: with the events this process has just appended, or to read on. */
  private wakeFollowers(stream: string, appended?: StoredEvent[]): void {
    for (const wake of this.followed.get(stream)?.wake.keys() ?? []) wake(appended);
  }
}

/** The snapshot cache as a table of key/value rows, keys compared by code point as LevelDB compares them. */
function postgresSnapshotCache(pool: pg.Pool): SnapshotCache {
  return {
    get: async (key) =>
      (await pool.query<{ value: string }>("SELECT value FROM snapshots WHERE key = $1", [key])).rows[0]?.value,
    put: async (entries) => {
      if (entries.length === 0) return;
      await pool.query(
        `INSERT INTO snapshots (key, value) SELECT * FROM unnest($1::text[], $2::text[])
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
        [entries.map((entry) => entry.key), entries.map((entry) => entry.value)],
      );
    },
    del: async (key) => {
      await pool.query("DELETE FROM snapshots WHERE key = $1", [key]);
    },
    last: async (gte, lte) => {
      const { rows } = await pool.query<{ key: string; value: string }>(
        "SELECT key, value FROM snapshots WHERE key >= $1 AND key <= $2 ORDER BY key DESC LIMIT 1",
        [gte, lte],
      );
      return rows[0] && [rows[0].key, rows[0].value];
    },
    keys: async (gte, lte) =>
      (
        await pool.query<{ key: string }>("SELECT key FROM snapshots WHERE key >= $1 AND key <= $2 ORDER BY key", [
          gte,
          lte,
        ])
      ).rows.map((row) => row.key),
    values: async function* (gte, lte) {
      const { rows } = await pool.query<{ value: string }>(
        "SELECT value FROM snapshots WHERE key >= $1 AND key <= $2 ORDER BY key",
        [gte, lte],
      );
      for (const row of rows) yield row.value;
    },
    clear: async (range) => {
      if (range) await pool.query("DELETE FROM snapshots WHERE key >= $1 AND key <= $2", [range.gte, range.lte]);
      else await pool.query("DELETE FROM snapshots");
    },
  };
}

/**
 * The sealed texts on PostgreSQL (table sealed_texts): each change in one transaction under an advisory lock of its
 * line and party, so that two processes changing one party's text at once apply their changes one after the other.
 */
function postgresSealedTexts(pool: pg.Pool): SealedTexts {
  return {
    read: async (stream, party) =>
      (
        await pool.query<{ sealed: string }>("SELECT sealed FROM sealed_texts WHERE stream = $1 AND party = $2", [
          stream,
          party,
        ])
      ).rows[0]?.sealed,
    update: (stream, party, change) =>
      inTransaction(pool, async (client) => {
        await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`epicwar sealed ${stream} ${party}`]);
        const { rows } = await client.query<{ sealed: string }>(
          "SELECT sealed FROM sealed_texts WHERE stream = $1 AND party = $2",
          [stream, party],
        );
        await client.query(
          `INSERT INTO sealed_texts (stream, party, sealed) VALUES ($1, $2, $3)
           ON CONFLICT (stream, party) DO UPDATE SET sealed = EXCLUDED.sealed`,
          [stream, party, change(rows[0]?.sealed)],
        );
      }),
  };
}
