import { BranchError } from "./errors.js";
import type { BranchMeta, Segment } from "./layout.js";

/**
 * The stretches of streams a stream reads, in seq order: for a campaign its own events; for a branch its parent's
 * line up to the fork seq, then its own events. A stretch emptied by a fork below it is left out.
 */
export async function walkLine(
  stream: string,
  branchOf: (stream: string) => Promise<BranchMeta | undefined>,
): Promise<Segment[]> {
  const segments: Segment[] = [];
  const seen = new Set<string>();
  let current = stream;
  let to = Infinity;
  for (;;) {
    if (seen.has(current))
      throw new BranchError(
        `the branch records of ${stream} form a loop through ${current}: the log was changed outside epicwar`,
      );
    seen.add(current);
    const meta = await branchOf(current);
    if (!meta) {
      segments.unshift({ stream: current, from: 1, to });
      return segments;
    }
    if (meta.forkSeq + 1 <= to) segments.unshift({ stream: current, from: meta.forkSeq + 1, to });
    to = Math.min(to, meta.forkSeq);
    current = meta.parent;
  }
}
