/** The CLI run in this process with its output seen as it comes: for `watch`, which runs until it is stopped. */
import { run } from "../../src/cli/run.js";

export interface LiveRun {
  /** The lines printed on stdout so far. */
  out: string[];
  /** What was written to stderr so far. */
  err: string[];
  /** Ctrl-C: ends a watch. */
  stop: AbortController;
  /** The exit code, once the run ends. */
  done: Promise<number>;
}

export function runLive(args: string[], env: Record<string, string> = {}): LiveRun {
  const out: string[] = [];
  const err: string[] = [];
  const stop = new AbortController();
  const done = run(args, {
    stdout: (text) => void out.push(...text.split("\n").filter((line) => line !== "")),
    stderr: (text) => void err.push(text),
    stdin: "",
    env,
    clock: () => new Date(),
    interruption: () => stop.signal,
  });
  return { out, err, stop, done };
}

/** Waits until `what` holds, checking every 20 ms; fails after `ms`. */
export async function until(what: () => boolean | Promise<boolean>, ms = 15000): Promise<void> {
  const start = Date.now();
  while (!(await what())) {
    if (Date.now() - start > ms) throw new Error(`timed out after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
