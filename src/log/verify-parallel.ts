import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import { GENESIS_HASH } from "../../events/index.js";
import { checkRange, type RangeLinks } from "./chain-range.js";
import type { CheckerData, CheckerMessage, CheckerOrder } from "./chain-worker.js";
import type { Head } from "./layout.js";
import type { Range } from "./line-ranges.js";
import type { EventStore } from "./event-store.js";
import { startWorker } from "./start-worker.js";

const startChecker = (data: CheckerData): Worker => startWorker(import.meta.url, "chain-worker", data);

/** How many ranges this thread reads at once when it checks a line alone. */
const THIS_THREAD_READS = 4;

/** One thread per core besides this one, at most four. */
export function defaultCheckerCount(): number {
  return Math.max(0, Math.min(4, availableParallelism() - 1));
}

export interface ParallelOptions {
  /** Worker threads that check ranges besides this thread. */
  checkers: number;
  /** Whether this thread checks ranges too (a server keeping its event loop free would say no). */
  thisThread: boolean;
}

/** What chainHolds found, and who did the work. */
export interface ParallelCheck {
  holds: boolean;
  rangesByCheckers: number;
}

/**
 * Whether a line's chain holds, checked without parsing a body (checkChainBatch): the ranges are a queue that this
 * thread and the checker threads take from as each is free, every thread reading its ranges with its own iterator
 * (the checkers through the store's multithreaded LevelDB handle), so that no event crosses between threads. The
 * ranges are then joined in seq order: each range's first link is the hash before it, the fork hashes hold where the
 * line passes from a parent to a branch, and the line ends at the head's seq and hash.
 *
 * Not holding (or a checker failing) means only that the exact walk must give the report. `forkHashes[i]` is the
 * fork hash of the line's segment i (undefined for the first).
 */
export async function chainHolds(
  store: EventStore,
  ranges: Range[],
  forkHashes: Array<string | undefined>,
  head: Head,
  options: ParallelOptions,
): Promise<ParallelCheck> {
  const results = new Array<Promise<RangeLinks | undefined>>(ranges.length);
  let taken = 0;
  let rangesByCheckers = 0;
  let failed = false;
  const nextRange = (): number | undefined => (failed || taken >= ranges.length ? undefined : taken++);
  const note = (links: RangeLinks | undefined) => {
    if (!links) failed = true;
    return links;
  };
  const unreadable = () => note(undefined);

  // A store whose log the threads cannot open for themselves (PostgreSQL) is checked on this thread only.
  const data = store.checkerData();
  const workers = data ? Array.from({ length: options.checkers }, () => startChecker(data)) : [];
  const checkerLoops = workers.map(
    (worker) =>
      new Promise<void>((done) => {
        let holding: ((links: RangeLinks | undefined) => void) | undefined;
        const send = () => {
          const index = nextRange();
          if (index === undefined) return done();
          const range = ranges[index]!;
          rangesByCheckers++;
          results[index] = new Promise<RangeLinks | undefined>((resolve) => (holding = resolve)).then(note);
          const order: CheckerOrder = {
            index,
            stream: range.segment.stream,
            from: range.from,
            to: range.to === Infinity ? null : range.to,
          };
          worker.postMessage(order);
        };
        worker.on("message", (message: CheckerMessage) => {
          if (!("ready" in message)) holding?.(message.links ?? undefined);
          send();
        });
        // A checker that cannot start or stops leaves its range unchecked: the line does not hold here.
        const stop = () => {
          failed = true;
          holding?.(undefined);
          done();
        };
        worker.on("error", stop);
        worker.on("exit", stop);
      }),
  );
  const thisThreadLoop = async () => {
    if (!options.thisThread && workers.length > 0) return;
    for (let index = nextRange(); index !== undefined; index = nextRange()) {
      const range = ranges[index]!;
      const { stream } = range.segment;
      const entries = store.rawEntries(stream, range.from, range.to === Infinity ? undefined : range.to);
      results[index] = checkRange(entries, store.storedKeyPrefix(stream), stream, range.from).then(note, unreadable);
      await results[index];
    }
  };

  // Where no checker thread can read the log (PostgreSQL), this thread keeps several ranges' reads in flight, so that
  // the database reads the next ranges while this thread hashes.
  const thisThreadLoops = data ? 1 : THIS_THREAD_READS;
  try {
    await Promise.all([...Array.from({ length: thisThreadLoops }, thisThreadLoop), ...checkerLoops]);
    return { holds: !failed && (await joins(ranges, results, forkHashes, head)), rangesByCheckers };
  } finally {
    await Promise.all(workers.map((worker) => worker.removeAllListeners("exit").terminate()));
  }
}

async function joins(
  ranges: Range[],
  results: Array<Promise<RangeLinks | undefined>>,
  forkHashes: Array<string | undefined>,
  head: Head,
): Promise<boolean> {
  let expected = 1;
  let prev = GENESIS_HASH;
  for (const [index, range] of ranges.entries()) {
    if (range.segmentIndex > 0 && range.from === range.segment.from && forkHashes[range.segmentIndex] !== prev)
      return false;
    const links = await results[index];
    if (!links || range.from !== expected) return false;
    // A closed range must be whole; the open end of the line may hold any number (none, for a new branch).
    if (range.to !== Infinity && links.next !== range.to + 1) return false;
    if (links.ends) {
      if (links.ends.firstPrev !== prev) return false;
      prev = links.ends.lastHash;
    }
    expected = links.next;
  }
  return expected - 1 === head.seq && prev === head.hash;
}
