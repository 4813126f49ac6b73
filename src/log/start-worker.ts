import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { threadId, Worker } from "node:worker_threads";

/**
 * Starts the worker thread whose module is `name` beside `base` (an import.meta.url): the built .js file, or under the
 * test runner, where the sources run as TypeScript, the .ts file bundled into one module (bundledSource).
 */
export function startWorker(base: string, name: string, workerData: unknown): Worker {
  if (!base.endsWith(".ts")) return new Worker(new URL(`./${name}.js`, base), { workerData });
  return new Worker(bundledSource(new URL(`./${name}.ts`, base)), { workerData });
}

/** Each source's bundle, made once a process: the sources do not change while the tests run. */
const bundles = new Map<string, URL>();

/**
 * A worker's TypeScript source and what it imports of ours as one ES module, made by esbuild (a dev dependency, as the
 * test runner is) and kept under node_modules/.cache, where the packages it imports resolve. Loading each module
 * through a TypeScript loader in every thread instead cost the tests several times the threads' own work. The file is
 * named by its content, so that threads making the same bundle at once write the same bytes.
 */
function bundledSource(source: URL): URL {
  const known = bundles.get(source.href);
  if (known) return known;
  const esbuild = createRequire(import.meta.url)("esbuild") as typeof import("esbuild");
  const [output] = esbuild.buildSync({
    entryPoints: [fileURLToPath(source)],
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    write: false,
    logLevel: "silent",
  }).outputFiles;
  const folder = new URL("../../node_modules/.cache/epicwar-workers/", import.meta.url);
  const file = new URL(`${createHash("sha256").update(output!.contents).digest("hex").slice(0, 16)}.mjs`, folder);
  if (!existsSync(file)) {
    mkdirSync(folder, { recursive: true });
    const partial = new URL(`${file.href}.${process.pid}-${threadId}`);
    writeFileSync(partial, output!.contents);
    renameSync(partial, file);
  }
  bundles.set(source.href, file);
  return file;
}
