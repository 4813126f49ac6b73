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
