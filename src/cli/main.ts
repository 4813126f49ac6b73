#!/usr/bin/env node
/** The epicwar bin: runs the CLI (run.ts) on this process's arguments, streams, environment and clock. */
import { run } from "./run.js";

// A reader that stops early (`epicwar log | head`) is not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

process.exitCode = await run(process.argv.slice(2), {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  // Read only by `apply -`: the stream is not made for a command that does not read it.
  get stdin() {
    return process.stdin;
  },
  env: process.env,
  clock: () => new Date(),
  interruption: () => {
    const stop = new AbortController();
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());
    return stop.signal;
  },
  stdoutIsTerminal: process.stdout.isTTY === true,
  columns: {
    stdout: process.stdout.isTTY ? process.stdout.columns : undefined,
    stderr: process.stderr.isTTY ? process.stderr.columns : undefined,
  },
});
