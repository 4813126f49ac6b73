import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { simulateRun, type RunOptions, type RunRecord } from "./simulate.js";
import type { ForecastStart } from "./start.js";

/** Runs handed to a worker at a time: small enough that Ctrl-C loses little, large enough that messages are few. */
const CHUNK = 10;

export interface Job {
  start: ForecastStart;
  options: RunOptions;
  runs: number;
}

export interface PoolOptions {
  /** Worker threads to play on; 0 plays in this thread. Default: one a core. */
  workers?: number;
  /** Stops handing out runs; what was played by then is returned. */
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

/** Messages between the pool and a worker: a range of runs to play, and the records of one played. */
export type ToWorker = { from: number; to: number };
export type FromWorker = { records: RunRecord[] } | { error: string };

export function defaultWorkers(): number {
  return availableParallelism();
}

/**
 * Plays the job's runs, on worker threads (worker.ts) or in this thread, and gives their records (in run order) and
 * whether it was stopped first. Each run's draws come from its own number, so the records do not depend on how many
 * threads played them nor in which order.
 */
export async function playRuns(
  job: Job,
  options: PoolOptions = {},
): Promise<{ records: RunRecord[]; stopped: boolean }> {
  // Worker threads load the built worker.js; from the TypeScript sources (the tests) the runs are played here.
  const built = !import.meta.url.endsWith(".ts");
  const workers = built ? Math.min(options.workers ?? defaultWorkers(), Math.ceil(job.runs / CHUNK)) : 0;
  const records: RunRecord[] = [];
  const progress = () => options.onProgress?.(records.length, job.runs);
  if (workers <= 0) {
    for (let run = 0; run < job.runs && !options.signal?.aborted; run++) {
      records.push(await simulateRun(job.start, run, job.options));
      progress();
      // Lets Ctrl-C and the progress bar through between runs.
      await new Promise((resolve) => setImmediate(resolve));
    }
  } else await onWorkers(job, workers, options, records, progress);
  records.sort((a, b) => a.run - b.run);
  return { records, stopped: records.length < job.runs };
}

function onWorkers(
  job: Job,
  count: number,
  options: PoolOptions,
  records: RunRecord[],
  progress: () => void,
): Promise<void> {
  const url = new URL("./worker.js", import.meta.url);
  let next = 0;
  return new Promise<void>((resolve, reject) => {
    const threads: Worker[] = [];
    let running = 0;
    let failed = false;
    const finish = (error?: Error) => {
      if (failed) return;
      if (error) {
        failed = true;
        for (const thread of threads) void thread.terminate();
        reject(error);
        return;
      }
      if (--running === 0) resolve();
    };
    const stop = () => {
      for (const thread of threads) void thread.terminate();
    };
    options.signal?.addEventListener("abort", stop, { once: true });
    const handOut = (thread: Worker) => {
      if (next >= job.runs || options.signal?.aborted) {
        void thread.terminate();
        return;
      }
      const from = next;
      next = Math.min(job.runs, next + CHUNK);
      thread.postMessage({ from, to: next } satisfies ToWorker);
    };
    for (let i = 0; i < count; i++) {
      const thread = new Worker(url, { workerData: { start: job.start, options: job.options } });
      threads.push(thread);
      running++;
      thread.on("message", (message: FromWorker) => {
        if ("error" in message) return finish(new Error(message.error));
        records.push(...message.records);
        progress();
        handOut(thread);
      });
      thread.on("error", (error) => finish(error));
      thread.on("exit", () => finish());
      handOut(thread);
    }
  });
}
