import { GENESIS_HASH } from "../../events/index.js";
import { BranchError, CorruptEventError } from "./errors.js";
import { sha256Hex } from "./hash.js";
import { HASH_LENGTH, type BranchMeta, type Segment } from "./layout.js";
import { splitLine, type Range } from "./line-ranges.js";
import type { EventStore, ReadPoint } from "./event-store.js";
import { chainHolds, defaultCheckerCount } from "./verify-parallel.js";
import { checkSignatures, type SignatureCounts } from "./signature-check.js";

/** What is wrong at the first bad seq: the chain's problems, or "signature" (D2, with the signatures option). */
export type ChainProblem =
  "missing" | "unreadable" | "hash" | "order" | "link" | "truncated" | "head" | "fork" | "signature";

export type VerifyResult =
  | {
      ok: true;
      stream: string;
      events: number;
      headHash: string;
      /** With the signatures option: what the signature check counted (docs/signatures.md). */
      signatures?: SignatureCounts;
    }
  | {
      ok: false;
      stream: string;
      seq: number;
      problem: ChainProblem;
      message: string;
      /** For a branch, the stream whose stored event is bad when it is not the branch's own (the parent's prefix). */
      inStream?: string;
    };

export interface VerifyOptions {
  /** Whether the quick check comes first (default true); false walks the line exactly only. */
  quick?: boolean;
  /** How many key ranges of the line the exact walk reads at once (default VERIFY_RANGES). */
  ranges?: number;
  /** The fewest events worth an iterator of their own (default MIN_RANGE_EVENTS): a shorter line is read in fewer ranges. */
  minRangeEvents?: number;
  /** Worker threads that check a long line's ranges besides this thread (default defaultCheckerCount(); 0: none). */
  checkers?: number;
  /** The fewest events worth starting them for (default MIN_CHECKER_EVENTS). */
  minCheckerEvents?: number;
  /** Whether this thread checks ranges too (default true; false leaves them all to the checkers). */
  thisThread?: boolean;
  /** Events per range of the quick check (default QUICK_RANGE_EVENTS). */
  quickRangeEvents?: number;
  /**
   * Whether every signed command is also checked against the key it must verify with, once the chain holds (default
   * false: the engine checked each as it was written; `epicwar verify` asks for it). See checkSignatures.
   */
  signatures?: boolean;
}

/**
 * The exact walk's ranges. One LevelDB iterator delivered an event about every 2.5 µs (it reads on a libuv thread,
 * batch after batch), about as long as the checks of an event take, so the walk kept waiting on it; iterators over
 * disjoint ranges read side by side, each on its own thread. Four is the libuv thread pool's default size: more
 * ranges only queue behind it.
 */
export const VERIFY_RANGES = 4;
/** Below this, a range's own iterator (open, first seek, close) costs more than reading side by side saves. */
export const MIN_RANGE_EVENTS = 2_000;
/**
 * Below this, starting the chain checkers' threads (about 30 ms each, taken from the cores that read and check) costs
 * more than they save: measured on two cores, 100,000 events checked as fast with one checker as without.
 */
export const MIN_CHECKER_EVENTS = 200_000;
/**
 * The quick check's ranges: small enough that the threads share the work evenly (a checker starts late and each
 * takes the next range as it is free), large enough that an iterator's open and close do not count.
 */
export const QUICK_RANGE_EVENTS = 10_000;

interface Failure {
  seq: number;
  problem: ChainProblem;
  message: string;
  inStream: string;
}

/** What one range's walk found, checked against the ranges before it once they are all read. */
interface RangeWalk {
  /** The key seq of the range's first event; undefined for a range with none. */
  firstSeq?: number;
  /** The link the first event records: it must be the hash of the event before the range, known only from there. */
  firstPrev?: unknown;
  /** The seq after the range's last event. */
  next: number;
  lastHash: string;
  /** The range's first problem after its first event's link (which is checked across the boundary). */
  failure?: Failure;
}

/**
 * Checks a stream's chain and reports the first seq whose hash, link or order is wrong, or whose body is not JSON, or
 * where the stored events and the stored head disagree (a deleted, changed, swapped or truncated event).
 *
 * First the quick check (chainHolds): the line in ranges of QUICK_RANGE_EVENTS, on this thread and, for a long line,
 * on checker threads, hashing each body and reading its link, seq and stream from the envelope's canonical ending
 * instead of parsing it. A line that holds there is intact. Otherwise the exact walk below finds what is wrong.
 *
 * A branch is walked as its line: the parent's events up to the fork (checked as the parent's, recursively), where
 * the hash must still be the fork hash the branch recorded ("fork"), then its own events linking on from it.
 *
 * The exact walk reads the line in up to `ranges` key ranges at once, cut at even seqs up to the stored head (the last
 * range of the branch's own events is open, so events after the head are read too). Each range checks its own events;
 * then the ranges are joined in order, checking the keys and links across each boundary, so the report is the one a
 * single walk from seq 1 would give: the first bad seq and its problem.
 */
export async function verifyStream(
  store: EventStore,
  stream: string,
  options: VerifyOptions = {},
): Promise<VerifyResult> {
  // Every read of the main thread comes from one read point, so that appends made meanwhile (in this process) are not
  // seen as events after the head. The checker threads cannot share it; they read only events up to that head, which
  // no append changes.
  const readPoint = await store.readPoint();
  try {
    const chain = await verifyAt(store, stream, options, readPoint);
    if (!chain.ok || !options.signatures) return chain;
    const signatures = await checkSignatures(store, await store.line(stream), chain.events, readPoint);
    if (signatures.ok) return { ...chain, signatures: signatures.counts };
    const { seq, inStream, problem, message } = signatures.failure;
    return { ok: false, stream, seq, problem, message, ...(inStream !== stream ? { inStream } : {}) };
  } finally {
    await readPoint.close();
  }
}

async function verifyAt(
  store: EventStore,
  stream: string,
  options: VerifyOptions,
  readPoint: ReadPoint,
): Promise<VerifyResult> {
  let segments: Segment[];
  try {
    segments = await store.line(stream);
  } catch (error) {
    if (error instanceof BranchError) return { ok: false, stream, seq: 0, problem: "fork", message: error.message };
    throw error;
  }
  const fail = ({
    seq,
    problem,
    message,
    inStream,
  }: Omit<Failure, "inStream"> & { inStream?: string }): VerifyResult => ({
    ok: false,
    stream,
    seq,
    problem,
    message,
    ...(inStream !== undefined && inStream !== stream ? { inStream } : {}),
  });
  const head = await store.storedHead(stream, readPoint);
  const metas = await Promise.all(
    segments.map((segment, index) => (index > 0 ? store.branch(segment.stream) : undefined)),
  );
  if (options.quick ?? true) {
    const rangeEvents = options.quickRangeEvents ?? QUICK_RANGE_EVENTS;
    // Up to the head only: whether anything is stored after it is asked of the read point.
    const quickRanges = splitLine(segments, head.seq, Math.ceil(head.seq / rangeEvents), rangeEvents).map((range) => ({
      ...range,
      to: Math.min(range.to, head.seq),
    }));
    const checkers =
      head.seq >= (options.minCheckerEvents ?? MIN_CHECKER_EVENTS) ? (options.checkers ?? defaultCheckerCount()) : 0;
    const forkHashes = metas.map((meta) => meta?.forkHash);
    const [quick, afterHead] = await Promise.all([
      chainHolds(store, quickRanges, forkHashes, head, { checkers, thisThread: options.thisThread ?? true }),
      // Any event stored after the head, not only the next seq: a head deleted with the first events after it.
      store.firstStoredFrom(segments.at(-1)!.stream, head.seq + 1, readPoint),
    ]);
    if (quick.holds && afterHead === undefined) return { ok: true, stream, events: head.seq, headHash: head.hash };
  }
  const ranges = splitLine(
    segments,
    head.seq,
    options.ranges ?? VERIFY_RANGES,
    options.minRangeEvents ?? MIN_RANGE_EVENTS,
  );
  // A range after one that failed cannot change the report: it stops reading.
  const stop = { after: Infinity };
  const walks = await Promise.all(
    ranges.map((range, index) =>
      walkRange(
        store,
        range,
        range.segment.stream === stream ? "" : ` of ${range.segment.stream}`,
        index,
        stop,
        readPoint,
      ),
    ),
  );

  let expected = 1;
  let prev = GENESIS_HASH;
  for (const [index, range] of ranges.entries()) {
    const { segment, segmentIndex } = range;
    const of = segment.stream === stream ? "" : ` of ${segment.stream}`;
    if (segmentIndex > 0 && range.from === segment.from) {
      const failure = checkForkJoin(segments[segmentIndex - 1]!, segment, metas[segmentIndex], expected, prev);
      if (failure) return fail(failure);
    }
    const walk = walks[index]!;
    if (walk.firstSeq === undefined) continue;
    if (walk.firstSeq !== expected)
      return fail({
        seq: expected,
        problem: "missing",
        message: `event ${expected}${of} is missing`,
        inStream: segment.stream,
      });
    // A problem with the first event's hash, body or order comes before its link, as in a walk from seq 1.
    if (walk.failure?.seq === walk.firstSeq) return fail(walk.failure);
    if (walk.firstPrev !== prev) {
      return fail({
        seq: walk.firstSeq,
        problem: "link",
        message: `event ${walk.firstSeq}${of} does not link to event ${walk.firstSeq - 1}`,
        inStream: segment.stream,
      });
    }
    if (walk.failure) return fail(walk.failure);
    expected = walk.next;
    prev = walk.lastHash;
  }
  const last = expected - 1;
  if (head.seq > last)
    return fail({
      seq: last + 1,
      problem: "truncated",
      message: `the head says ${head.seq} events but the log ends at ${last}`,
    });
  if (head.seq < last) {
    // Appends never write an event without the head that counts it, nor over a stored one: the head was cut back or
    // deleted (or events were added after it) outside the engine.
    const message =
      head.seq === 0
        ? `the head is missing (truncated to nothing), but events 1 to ${last} are stored`
        : `the head was truncated to ${head.seq} events (or events were added after it outside the log), but events up to ${last} are stored`;
    return fail({ seq: head.seq + 1, problem: "head", message });
  }
  if (head.hash !== prev)
    return fail({ seq: last, problem: "head", message: `event ${last} does not match the hash the head recorded` });
  return { ok: true, stream, events: last, headHash: prev };
}

/** Where a branch's line passes from its parent's part to the next segment: all of the parent's part is there, and it ends at the fork hash. */
function checkForkJoin(
  before: Segment,
  segment: Segment,
  meta: BranchMeta | undefined,
  expected: number,
  prev: string,
): Failure | undefined {
  if (expected !== segment.from)
    return {
      seq: expected,
      problem: "missing",
      message: `event ${expected} of ${before.stream} is missing`,
      inStream: before.stream,
    };
  if (meta && meta.forkHash !== prev) {
    return {
      seq: segment.from - 1,
      problem: "fork",
      message: `event ${segment.from - 1} of ${before.stream} is not the event ${segment.stream} was forked from: the parent's history was changed`,
      inStream: before.stream,
    };
  }
  return undefined;
}

/**
 * Reads one range and checks each event's key, hash, body and order, and the links inside the range. The first
 * event's key and link are left to the join, which knows the event before it.
 */
async function walkRange(
  store: EventStore,
  range: Range,
  of: string,
  index: number,
  stop: { after: number },
  readPoint: ReadPoint,
): Promise<RangeWalk> {
  const stream = range.segment.stream;
  const walk: RangeWalk = { next: range.from, lastHash: "" };
  const failed = (seq: number, problem: ChainProblem, message: string): RangeWalk => {
    walk.failure = { seq, problem, message, inStream: stream };
    stop.after = Math.min(stop.after, index);
    return walk;
  };
  let expected = range.from;
  let prev = "";
  for await (const batch of store.rawBatches(
    stream,
    range.from,
    range.to === Infinity ? undefined : range.to,
    readPoint,
  )) {
    if (index > stop.after) return walk;
    for (const [keySeq, value] of batch) {
      if (walk.firstSeq === undefined) {
        walk.firstSeq = keySeq;
        expected = keySeq;
      } else if (keySeq !== expected) {
        return failed(expected, "missing", `event ${expected}${of} is missing`);
      }
      const hash = value.slice(0, HASH_LENGTH);
      const body = value.slice(HASH_LENGTH);
      if (sha256Hex(body) !== hash)
        return failed(keySeq, "hash", `event ${keySeq}${of} does not match its hash: it was changed`);
      let envelope: { stream?: unknown; seq?: unknown; prev?: unknown };
      try {
        envelope = JSON.parse(body) as typeof envelope;
      } catch {
        return failed(keySeq, "unreadable", `event ${keySeq}${of} is not readable JSON`);
      }
      if (envelope.seq !== keySeq || envelope.stream !== stream) {
        return failed(
          keySeq,
          "order",
          `event stored at ${keySeq}${of} says it is ${String(envelope.stream)} #${String(envelope.seq)}: events were moved`,
        );
      }
      if (keySeq === walk.firstSeq) walk.firstPrev = envelope.prev;
      else if (envelope.prev !== prev)
        return failed(keySeq, "link", `event ${keySeq}${of} does not link to event ${keySeq - 1}`);
      prev = hash;
      expected++;
    }
    walk.next = expected;
    walk.lastHash = prev;
  }
  return walk;
}

/**
 * What to report when reading or folding a stream failed: a CorruptEventError as it is; otherwise, when the stream
 * fails verification, a CorruptEventError naming its first bad seq, the original error as its cause (an edited event
 * can make a reducer throw anything); otherwise the error itself, a fault of the engine. Verify runs only here, on the
 * way out of a failure.
 */
export async function blameBrokenLog(store: EventStore, stream: string, error: unknown): Promise<unknown> {
  if (error instanceof CorruptEventError) return error;
  let result: VerifyResult;
  try {
    result = await verifyStream(store, stream);
  } catch {
    return error;
  }
  if (result.ok) return error;
  return new CorruptEventError(
    result.inStream ?? stream,
    result.seq,
    `fails verification (${result.problem}: ${result.message})`,
    { cause: error },
  );
}
