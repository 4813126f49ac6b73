import { stat } from "node:fs/promises";
import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import type { EventCatalogue } from "../../events/index.js";
import { checkExportBatches, ExportCheck, type BlockPiece, type CheckedExport } from "./import-file.js";
import type { BlockAnswer, BlockOrder } from "./import-worker.js";
import { startWorker } from "./start-worker.js";
import { blockLines, textBlocks, textLineBatches } from "./text-lines.js";

/** From this size on, a file is checked on threads: below it, starting them costs more than they save. */
export const THREADED_FROM_BYTES = 32 << 20;

/** Blocks in flight for each thread: one being checked and one waiting, so that no thread waits for this one. */
const BLOCKS_A_THREAD = 2;

/** How an export file is checked: on how many threads besides this one (0: this one alone), in blocks of what size. */
export interface FileCheckOptions {
  threads?: number;
  blockBytes?: number;
}

/**
 * Checks an export file as checkExport does, with the same result and the same ImportError for the same file: a
 * large file's event lines are checked on threads, one per core (hash, body, envelope and data: the most of the work),
 * in blocks of whole lines read by this thread, and the blocks' pieces are then checked here in the file's order for
 * what depends on the lines before (each run's place and link, and every other line).
 */
export async function checkExportFile(
  file: string,
  catalogue: EventCatalogue,
  options: FileCheckOptions = {},
): Promise<CheckedExport> {
  const threads =
    options.threads ?? ((await stat(file)).size >= THREADED_FROM_BYTES ? Math.min(4, availableParallelism()) : 0);
  if (threads <= 0) return checkExportBatches(textLineBatches(file), catalogue);
  const workers = Array.from({ length: threads }, () => startWorker(import.meta.url, "import-worker", null));
  try {
    const checkers = workers.map(answersOf);
    return await checkExportBlocks(
      textBlocks(file, options.blockBytes),
      catalogue,
      (index, block) => checkers[index % threads]!(index, block),
      threads * BLOCKS_A_THREAD,
    );
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

/** Checks a block of lines somewhere (checkBlock): a block's place in the file is given with it. */
export type BlockChecker = (index: number, block: string) => Promise<BlockPiece[]>;

/**
 * An export file's blocks of lines (textBlocks) checked in the file's order: the header here, then each block's event
 * lines by `checkBlock` (on other threads), up to `inFlight` blocks at a time, and its pieces here in turn.
 */
export async function checkExportBlocks(
  blocks: AsyncIterable<string>,
  catalogue: EventCatalogue,
  checkBlock: BlockChecker,
  inFlight: number,
): Promise<CheckedExport> {
  const check = new ExportCheck(catalogue);
  const pending: Array<Promise<BlockPiece[]>> = [];
  const take = async () => {
    for (const piece of await pending.shift()!)
      if ("line" in piece) check.line(piece.line);
      else check.eventRun({ ...piece.run, values: piece.run.values.split("\n") });
  };
  try {
    let index = 0;
    for await (const text of blocks) {
      let block = text;
      if (index === 0) {
        // The header is checked here first: until it is, no event line has a place to be checked at.
        const end = text.indexOf("\n");
        check.line(blockLines(end < 0 ? text : text.slice(0, end))[0]!);
        index++;
        if (end < 0) continue;
        block = text.slice(end + 1);
      }
      pending.push(checkBlock(index, block));
      index++;
      if (pending.length >= inFlight) await take();
    }
    while (pending.length > 0) await take();
    return check.end();
  } finally {
    // Blocks still being checked when a line is found wrong are dropped.
    for (const dropped of pending) dropped.catch(() => undefined);
  }
}

/** Sends a worker blocks to check, and gives each one's answer; a worker that fails fails every block it holds. */
function answersOf(worker: Worker): (index: number, block: string) => Promise<BlockPiece[]> {
  const waiting = new Map<number, { resolve: (pieces: BlockPiece[]) => void; reject: (error: unknown) => void }>();
  const fail = (error: unknown) => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  worker.on("message", ({ index, pieces }: BlockAnswer) => {
    waiting.get(index)?.resolve(pieces);
    waiting.delete(index);
  });
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`an import checker thread stopped (exit code ${code})`)));
  return (index, block) =>
    new Promise((resolve, reject) => {
      waiting.set(index, { resolve, reject });
      worker.postMessage({ index, block } satisfies BlockOrder);
    });
}
