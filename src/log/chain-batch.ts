import { sha256Hex } from "./hash.js";
import { HASH_LENGTH, SEQ_DIGITS, seqDigits } from "./layout.js";

/** A run of one stream's stored entries, in key order, as a chain checker takes it. */
export interface ChainBatch {
  stream: string;
  /** What every key of the stream starts with in the root database: the seq's digits follow. */
  keyPrefix: string;
  /** The seq the first entry must be. */
  from: number;
  /** The stored [key, value] pairs, in key order. */
  entries: Array<[string, string]>;
}

/** How a batch that holds joins the batches around it: the link of its first event, the hash of its last. */
export interface BatchLinks {
  firstPrev: string;
  lastHash: string;
}

const PREV = ',"prev":"';
const SEQ = '","seq":';
const VERSION = '","version":';
const isDigit = (code: number) => code >= 48 && code <= 57;
const isLetter = (code: number) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);

/**
 * Checks a batch without parsing its bodies: the keys are the seqs from `from` on, one after the other; each stored
 * hash is the SHA-256 of its body; each body's envelope ends with the link to the event before it (inside the batch),
 * its own seq and the stream, then its type and version. Undefined when anything differs.
 *
 * For a body that is JSON, that ending is exactly what JSON.parse reads as the envelope's prev, seq and stream: the
 * canonical envelope's last members are prev, seq, stream, type and version, and an ending read back from the body's
 * last character that holds no bracket can only be members of the outermost object (and the last of any duplicate
 * wins). So a batch that holds is one the exact walk (verify.ts) passes too, unless a body is not JSON at all, which
 * its hash and links cannot show: see "What verify proves" in docs/storage.md. A batch that does not hold is walked
 * exactly, for the report.
 */
export function checkChainBatch({ stream, keyPrefix, from, entries }: ChainBatch): BatchLinks | undefined {
  const count = entries.length;
  if (count === 0 || !keysAreSeqs(keyPrefix, from, entries)) return undefined;
  const streamEnding = `,"stream":${JSON.stringify(stream)},"type":"`;
  let firstPrev = "";
  let prev = "";
  for (let index = 0; index < count; index++) {
    const value = entries[index]![1];
    const at = prevAt(value, from + index, streamEnding);
    if (at < 0) return undefined;
    const hash = sha256Hex(value.slice(HASH_LENGTH));
    if (value.slice(0, HASH_LENGTH) !== hash) return undefined;
    const link = value.slice(at, at + HASH_LENGTH);
    if (index === 0) firstPrev = link;
    else if (link !== prev) return undefined;
    prev = hash;
  }
  return { firstPrev, lastHash: prev };
}

/**
 * Where the prev hash starts in a stored value whose body ends `,"prev":"<hash>","seq":<seq><streamEnding><type>",
 * "version":<version>}`, read back from the last character; -1 when it does not end so.
 */
function prevAt(value: string, seq: number, streamEnding: string): number {
  let at = value.length - 1;
  if (value.charCodeAt(at) !== 125) return -1;
  const versionEnd = at;
  while (isDigit(value.charCodeAt(at - 1))) at--;
  if (at === versionEnd || (versionEnd - at > 1 && value.charCodeAt(at) === 48)) return -1;
  at -= VERSION.length;
  if (!value.startsWith(VERSION, at)) return -1;
  const typeEnd = at;
  while (isLetter(value.charCodeAt(at - 1))) at--;
  if (at === typeEnd) return -1;
  at -= streamEnding.length;
  if (at < 0 || !value.startsWith(streamEnding, at)) return -1;
  // The seq, digit by digit from its last.
  for (let rest = seq; rest > 0; rest = Math.floor(rest / 10)) {
    if (value.charCodeAt(--at) !== 48 + (rest % 10)) return -1;
  }
  at -= SEQ.length + HASH_LENGTH;
  if (
    at < HASH_LENGTH + PREV.length ||
    !value.startsWith(SEQ, at + HASH_LENGTH) ||
    !value.startsWith(PREV, at - PREV.length)
  )
    return -1;
  return at;
}

/**
 * The keys are `from`, `from + 1`, ... in order. LevelDB gives them strictly increasing, so when every key is the
 * prefix and SEQ_DIGITS digits, and the first and last are those of `from` and `from + count - 1`, the ones between
 * can only be the seqs between.
 */
function keysAreSeqs(keyPrefix: string, from: number, entries: Array<[string, string]>): boolean {
  const seqKey = (seq: number) => keyPrefix + seqDigits(seq);
  if (entries[0]![0] !== seqKey(from) || entries[entries.length - 1]![0] !== seqKey(from + entries.length - 1))
    return false;
  const width = keyPrefix.length + SEQ_DIGITS;
  for (const entry of entries) {
    const key = entry[0];
    if (key.length !== width) return false;
    for (let at = keyPrefix.length; at < width; at++) {
      const code = key.charCodeAt(at);
      if (code < 48 || code > 57) return false;
    }
  }
  return true;
}
