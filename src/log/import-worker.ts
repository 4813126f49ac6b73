/**
 * An import checker's thread (import-threads.ts): it checks each block of an export file's lines it is sent, each
 * event line by itself, and answers with the block's pieces (checkBlock).
 */
import { parentPort } from "node:worker_threads";
import { catalogue } from "../../events/index.js";
import { checkBlock, type BlockPiece } from "./import-file.js";
import { blockLines } from "./text-lines.js";

/** A block to check, and its place in the file's order, echoed in the answer. */
export interface BlockOrder {
  index: number;
  block: string;
}

export interface BlockAnswer {
  index: number;
  pieces: BlockPiece[];
}

const port = parentPort;
if (!port) throw new Error("import-worker runs as a worker thread");
port.on("message", ({ index, block }: BlockOrder) =>
  port.postMessage({ index, pieces: checkBlock(blockLines(block), catalogue) } satisfies BlockAnswer),
);
