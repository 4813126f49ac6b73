import type { StoredEvent } from "../../events/index.js";

/**
 * Key and value layout (see docs/storage.md).
 * events sublevel: "<stream>#<seq, 12 digits>" -> "<hash><canonical JSON of the envelope without its hash>"
 * heads sublevel:  "<stream>" -> JSON {seq, hash}
 */
export const SEQ_DIGITS = 12;
const SEPARATOR = "#";

export function eventKey(stream: string, seq: number): string {
  return `${stream}${SEPARATOR}${String(seq).padStart(SEQ_DIGITS, "0")}`;
}

/** Key range of one stream's events, from seq `from` on. */
export function streamRange(stream: string, from = 1, to?: number): { gte: string; lte: string } {
  return { gte: eventKey(stream, Math.max(from, 1)), lte: to === undefined ? `${stream}${SEPARATOR}~` : eventKey(stream, to) };
}

export function seqOfKey(key: string): number {
  return Number(key.slice(key.lastIndexOf(SEPARATOR) + 1));
}

export const HASH_LENGTH = 64;

export function encodeEvent(hash: string, body: string): string {
  return hash + body;
}

export function decodeEvent(value: string): StoredEvent {
  const event = JSON.parse(value.slice(HASH_LENGTH)) as Omit<StoredEvent, "hash">;
  return { ...event, hash: value.slice(0, HASH_LENGTH) } as StoredEvent;
}

export interface Head {
  seq: number;
  hash: string;
}
