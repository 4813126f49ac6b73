import { catalogue, toCurrent, type StoredEvent } from "../events/index.js";
import type { Segment } from "../src/log/layout.js";
import type { EventStore } from "../src/log/index.js";
import { verifyStream } from "../src/log/verify.js";
import {
  auditCampaign,
  type AuditEvent,
  type AuditInput,
  type AuditOptions,
  type AuditReport,
  type UnreadableEvent,
} from "./audit.js";

const HASH_LENGTH = 64;

/**
 * Reads what the audit needs from a store: the chain's verification and every event that can still be read, as
 * stored (a damaged log is read as far as it goes; verify names where it is damaged). Never throws on a bad event.
 */
export async function loadAuditInput(store: EventStore, stream: string): Promise<AuditInput> {
  const chain = await verifyStream(store, stream);
  const events: AuditEvent[] = [];
  const unreadable: UnreadableEvent[] = [];
  for await (const batch of lineBatches(store, stream)) {
    for (const [keySeq, value] of batch) {
      let stored: StoredEvent;
      try {
        stored = {
          ...(JSON.parse(value.slice(HASH_LENGTH)) as Omit<StoredEvent, "hash">),
          hash: value.slice(0, HASH_LENGTH),
        } as StoredEvent;
      } catch {
        unreadable.push({ seq: keySeq, reason: "its stored value is not JSON" });
        continue;
      }
      try {
        const current = toCurrent(stored);
        const problem = catalogue.check(current);
        if (problem) {
          unreadable.push({ seq: keySeq, reason: `${problem.field} ${problem.message}` });
          continue;
        }
        const seq = Number.isInteger(current.seq) ? current.seq : keySeq;
        events.push({ ...current, seq } as AuditEvent);
      } catch (error) {
        unreadable.push({ seq: keySeq, reason: (error as Error).message });
      }
    }
  }
  return { stream, events, chain, unreadable };
}

/**
 * The stored key/value pairs of a stream's line: for a branch, its parent's events up to the fork, then its own. When
 * the branch records are damaged (verify reports it), the stream's own events only.
 */
async function* lineBatches(store: EventStore, stream: string): AsyncGenerator<Array<[number, string]>> {
  let segments: Segment[];
  try {
    segments = await store.line(stream);
  } catch {
    segments = [{ stream, from: 1, to: Infinity }];
  }
  for (const segment of segments) {
    yield* store.rawBatches(segment.stream, segment.from, segment.to === Infinity ? undefined : segment.to);
  }
}

/** Loads and audits one stream. */
export async function auditStream(store: EventStore, stream: string, options: AuditOptions = {}): Promise<AuditReport> {
  return auditCampaign(await loadAuditInput(store, stream), options);
}
