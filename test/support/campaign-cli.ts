/**
 * Running the CLI in this process (src/cli/run.ts, through runInProcess), on real LevelDB folders under the OS temp dir. Folders made by `scratchDir()` live for the whole test file (so that a
 * describe block can build a campaign once in beforeAll) and are removed after it.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect } from "vitest";
import { runInProcess, show, type Run } from "./cli.js";

export { CLI, show, type Run } from "./cli.js";
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const FIXTURES = join(ROOT, "test", "golden", "fixtures");

/** Runs the CLI in this process with these arguments, `input` as its standard input. */
export const cli = (args: string[], input = ""): Promise<Run> => runInProcess(args, input);

/** Expects exit 0 and returns stdout. */
export async function ok(args: string[], input?: string): Promise<string> {
  const run = await cli(args, input);
  expect(run.code, `epicwar ${args.join(" ")}\n${show(run)}`).toBe(0);
  return run.stdout;
}

export const nonEmptyLines = (text: string) => text.split(/\r?\n/).filter((line) => line.trim() !== "");

/** A clean refusal: this exit code, exactly one line on stderr starting "epicwar: ", no stack trace; returns it. */
export function expectOneLineError(run: Run, code = 1): string {
  expect(run.code, show(run)).toBe(code);
  const lines = nonEmptyLines(run.stderr);
  expect(lines, show(run)).toHaveLength(1);
  expect(run.stderr, "no stack trace").not.toMatch(/^\s+at /m);
  expect(lines[0]).toMatch(/^epicwar: /);
  expect(lines[0]).not.toContain("internal error");
  return lines[0]!;
}

export interface LoggedEvent {
  stream: string;
  seq: number;
  type: string;
  actor: string;
  // Event data read back from `log --json`; each test reads the fields of the types it looks at.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: Record<string, any>;
  hash: string;
}

export const parseLog = (jsonl: string) => nonEmptyLines(jsonl).map((line) => JSON.parse(line) as LoggedEvent);

const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fresh folder under the OS temp dir, removed once the test file is done. */
export async function scratchDir(prefix = "epicwar-cli-play-"): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Writes commands as JSON Lines and returns the file's path. */
export async function writeCommands(dir: string, name: string, commands: object[]): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, commands.map((c) => JSON.stringify(c)).join("\n") + "\n");
  return path;
}
