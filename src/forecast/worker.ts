import { parentPort, workerData } from "node:worker_threads";
import { simulateRun, type RunOptions } from "./simulate.js";
import type { FromWorker, ToWorker } from "./pool.js";
import type { ForecastStart } from "./start.js";

/** A forecast's worker thread: plays the ranges of runs the pool hands it and sends back their records. */
const { start, options } = workerData as { start: ForecastStart; options: RunOptions };
parentPort!.on("message", ({ from, to }: ToWorker) => {
  void (async () => {
    try {
      const records = [];
      for (let run = from; run < to; run++) records.push(await simulateRun(start, run, options));
      parentPort!.postMessage({ records } satisfies FromWorker);
    } catch (error) {
      parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies FromWorker);
    }
  })();
});
