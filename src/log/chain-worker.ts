/**
 * A chain checker's thread (verify-parallel.ts): it opens the database through the store's multithreaded LevelDB
 * handle, and reads and checks the ranges it is sent, so that no event crosses between threads. Terminating the
 * thread closes its handle (classic-level's cleanup hook).
 */
import { Level } from "level";
import { parentPort, workerData } from "node:worker_threads";
import { checkRange, type RangeLinks } from "./chain-range.js";
import { streamKeyPrefix } from "./layout.js";
import { rawEntries } from "./read-ahead.js";

export interface CheckerData {
  /** The database folder, exactly as the store opened it. */
  location: string;
  /** The events sublevel's key prefix in the root database. */
  eventsPrefix: string;
}

/** What a checker says: "ready" once the database is open, then the links of each range it was sent (null: it does not hold). */
export type CheckerMessage = { ready: true } | { index: number; links: RangeLinks | null };

/** A range to check: one stream's events from `from` to `to` (null: to the end of what is stored). */
export interface CheckerOrder {
  /** The range's place in the line's queue, echoed in the answer. */
  index: number;
  stream: string;
  from: number;
  to: number | null;
}

const port = parentPort;
if (!port) throw new Error("chain-worker runs as a worker thread");
const { location, eventsPrefix } = workerData as CheckerData;
const db = new Level<string, string>(location, { valueEncoding: "utf8" });
await db.open({ createIfMissing: false, multithreading: true });
const say = (message: CheckerMessage) => port.postMessage(message);
port.on("message", ({ index, ...order }: CheckerOrder) => {
  const entries = rawEntries(db, eventsPrefix, order.stream, order.from, order.to ?? undefined);
  checkRange(entries, eventsPrefix + streamKeyPrefix(order.stream), order.stream, order.from).then(
    (links) => say({ index, links: links ?? null }),
    () => say({ index, links: null }),
  );
});
say({ ready: true });
