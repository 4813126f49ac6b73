/**
 * Running the CLI: in-process through `run` (src/cli/run.ts), as most tests do, or the built bin
 * (dist/src/cli/main.js: `npm run build` first) as its own node process, without a shell, as the smoke tests do.
 */
import { execFile, type ExecFileException } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { CliIo } from "../../src/cli/io.js";
import { run } from "../../src/cli/run.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** The built CLI; CAMPAIGN_TEST_CLI may name another build of it (a private copy while others rebuild dist/). */
export const CLI = process.env["CAMPAIGN_TEST_CLI"] ?? join(ROOT, "dist", "src", "cli", "main.js");

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const execFileAsync = promisify(execFile);
/** The environment of every run, without the CLI's own variables: defaults and error output as shipped. */
const ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("EPICWAR_")));

/**
 * Runs the built CLI with these arguments, feeding `input` to its standard input; `timeoutMs` guards a hung run.
 * `where` may give another working folder and variables to add to the environment.
 */
export async function runCli(
  args: string[],
  input = "",
  timeoutMs = 30_000,
  where: { cwd?: string; env?: Record<string, string> } = {},
): Promise<Run> {
  const options = {
    cwd: where.cwd ?? tmpdir(),
    env: { ...ENV, ...where.env },
    encoding: "utf8" as const,
    timeout: timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
  };
  const running = execFileAsync(process.execPath, [CLI, ...args], options);
  running.child.stdin?.end(input);
  try {
    const { stdout, stderr } = await running;
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as ExecFileException & { stdout?: string; stderr?: string };
    if (typeof failed.code !== "number") throw error; // killed, timed out or not started: not an answer from the CLI
    return { code: failed.code, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

/**
 * Runs the CLI in this process with these arguments, `input` as its standard input and `env` as its whole environment
 * (none of the test process's variables): stdout and stderr captured, the exit code returned as the bin would exit.
 * `io` replaces any other part of what the run is given (its clock, a stream as stdin, a failing writer).
 * Every database the run opens is closed when it returns; two runs at once must not use the same folder.
 */
export async function runInProcess(
  args: string[],
  input = "",
  where: { env?: Record<string, string>; io?: Partial<CliIo> } = {},
): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const code = await run(args, {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    stdin: input,
    env: { ...where.env },
    clock: () => new Date(),
    ...where.io,
  });
  return { code, stdout, stderr };
}

export const show = (run: Run) => `exit ${run.code}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;
