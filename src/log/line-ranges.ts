import type { Segment } from "./layout.js";

/** A stretch of one segment, read by one iterator: `to` is Infinity for the open end of the branch's own events. */
export interface Range {
  segment: Segment;
  /** The segment's index in the line. */
  segmentIndex: number;
  from: number;
  to: number;
}

/**
 * The line's segments cut into at most `count` ranges of about equal length up to `headSeq` (each at least
 * `minEvents` long). Every segment keeps its own end, so the ranges cover exactly the keys a walk of the line reads.
 */
export function splitLine(segments: Segment[], headSeq: number, count: number, minEvents: number): Range[] {
  const known = Number.isSafeInteger(headSeq) && headSeq > 0 ? headSeq : 0;
  const pieces = Math.max(1, Math.min(Math.floor(count), Math.floor(known / Math.max(1, minEvents))));
  const size = Math.ceil(known / pieces);
  const ranges: Range[] = [];
  for (const [segmentIndex, segment] of segments.entries()) {
    let from = segment.from;
    for (let cut = 1 + size; pieces > 1 && cut <= known; cut += size) {
      if (cut <= from || cut > segment.to) continue;
      ranges.push({ segment, segmentIndex, from, to: cut - 1 });
      from = cut;
    }
    ranges.push({ segment, segmentIndex, from, to: segment.to });
  }
  return ranges;
}
