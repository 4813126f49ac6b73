import { checkChainBatch, type BatchLinks } from "./chain-batch.js";

/** What one range that holds gives the join: the seq after its last event, and its end links (none if it is empty). */
export interface RangeLinks {
  next: number;
  ends?: BatchLinks;
}

/**
 * Checks one range's entries, batch after batch (checkChainBatch), and the links between its batches. Undefined when
 * anything differs. `keyPrefix` is what the stream's keys start with as read; `from` is the range's first seq.
 */
export async function checkRange(
  entries: AsyncIterable<Array<[string, string]>>,
  keyPrefix: string,
  stream: string,
  from: number,
): Promise<RangeLinks | undefined> {
  const range: RangeLinks = { next: from };
  for await (const batch of entries) {
    const links = checkChainBatch({ stream, keyPrefix, from: range.next, entries: batch });
    if (!links || (range.ends && links.firstPrev !== range.ends.lastHash)) return undefined;
    range.ends = { firstPrev: range.ends?.firstPrev ?? links.firstPrev, lastHash: links.lastHash };
    range.next += batch.length;
  }
  return range;
}
