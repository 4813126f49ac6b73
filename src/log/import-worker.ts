/**
 * An import checker's thread (import-threads.ts): it reads each byte range of the export file it is sent by itself,
 * checks the event lines that start in it, each by itself, and answers with the range's pieces (checkBlock).
 */
import { closeSync, openSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { catalogue } from "../../events/index.js";
import { linesStartingIn } from "./file-ranges.js";
import { checkBlock, type BlockPiece } from "./import-file.js";

export interface CheckerFile {
  file: string;
}

/** A range of the file's bytes to check, and its place in the file's order, echoed in the answer. */
export interface RangeOrder {
  index: number;
  start: number;
  end: number;
}

export interface RangeAnswer {
  index: number;
  pieces: BlockPiece[];
}

const port = parentPort;
if (!port) throw new Error("import-worker runs as a worker thread");
const fd = openSync((workerData as CheckerFile).file, "r");
process.on("exit", () => closeSync(fd));
port.on("message", ({ index, start, end }: RangeOrder) =>
  port.postMessage({ index, pieces: checkBlock(linesStartingIn(fd, start, end), catalogue) } satisfies RangeAnswer),
);
