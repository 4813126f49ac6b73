import type { Clock } from "../engine/engine.js";

/**
 * Everything a run of the CLI reads from and writes to outside its arguments and the files it names: the process's
 * streams, environment and clock for the `epicwar` bin (main.ts), captured ones for a test that runs it in-process.
 */
export interface CliIo {
  /** Standard output: the command's report, help and version. */
  stdout: (text: string) => void;
  /** Standard error: one line per failure. */
  stderr: (text: string) => void;
  /** Standard input, read by `apply -` (only then): a stream, or its whole text. */
  stdin: AsyncIterable<Buffer | string> | string;
  /** The environment: EPICWAR_DB (the default --db) and EPICWAR_DEBUG (a stack trace after an internal error). */
  env: Readonly<Record<string, string | undefined>>;
  /** Where the times recorded in the events a run writes come from. */
  clock: Clock;
  /**
   * Ctrl-C for a command that runs until it is stopped (watch): a signal aborted on SIGINT or SIGTERM. Asked for only
   * by such a command, so that every other one is still stopped by Ctrl-C as usual.
   */
  interruption?: () => AbortSignal;
  /** Whether stdout is a terminal (not a file, a pipe or a service's log): `serve` prints secrets there only. */
  stdoutIsTerminal?: boolean;
  /** The widths of the terminals stdout and stderr are, if they are: help is wrapped to them (default 80). */
  columns?: { stdout?: number | undefined; stderr?: number | undefined };
}

/** The folder --db names when not given: $EPICWAR_DB, or ./epicwar-data. */
export function defaultDb(env: CliIo["env"]): string {
  return env["EPICWAR_DB"] ?? "epicwar-data";
}
