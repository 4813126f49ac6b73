import type { StoredEvent } from "../../events/index.js";

/**
 * Key and value layout (see docs/storage.md).
 * events sublevel:   "<stream>#<seq, 12 digits>" -> "<hash><canonical JSON of the envelope without its hash>"
 * heads sublevel:    "<stream>" -> JSON {seq, hash}
 * branches sublevel: "<stream>" -> JSON BranchMeta, for a stream that starts with another stream's prefix
 */
export const SEQ_DIGITS = 12;
const SEPARATOR = "#";

export function eventKey(stream: string, seq: number): string {
  return streamKeyPrefix(stream) + seqDigits(seq);
}

/** A seq as the key writes it: SEQ_DIGITS digits, zero-padded, so that key order is seq order. */
export function seqDigits(seq: number): string {
  return String(seq).padStart(SEQ_DIGITS, "0");
}

/** What every event key of the stream starts with: its seq's SEQ_DIGITS digits follow. */
export function streamKeyPrefix(stream: string): string {
  return `${stream}${SEPARATOR}`;
}

/** Key range of one stream's events, from seq `from` on. */
export function streamRange(stream: string, from = 1, to?: number): { gte: string; lte: string } {
  return {
    gte: eventKey(stream, Math.max(from, 1)),
    lte: to === undefined ? `${stream}${SEPARATOR}~` : eventKey(stream, to),
  };
}

/** The stream an event key belongs to. */
export function streamOfKey(key: string): string {
  return key.slice(0, key.lastIndexOf(SEPARATOR));
}

export function seqOfKey(key: string): number {
  return Number(key.slice(key.lastIndexOf(SEPARATOR) + 1));
}

export const HASH_LENGTH = 64;

export function encodeEvent(hash: string, body: string): string {
  return hash + body;
}

export function decodeEvent(value: string): StoredEvent {
  // The parsed body is a fresh object: the hash is added to it rather than copied with a spread (the replay hot path).
  const event = JSON.parse(value.slice(HASH_LENGTH)) as StoredEvent;
  event.hash = value.slice(0, HASH_LENGTH);
  return event;
}

export interface Head {
  seq: number;
  hash: string;
}

/**
 * A branch: a stream that starts with its parent's events 1..forkSeq (the parent's own, or inherited in turn) and
 * continues with its own from forkSeq + 1, its first event linking to forkHash, the parent's hash at the fork.
 */
export interface BranchMeta {
  /** The branch's stream id. */
  stream: string;
  /** What players call it (unique in its campaign). */
  name: string;
  /** The stream it was forked from: a campaign's main line or another branch. */
  parent: string;
  /** The campaign's main-line stream at the root of the family. */
  root: string;
  forkSeq: number;
  forkHash: string;
  /** When it was made (ISO date-time); not part of any hash. */
  created: string;
}

/** One stretch of a line: `stream`'s own events from..to; `to` is Infinity for the last stretch. */
export interface Segment {
  stream: string;
  from: number;
  to: number;
}
