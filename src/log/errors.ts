import { awayReason, databaseAway } from "./postgres-errors.js";

/** The stream moved on since the writer read it: the append was refused and nothing was written. */
export class AppendConflictError extends Error {
  override readonly name = "AppendConflictError";
  constructor(
    readonly stream: string,
    readonly expectedSeq: number,
    readonly actualSeq: number,
  ) {
    super(`conflict: ${stream} is at seq ${actualSeq}, not ${expectedSeq}; read it again and retry`);
  }
}

/** An event failed its schema check: nothing of the batch was written. */
export class InvalidEventError extends Error {
  override readonly name = "InvalidEventError";
  constructor(
    readonly index: number,
    readonly field: string,
    readonly problem: string,
  ) {
    super(`event ${index}: ${field} ${problem}`);
  }
}

/**
 * A stored event could not be read back, or is not where the chain says (missing, moved, not linking on): the log was
 * damaged outside the engine. `seq` is the broken event's; the CLI reports it and exits 2, as verify does.
 */
export class CorruptEventError extends Error {
  override readonly name: string = "CorruptEventError";
  constructor(
    readonly stream: string,
    readonly seq: number,
    problem = "cannot be read",
    options?: ErrorOptions,
  ) {
    super(`event ${seq} of ${stream} ${problem}: the log was changed outside epicwar (run epicwar verify)`, options);
  }
}

/**
 * An append would have written over a stored event: the stream's head was deleted or set back outside the engine.
 * Nothing was written; a stored event is never overwritten, whatever the head says.
 */
export class EventExistsError extends CorruptEventError {
  override readonly name = "EventExistsError";
  constructor(stream: string, seq: number, headSeq: number) {
    super(stream, seq, `is already stored although the head counts ${headSeq} events (nothing was written)`);
  }
}

/** A branch could not be made or read: a name taken, a fork point outside the parent, a family of branches that loops. */
export class BranchError extends Error {
  override readonly name = "BranchError";
}

/** The log could not be opened: a folder missing, locked by another process or not a database; a database unreachable. */
export class StoreOpenError extends Error {
  override readonly name = "StoreOpenError";
}

/**
 * The log cannot take writes: a write failed (a full disk, a file over its size limit, an I/O error), and the store
 * handle that met it acknowledges nothing more, since what the disk holds after a failed write is known only once
 * the log is read again. Every write is refused with this error until the store is reopened (EventStore.reopen),
 * which reads every head from the disk. Reads go on meanwhile, except while the reopen closes and opens the log.
 */
export class StoreFailedError extends Error {
  override readonly name: string = "StoreFailedError";
  constructor(
    /** What failed, as the system said it: "file too large", "No space left on device". */
    readonly reason: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  static writing(location: string, cause: unknown): StoreFailedError {
    const reason = errorReason(cause);
    return new StoreFailedError(
      reason,
      `cannot write the log at ${location} (${reason}): nothing more is acknowledged until it is reopened`,
      { cause },
    );
  }
}

/**
 * What the system said of a failed write, without the paths it names (a reason may be shown to a client): LevelDB's
 * "IO error: /srv/war/000005.log: File too large" is "File too large", Node's "ENOSPC: no space left on device, write"
 * is "ENOSPC: no space left on device".
 */
export function errorReason(error: unknown): string {
  const { cause, message } = error as Error & { cause?: Error };
  const said = cause?.message ?? message ?? String(error);
  const errno = /^E[A-Z0-9]+: [^,]*/.exec(said);
  if (errno) return errno[0];
  return said.startsWith("IO error: ") ? said.slice(said.lastIndexOf(": ") + 2) : said;
}

/**
 * The log's database cannot be reached or used for now (PostgreSQL restarting, failing over, read-only): nothing of
 * the work that met it was acknowledged, and the store takes work again by itself once the database answers.
 */
export class DatabaseAwayError extends StoreFailedError {
  override readonly name = "DatabaseAwayError";
}

/**
 * The StoreFailedError an error is or stands for, or undefined: a read of a LevelDB that is closed (a reopen after
 * a failed write closes it until it opens again; abstract-level's LEVEL_DATABASE_NOT_OPEN) is one, and so is a
 * PostgreSQL database that is away (a DatabaseAwayError).
 */
export function storeFailure(error: unknown): StoreFailedError | undefined {
  if (error instanceof StoreFailedError) return error;
  if (databaseAway(error)) {
    const reason = awayReason(error as Error);
    return new DatabaseAwayError(reason, `the log's database is away (${reason})`, { cause: error });
  }
  if ((error as { code?: unknown } | null)?.code === "LEVEL_DATABASE_NOT_OPEN")
    return new StoreFailedError(
      "the log is not open",
      "the log is not open: it is being reopened after a failed write, or closed",
      {
        cause: error,
      },
    );
  return undefined;
}
