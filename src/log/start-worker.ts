import { Worker } from "node:worker_threads";

/**
 * Starts the worker thread whose module is `name` beside `base` (an import.meta.url): the built .js file, or under the
 * test runner, where the sources run as TypeScript, the .ts file loaded through tsx.
 */
export function startWorker(base: string, name: string, workerData: unknown): Worker {
  if (!base.endsWith(".ts")) return new Worker(new URL(`./${name}.js`, base), { workerData });
  const source = JSON.stringify(new URL(`./${name}.ts`, base).href);
  return new Worker(`import("tsx/esm/api").then(({ register }) => { register(); return import(${source}); });`, {
    eval: true,
    workerData,
  });
}
