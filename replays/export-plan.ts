import type { EventStore } from "../src/log/index.js";
import type { ExportPlan } from "../src/log/export-file.js";
import type { BranchMeta } from "../src/log/layout.js";
import { MAIN } from "./branches.js";

/**
 * What `export` writes for a line (a campaign's own stream, or a branch's): the campaign's own stream, then branches,
 * each after its parent (branches travel with their parent). For a campaign, every one of its branches; for a branch,
 * itself and the branches it descends from.
 */
export async function exportPlan(store: EventStore, stream: string): Promise<ExportPlan> {
  const campaign = (await store.branch(stream))?.root ?? stream;
  const family = (await store.branches()).filter((branch) => branch.root === campaign);
  const byStream = new Map(family.map((branch) => [branch.stream, branch]));
  let chosen: BranchMeta[];
  if (stream === campaign) chosen = family;
  else {
    chosen = [];
    for (let meta = byStream.get(stream); meta; meta = byStream.get(meta.parent)) chosen.push(meta);
  }
  // Parents first: a branch is written once every stream it forks from has been.
  const ordered: BranchMeta[] = [];
  const placed = new Set([campaign]);
  while (ordered.length < chosen.length) {
    const ready = chosen.filter((branch) => !placed.has(branch.stream) && placed.has(branch.parent));
    if (ready.length === 0) throw new Error(`the branches of ${campaign} do not all lead back to it`);
    for (const branch of ready.sort((a, b) => a.stream.localeCompare(b.stream))) {
      ordered.push(branch);
      placed.add(branch.stream);
    }
  }
  return {
    campaign,
    line: stream === campaign ? MAIN : byStream.get(stream)!.name,
    stream,
    streams: [{ stream: campaign }, ...ordered.map((branch) => ({ stream: branch.stream, branch }))],
  };
}
