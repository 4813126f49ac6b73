/**
 * One `epicwar serve` on one folder and one port, killed with SIGKILL and started again as often as a soak likes.
 * The running server's soft file-size limit may be lowered (`prlimit`) to the size of the LevelDB log it appends to:
 * the kernel then refuses its next write to that log, and any file it writes past that size (EFBIG; Node ignores
 * SIGXFSZ), which is a real write failure without root or a small disk. Raising the limit again is what freeing the
 * disk's space is to a server that met a full disk.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { BIN } from "../cli-process.js";

/** How long a start may take before the soak calls it failed. */
const START_MS = 30_000;

export interface ServerRun {
  /** 1 for the first start, 2 for the next... */
  index: number;
  child: ChildProcess;
  /** The file-size limit it was put under, in bytes (none: unlimited). */
  fileSizeLimit: number | undefined;
  out: string[];
  err: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface ChaosServer {
  db: string;
  port: () => number;
  /** The server's own URL (the soak's clients go through a proxy in front of it). */
  url: () => string;
  run: () => ServerRun;
  runs: ServerRun[];
  /** Starts the server (on the port of its first start from the second on); resolves once it listens. */
  start: () => Promise<void>;
  /** SIGKILL, and waits until the process is gone. */
  kill: () => Promise<void>;
  /** Puts the running server under a file-size limit: the size of its LevelDB log now. */
  fillDisk: () => Promise<number>;
  /** Lifts the running server's file-size limit: the space freed. */
  freeSpace: () => Promise<void>;
  /** SIGTERM, as an operator stops it; resolves with its exit code. */
  stop: () => Promise<number | null>;
  /** The last lines of the running server's log that are not about a request (its errors, its warnings). */
  complaints: () => string[];
  /** Every request-log line of every run so far, parsed. */
  requests: () => RequestLine[];
}

export interface RequestLine {
  run: number;
  method: string;
  url: string;
  status: number;
}

/** `epicwar serve --db DB` in `cwd` with `env`, and `options` (more of serve's options) at every start. */
export function chaosServer(db: string, cwd: string, env: Record<string, string>, options: string[] = []): ChaosServer {
  const runs: ServerRun[] = [];
  let port = 0;
  const spawnRun = (): ServerRun => {
    const args = [BIN, "serve", "--db", db, "--port", String(port), ...options];
    const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    const out: string[] = [];
    let err = "";
    let partial = "";
    child.stdout!.setEncoding("utf8");
    child.stderr!.setEncoding("utf8");
    child.stdout!.on("data", (chunk: string) => {
      const lines = (partial + chunk).split("\n");
      partial = lines.pop()!;
      out.push(...lines);
    });
    child.stderr!.on("data", (chunk: string) => (err += chunk));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on("close", (code, signal) => resolve({ code, signal })),
    );
    return { index: runs.length + 1, child, fileSizeLimit: undefined, out, err: () => err, exited };
  };
  const current = () => runs.at(-1)!;
  const start = async () => {
    const run = spawnRun();
    runs.push(run);
    const deadline = Date.now() + START_MS;
    let ended = false;
    void run.exited.then(() => (ended = true));
    for (let polls = 0; Date.now() < deadline && polls < START_MS / 20; polls++) {
      const serving = run.out.map((line) => /^Serving .* at http:\/\/127\.0\.0\.1:(\d+) /.exec(line)).find(Boolean);
      if (serving) {
        port = Number(serving[1]);
        return;
      }
      if (ended) throw new Error(`server run ${run.index} ended before it listened: ${run.err()}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    run.child.kill("SIGKILL");
    throw new Error(`server run ${run.index} did not start within ${START_MS / 1000} s: ${run.err()}`);
  };
  const kill = async () => {
    const run = current();
    run.child.kill("SIGKILL");
    await run.exited;
  };
  const fillDisk = async () => {
    const sizes: number[] = [];
    for (const name of await readdir(db))
      if (name.endsWith(".log")) sizes.push((await stat(join(db, name)).catch(() => ({ size: 0 }))).size);
    const limit = Math.max(0, ...sizes);
    await promisify(execFile)("prlimit", [`--pid=${current().child.pid}`, `--fsize=${limit}:`]);
    current().fileSizeLimit = limit;
    return limit;
  };
  const freeSpace = async () => {
    await promisify(execFile)("prlimit", [`--pid=${current().child.pid}`, "--fsize=unlimited:"]);
  };
  const stop = async () => {
    const run = current();
    run.child.kill("SIGTERM");
    return (await run.exited).code;
  };
  const complaints = () =>
    current()
      .err()
      .split("\n")
      .filter((line) => line.trim() !== "" && !line.includes('"msg":"request"'))
      .slice(-3)
      .map((line) => line.slice(0, 400));
  const requests = () =>
    runs.flatMap((run) =>
      run
        .err()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => {
          try {
            return JSON.parse(line) as Partial<RequestLine> & { msg?: string };
          } catch {
            return {}; // a line cut short by the kill
          }
        })
        .filter((line) => line.msg === "request" && typeof line.status === "number")
        .map((line) => ({ run: run.index, method: line.method!, url: line.url!, status: line.status! })),
    );
  return {
    db,
    port: () => port,
    url: () => `http://127.0.0.1:${port}`,
    run: current,
    runs,
    start,
    kill,
    fillDisk,
    freeSpace,
    stop,
    complaints,
    requests,
  };
}

/**
 * Serve's options that let one address sign in as often as a soak's clients do (its own tokens, its followers signing
 * in again after each revocation), where the server limits sign-ins per address: none where it has no such limit.
 */
export async function signInsUnlimited(cwd: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [BIN, "serve", "--help"], { cwd });
  return stdout.includes("--sign-ins-per-minute") ? ["--sign-ins-per-minute", "100000"] : [];
}

/**
 * The lines the server printed for its operator (its operator token, its invite links) in every run so far, and in
 * any file of its server-data folder: a server may keep them in a file there instead of printing them.
 */
export async function operatorLines(server: ChaosServer): Promise<string[]> {
  const lines = server.runs.flatMap((run) => run.out);
  const folder = `${server.db}-server`;
  for (const name of await readdir(folder).catch(() => []))
    if (name !== "seats.json" && !name.endsWith(".tmp"))
      lines.push(...(await readFile(join(folder, name), "utf8").catch(() => "")).split("\n"));
  return lines;
}
