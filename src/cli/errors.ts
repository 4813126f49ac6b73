/** A failure the CLI reports as one line and an exit code, never a stack trace. */
export class CliError extends Error {
  override readonly name = "CliError";
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** Exit codes: 0 done; 1 refused command or bad input; 2 the log failed verification; 3 internal error. */
export const EXIT = { refused: 1, broken: 2, internal: 3 } as const;
