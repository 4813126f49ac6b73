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

/** A stored event could not be read back: the log was damaged outside the engine. */
export class CorruptEventError extends Error {
  override readonly name = "CorruptEventError";
  constructor(
    readonly stream: string,
    readonly seq: number,
  ) {
    super(`event ${seq} of ${stream} cannot be read: the log was changed outside epicwar (run epicwar verify)`);
  }
}

/** A branch could not be made or read: a name taken, a fork point outside the parent, a family of branches that loops. */
export class BranchError extends Error {
  override readonly name = "BranchError";
}
