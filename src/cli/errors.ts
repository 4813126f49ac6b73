import { ViewerError } from "../../replays/as-seen.js";
import { CorruptEventError, StoreFailedError, StoreOpenError } from "../log/index.js";
import { InputError } from "../setup/setup-loader.js";
import { SecretsError } from "../client/secrets.js";
import { ServerError } from "../client/server.js";

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

/**
 * Exit codes: 0 done; 1 refused command or bad input; 2 the log failed verification; 3 internal error; 4 the server
 * stayed out of reach longer than --offline-timeout.
 */
export const EXIT = { refused: 1, broken: 2, internal: 3, offline: 4 } as const;

/** Whether the CLI reports an error as it is (one line and its own exit code) rather than as an internal error. */
export function isKnownError(error: unknown): boolean {
  return (
    error instanceof CliError ||
    error instanceof InputError ||
    error instanceof SecretsError ||
    error instanceof ServerError ||
    error instanceof ViewerError ||
    error instanceof StoreOpenError ||
    // A write the disk refused (full, or over a file-size limit): nothing is acknowledged; the next command reopens.
    error instanceof StoreFailedError ||
    error instanceof CorruptEventError
  );
}
