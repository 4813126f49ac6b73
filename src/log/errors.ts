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
