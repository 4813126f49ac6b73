import { GENESIS_HASH } from "../../events/index.js";
import { BranchError } from "./errors.js";
import { sha256Hex } from "./hash.js";
import { HASH_LENGTH, type Segment } from "./layout.js";
import type { EventStore } from "./store.js";

export type ChainProblem = "missing" | "unreadable" | "hash" | "order" | "link" | "truncated" | "head" | "fork";

export type VerifyResult =
  | { ok: true; stream: string; events: number; headHash: string }
  | {
      ok: false;
      stream: string;
      seq: number;
      problem: ChainProblem;
      message: string;
      /** For a branch, the stream whose stored event is bad when it is not the branch's own (the parent's prefix). */
      inStream?: string;
    };

/**
 * Walks a stream's chain and reports the first seq whose hash, link or order is wrong, or where the stored events
 * and the stored head disagree (a deleted, changed, swapped or truncated event).
 *
 * A branch is walked as its line: the parent's events up to the fork (checked as the parent's, recursively), where
 * the hash must still be the fork hash the branch recorded ("fork"), then its own events linking on from it.
 */
export async function verifyStream(store: EventStore, stream: string): Promise<VerifyResult> {
  let segments: Segment[];
  try {
    segments = await store.line(stream);
  } catch (error) {
    if (error instanceof BranchError) return { ok: false, stream, seq: 0, problem: "fork", message: error.message };
    throw error;
  }
  let expected = 1;
  let prev = GENESIS_HASH;
  const fail = (seq: number, problem: ChainProblem, message: string, inStream?: string): VerifyResult => ({
    ok: false,
    stream,
    seq,
    problem,
    message,
    ...(inStream !== undefined && inStream !== stream ? { inStream } : {}),
  });
  for (const [index, segment] of segments.entries()) {
    const own = segment.stream === stream;
    const of = own ? "" : ` of ${segment.stream}`;
    if (index > 0) {
      // The parent's part ended at the fork: all of it must be there, ending at the hash the branch was made from.
      const meta = await store.branch(segment.stream);
      if (expected !== segment.from) return fail(expected, "missing", `event ${expected} of ${segments[index - 1]!.stream} is missing`, segments[index - 1]!.stream);
      if (meta && meta.forkHash !== prev) {
        return fail(segment.from - 1, "fork", `event ${segment.from - 1} of ${segments[index - 1]!.stream} is not the event ${segment.stream} was forked from: the parent's history was changed`, segments[index - 1]!.stream);
      }
    }
    for await (const batch of store.rawBatches(segment.stream, segment.from, segment.to === Infinity ? undefined : segment.to)) {
      for (const [keySeq, value] of batch) {
        if (keySeq !== expected) return fail(expected, "missing", `event ${expected}${of} is missing`, segment.stream);
        const hash = value.slice(0, HASH_LENGTH);
        const body = value.slice(HASH_LENGTH);
        if (sha256Hex(body) !== hash) return fail(keySeq, "hash", `event ${keySeq}${of} does not match its hash: it was changed`, segment.stream);
        let envelope: { stream?: unknown; seq?: unknown; prev?: unknown };
        try {
          envelope = JSON.parse(body) as typeof envelope;
        } catch {
          return fail(keySeq, "unreadable", `event ${keySeq}${of} is not readable JSON`, segment.stream);
        }
        if (envelope.seq !== keySeq || envelope.stream !== segment.stream) {
          return fail(keySeq, "order", `event stored at ${keySeq}${of} says it is ${String(envelope.stream)} #${String(envelope.seq)}: events were moved`, segment.stream);
        }
        if (envelope.prev !== prev) return fail(keySeq, "link", `event ${keySeq}${of} does not link to event ${keySeq - 1}`, segment.stream);
        prev = hash;
        expected++;
      }
    }
  }
  const last = expected - 1;
  const head = await store.storedHead(stream);
  if (head.seq > last) return fail(last + 1, "truncated", `the head says ${head.seq} events but the log ends at ${last}`);
  if (head.seq < last) return fail(head.seq + 1, "head", `events after the head (${head.seq}) were added outside the log`);
  if (head.hash !== prev) return fail(last, "head", `event ${last} does not match the hash the head recorded`);
  return { ok: true, stream, events: last, headHash: prev };
}
