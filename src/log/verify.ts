import { GENESIS_HASH } from "../../events/index.js";
import { sha256Hex } from "./hash.js";
import { HASH_LENGTH } from "./layout.js";
import type { EventStore } from "./store.js";

export type ChainProblem = "missing" | "unreadable" | "hash" | "order" | "link" | "truncated" | "head";

export type VerifyResult =
  | { ok: true; stream: string; events: number; headHash: string }
  | { ok: false; stream: string; seq: number; problem: ChainProblem; message: string };

/**
 * Walks a stream's chain and reports the first seq whose hash, link or order is wrong, or where the stored events
 * and the stored head disagree (a deleted, changed, swapped or truncated event).
 */
export async function verifyStream(store: EventStore, stream: string): Promise<VerifyResult> {
  let expected = 1;
  let prev = GENESIS_HASH;
  const fail = (seq: number, problem: ChainProblem, message: string): VerifyResult => ({ ok: false, stream, seq, problem, message });
  for await (const batch of store.rawBatches(stream)) {
    for (const [keySeq, value] of batch) {
      if (keySeq !== expected) return fail(expected, "missing", `event ${expected} is missing`);
      const hash = value.slice(0, HASH_LENGTH);
      const body = value.slice(HASH_LENGTH);
      if (sha256Hex(body) !== hash) return fail(keySeq, "hash", `event ${keySeq} does not match its hash: it was changed`);
      let envelope: { stream?: unknown; seq?: unknown; prev?: unknown };
      try {
        envelope = JSON.parse(body) as typeof envelope;
      } catch {
        return fail(keySeq, "unreadable", `event ${keySeq} is not readable JSON`);
      }
      if (envelope.seq !== keySeq || envelope.stream !== stream) {
        return fail(keySeq, "order", `event stored at ${keySeq} says it is ${String(envelope.stream)} #${String(envelope.seq)}: events were moved`);
      }
      if (envelope.prev !== prev) return fail(keySeq, "link", `event ${keySeq} does not link to event ${keySeq - 1}`);
      prev = hash;
      expected++;
    }
  }
  const last = expected - 1;
  const head = await store.storedHead(stream);
  if (head.seq > last) return fail(last + 1, "truncated", `the head says ${head.seq} events but the log ends at ${last}`);
  if (head.seq < last) return fail(head.seq + 1, "head", `events after the head (${head.seq}) were added outside the log`);
  if (head.hash !== prev) return fail(last, "head", `event ${last} does not match the hash the head recorded`);
  return { ok: true, stream, events: last, headHash: prev };
}
