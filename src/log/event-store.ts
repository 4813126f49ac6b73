import type { Observable } from "rxjs";
import type { EventCatalogue, NewEvent, StoredEvent } from "../../events/index.js";
import type { CheckerData } from "./chain-worker.js";
import type { StoreFailedError } from "./errors.js";
import type { BranchMeta, Head, Segment } from "./layout.js";

export interface StoreOptions {
  /** Make every append durable before acknowledging it (default true). Relax only for bulk imports and benchmarks. */
  sync?: boolean;
  /** Event types this store accepts (default: the engine's catalogue). */
  catalogue?: EventCatalogue;
  /** Create the log when there is none yet (default true); readers pass false. */
  createIfMissing?: boolean;
  /** A log in PostgreSQL: its pool and timeouts (postgres-store.ts, POSTGRES_DEFAULTS); LevelDB ignores them. */
  postgres?: Partial<PostgresOptions>;
}

/** How a PostgreSQL log connects: its pool's size, and how long a connection and a statement may take. */
export interface PostgresOptions {
  /** Connections at most in the pool (the listening connection is one more). */
  poolSize: number;
  /** Milliseconds a new connection may take before it is given up (0: no limit). */
  connectTimeoutMs: number;
  /** Milliseconds one statement may run before PostgreSQL cancels it (0: no limit). */
  statementTimeoutMs: number;
}

/** A stream as an import writes it: its own stored values (hash and body) from seq `first`, its head, its branch record. */
export interface ImportedStream {
  stream: string;
  branch?: BranchMeta;
  first: number;
  values: readonly string[];
  head: Head;
}

/**
 * A consistent view of the log as it was when it was taken, for reads that must agree with each other while appends
 * go on (verify reads the head and then the events up to it). Close it when done.
 */
export interface ReadPoint {
  close(): Promise<void>;
}

/**
 * The snapshot cache's key/value pairs (replays/snapshots.ts gives the keys; docs/storage.md): a cache beside the log,
 * which may be cleared at any time. Ranges are of keys in code-point order, both ends included.
 */
export interface SnapshotCache {
  get(key: string): Promise<string | undefined>;
  put(entries: ReadonlyArray<{ key: string; value: string }>): Promise<void>;
  del(key: string): Promise<void>;
  /** The greatest key from `gte` to `lte` and its value, or undefined when the range holds none. */
  last(gte: string, lte: string): Promise<[string, string] | undefined>;
  keys(gte: string, lte: string): Promise<string[]>;
  values(gte: string, lte: string): AsyncIterable<string>;
  /** Deletes the range, or everything when none is given. */
  clear(range?: { gte: string; lte: string }): Promise<void>;
}

export interface AppendOptions {
  /** Flushed to disk before the append resolves (the store's default unless given). */
  sync?: boolean;
  /**
   * Called at most once, in a task of its own (it must not throw: that would be the process's, not the append's),
   * with the events as they will be stored, once their write is under way: work that needs them (an answer's view
   * and receipt) can use the flush's wait. The write may still fail, so nothing done here may be kept or sent before
   * the append resolves with the same events. A store that cannot tell them before the write lands does not call it.
   */
  whileWriting?: (stored: readonly StoredEvent[]) => void;
}

/**
 * The append-only, hash-chained event log of many streams (campaigns and their branches): LevelDB in a folder
 * (store.ts, the default) or PostgreSQL (postgres-store.ts), chosen by the location it is opened on (open.ts).
 *
 * Appends name the seq they expect the stream to be at and are written with the stream's new head atomically, or not
 * at all (AppendConflictError, InvalidEventError, EventExistsError). A branch is a stream that starts with another
 * stream's prefix: every reader (readBatches, readAll, batches$, events$) reads it as its whole line. The stored value
 * of an event is its hash followed by the exact bytes that were hashed (docs/storage.md).
 */
export interface EventStore {
  /** Where the log is, as it was opened (a folder, or a database URL without its password). */
  readonly location: string;
  /**
   * Whether other processes may append to this log while it is open (PostgreSQL), so that a reader of this process
   * learns of appends only from the log itself; false where the store has the log to itself (LevelDB's lock).
   */
  readonly shared: boolean;
  readonly snapshots: SnapshotCache;
  close(): Promise<void>;

  /**
   * Why this handle takes no writes, once a write of it failed (StoreFailedError); undefined while it takes them. A
   * LevelDB store fails for good on any write error, until reopen(); PostgreSQL's never does: each append is a
   * transaction of its own, and every head is read from the database.
   */
  readonly failure: StoreFailedError | undefined;
  /** Each failure as it happens: what its owner reopens the store on. */
  readonly failures$: Observable<StoreFailedError>;
  /**
   * Reopens a failed store: every head is read again from the disk, and the followers of each stream (batches$) get
   * whatever the disk holds beyond what they were given. Throws (StoreOpenError) while the log cannot be opened; the
   * store then stays failed, and may be reopened again. Does nothing for a store that has not failed.
   */
  reopen(): Promise<void>;

  /** The stream's last seq and hash; seq 0 and the genesis hash for a stream with no events. */
  head(stream: string): Promise<Head>;
  /** The head as stored, bypassing any cache of this process (as of `readPoint`, when given): what verify compares. */
  storedHead(stream: string, readPoint?: ReadPoint): Promise<Head>;
  /** Every stream with a head or with events stored under its own keys (its head deleted outside epicwar), sorted. */
  streams(): Promise<string[]>;
  /** The seq of the stream's first own event stored at `seq` or after (as of `readPoint`), or undefined. */
  firstStoredFrom(stream: string, seq: number, readPoint?: ReadPoint): Promise<number | undefined>;
  /** The first seq of a line stored after its head, or undefined: events its head does not count. */
  storedAfterHead(stream: string): Promise<number | undefined>;

  branch(stream: string): Promise<BranchMeta | undefined>;
  branches(): Promise<BranchMeta[]>;
  /** The stretches of streams a stream's line reads, in seq order (see docs/storage.md, Branches). */
  line(stream: string): Promise<Segment[]>;
  createBranch(
    stream: string,
    parent: string,
    forkSeq: number,
    options?: { name?: string; sync?: boolean; created?: string },
  ): Promise<BranchMeta>;

  /** Appends after `expectedSeq`, all of the events with the new head or none of them. */
  append(
    stream: string,
    expectedSeq: number,
    events: readonly NewEvent[],
    options?: AppendOptions,
  ): Promise<StoredEvent[]>;

  /**
   * Writes whole streams an import has checked (src/log/import-file.ts): their stored values as given, never
   * re-encoded, and their heads and branch records, so that no reader sees a stream half imported. Refused with
   * BranchError, before anything is written, when any of the streams is in use in this log.
   */
  importStreams(streams: readonly ImportedStream[]): Promise<void>;

  /** The stored value (hash and body) at `seq` of a stream's line. */
  valueAt(stream: string, seq: number): Promise<string | undefined>;
  /** The stored hash at `seq` of a stream's line (the genesis hash for seq 0). */
  hashAt(stream: string, seq: number): Promise<string | undefined>;
  eventAt(stream: string, seq: number): Promise<StoredEvent | undefined>;

  /** A stream's own stored (seq, value) pairs in seq order, in batches: what verify walks. */
  rawBatches(
    stream: string,
    from?: number,
    to?: number,
    readPoint?: ReadPoint,
  ): AsyncGenerator<Array<[number, string]>>;
  /** The same with each seq as a key: storedKeyPrefix(stream) and the seq's twelve digits (the quick check's input). */
  rawEntries(
    stream: string,
    from?: number,
    to?: number,
    readPoint?: ReadPoint,
  ): AsyncGenerator<Array<[string, string]>>;
  storedKeyPrefix(stream: string): string;
  readPoint(): Promise<ReadPoint>;
  /** What verify's checker threads need to read the log themselves, or undefined where they cannot. */
  checkerData(): CheckerData | undefined;

  /** The line's events from..to, checked to follow on (CorruptEventError otherwise), in batches. */
  readBatches(stream: string, from?: number, to?: number): AsyncGenerator<StoredEvent[]>;
  readAll(stream: string, from?: number, to?: number): Promise<StoredEvent[]>;
  /** The line's events from `from` on: those stored, then every append's as it is written, none skipped or repeated. */
  batches$(stream: string, from?: number): Observable<StoredEvent[]>;
  events$(stream: string, from?: number): Observable<StoredEvent>;

  /**
   * On a log several processes share (PostgreSQL): a lease on a job among them (the host's steps), tried for from
   * `start` on, `changed` told each time this process comes to hold it or stops. Absent where the log is this
   * process's alone, which then holds every job.
   */
  lease?(name: string, changed: (held: boolean) => void): Lease;
  /** On a shared log: texts kept per line and party beside it (the host's secrets, sealed by their owner). */
  readonly sealedTexts?: SealedTexts;
  /** On a shared log: the servers' seats, tokens and invites, kept beside it for every server. */
  readonly seatRows?: SeatRows;
  /** On a shared log: the computer's settings per campaign it plays a seat of, kept beside it for every server. */
  readonly computerSeats?: ComputerSeatRows;
}

/** A lease on a job among the processes sharing a log (postgres-lease.ts). */
export interface Lease {
  readonly held: boolean;
  start(): void;
  close(): Promise<void>;
}

/**
 * Texts kept per line (a stream) and party beside a shared log, which only their writers can read (sealed before they
 * are given here): each change is made whole, one at a time per line and party, across every process.
 */
export interface SealedTexts {
  read(stream: string, party: string): Promise<string | undefined>;
  /** Replaces the text with what `change` makes of it (undefined: none yet), in one transaction. */
  update(stream: string, party: string, change: (text: string | undefined) => string): Promise<void>;
}

/**
 * The computer's settings of each campaign it plays a seat of (its seat, level and thinking time, as JSON text),
 * beside a shared log: not secret (every seat is told which seat the computer plays), so kept as they are.
 */
export interface ComputerSeatRows {
  read(campaign: string): Promise<string | undefined>;
  /** Keeps a campaign's settings, replacing any. */
  write(campaign: string, settings: string): Promise<void>;
  forget(campaign: string): Promise<void>;
}

/** A seat a token or invite is for: one party of one campaign. */
export interface SeatRow {
  campaign: string;
  seat: string;
}

/** The server's seats as one file holds them (seats.json): token hash -> the operator or a seat; invite hash -> a seat. */
export interface SeatRecords {
  tokens: Record<string, { operator: true } | SeatRow>;
  invites: Record<string, SeatRow>;
  seated: string[];
}

/**
 * On a shared log: the servers' seats beside it (docs/server.md, "Seats"), so that a token issued or an invite redeemed
 * at one server holds at every server at once. Only SHA-256 hashes of tokens and invites are kept; each change is one
 * transaction, so that an invite redeemed at two servers at once gives one token.
 */
export interface SeatRows {
  /** Who a token hash acts for, or undefined for one never issued or revoked since. */
  token(hash: string): Promise<"operator" | SeatRow | undefined>;
  /** Of these token hashes, the ones still valid. */
  held(hashes: readonly string[]): Promise<Set<string>>;
  /**
   * Adds an operator token where the log has none yet: `keep` is called first (under a lock, so that two servers
   * starting at once make one), and the hash stored only once it has kept the token. Whether this call added one.
   */
  addFirstOperator(hash: string, keep: () => Promise<void>): Promise<boolean>;
  /** Marks a campaign's seats as issued; false if they were already (another server issued them). */
  claimCampaign(campaign: string): Promise<boolean>;
  /** Unmarks a campaign whose creation was refused, and forgets its invites. */
  releaseCampaign(campaign: string): Promise<void>;
  seated(campaign: string): Promise<boolean>;
  addInvites(invites: ReadonlyArray<{ hash: string } & SeatRow>): Promise<void>;
  /** Spends an invite for a new token of its seat; undefined for an invite unknown or spent. */
  redeem(inviteHash: string, tokenHash: string): Promise<SeatRow | undefined>;
  revokeToken(hash: string): Promise<void>;
  /** Revokes every token and invite of a seat: how many tokens. */
  revokeSeat(seat: SeatRow): Promise<number>;
  /** Adds what a server's seats file holds (its tokens, invites and seated campaigns), keeping what is there. */
  importRecords(records: SeatRecords): Promise<void>;
  /** Everything, for a backup. */
  exportRecords(): Promise<SeatRecords>;
}
