import { closeSync, openSync } from "node:fs";
import { stat } from "node:fs/promises";
import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import type { EventCatalogue } from "../../events/index.js";
import { checkExportBatches, ExportCheck, type BlockPiece, type CheckedExport } from "./import-file.js";
import type { CheckerFile, RangeAnswer, RangeOrder } from "./import-worker.js";
import { firstLine } from "./file-ranges.js";
import { startWorker } from "./start-worker.js";
import { textLineBatches } from "./text-lines.js";

/** From this size on, a file is checked on threads: below it, starting them costs more than they save. */
export const THREADED_FROM_BYTES = 32 << 20;

/** Ranges in flight for each thread: one being checked and one waiting, so that no thread waits for this one. */
const RANGES_A_THREAD = 2;

/** How an export file is checked: on how many threads besides this one (0: this one alone), in ranges of what size. */
export interface FileCheckOptions {
  threads?: number;
  rangeBytes?: number;
}

/** The bytes of the file each thread reads and checks at a time. */
const RANGE_BYTES = 4 << 20;

/**
 * Checks an export file as checkExport does, with the same result and the same ImportError for the same file: a
 * large file is cut into byte ranges, each read by a thread of its own (one per core) that checks the event lines
 * starting in it by themselves (hash, body, envelope and data: the most of the work); the ranges' pieces are then
 * checked here in the file's order for what depends on the lines before (each run's place and link, and every other
 * line, the header first).
 */
export async function checkExportFile(
  file: string,
  catalogue: EventCatalogue,
  options: FileCheckOptions = {},
): Promise<CheckedExport> {
  const { size } = await stat(file);
  const threads = options.threads ?? (size >= THREADED_FROM_BYTES ? Math.min(4, availableParallelism()) : 0);
  if (threads <= 0) return checkExportBatches(textLineBatches(file), catalogue);
  const rangeBytes = options.rangeBytes ?? RANGE_BYTES;
  const fd = openSync(file, "r");
  const workers = Array.from({ length: threads }, () =>
    startWorker(import.meta.url, "import-worker", { file } satisfies CheckerFile),
  );
  try {
    const header = firstLine(fd);
    const from = header?.next ?? 0;
    const checkers = workers.map(answersOf);
    return await checkExportPieces(
      header?.text,
      Math.ceil((size - from) / rangeBytes),
      (index) =>
        checkers[index % threads]!({ index, start: from + index * rangeBytes, end: from + (index + 1) * rangeBytes }),
      catalogue,
      threads * RANGES_A_THREAD,
    );
  } finally {
    closeSync(fd);
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

/**
 * An export file checked in its order: its header line (undefined: the file is empty), then the pieces of each of its
 * `parts` (checkBlock's, made elsewhere), up to `inFlight` parts asked for at a time and taken in turn.
 */
export async function checkExportPieces(
  header: string | undefined,
  parts: number,
  piecesOf: (index: number) => Promise<BlockPiece[]>,
  catalogue: EventCatalogue,
  inFlight: number,
): Promise<CheckedExport> {
  const check = new ExportCheck(catalogue);
  if (header === undefined) return check.end();
  check.line(header);
  const pending: Array<Promise<BlockPiece[]>> = [];
  const take = async () => {
    for (const piece of await pending.shift()!)
      if ("line" in piece) check.line(piece.line);
      else check.eventRun({ ...piece.run, values: piece.run.values.split("\n") });
  };
  try {
    for (let index = 0; index < parts; index++) {
      pending.push(piecesOf(index));
      if (pending.length >= inFlight) await take();
    }
    while (pending.length > 0) await take();
    return check.end();
  } finally {
    // Parts still being checked when a line is found wrong are dropped.
    for (const dropped of pending) dropped.catch(() => undefined);
  }
}

/** Sends a worker ranges to check, and gives each one's answer; a worker that fails fails every range it holds. */
function answersOf(worker: Worker): (order: RangeOrder) => Promise<BlockPiece[]> {
  const waiting = new Map<number, { resolve: (pieces: BlockPiece[]) => void; reject: (error: unknown) => void }>();
  const fail = (error: unknown) => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  worker.on("message", ({ index, pieces }: RangeAnswer) => {
    waiting.get(index)?.resolve(pieces);
    waiting.delete(index);
  });
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`an import checker thread stopped (exit code ${code})`)));
  return (order) =>
    new Promise((resolve, reject) => {
      waiting.set(order.index, { resolve, reject });
      worker.postMessage(order);
    });
}
