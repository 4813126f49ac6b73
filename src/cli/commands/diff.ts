import { MAIN } from "../../../replays/branches.js";
import { diffSummaries, renderDiff, summarize } from "../../../replays/diff.js";
import { withEngine } from "../session.js";
import { warnIfBroken } from "./show.js";
import { pickLine } from "./branch.js";

/**
 * `epicwar diff A B`: two lines of a campaign (branch names, or "main") compared at their current states: CVPs,
 * objectives and home bases, armies' positions and strength, reserves, winner.
 */
export async function runDiff(a: string, b: string, options: { db: string; campaign?: string; json?: boolean }, print: (line: string) => void): Promise<void> {
  await withEngine(options.db, { createIfMissing: false }, async (engine) => {
    const streams = [await pickLine(engine, options.db, options.campaign, a), await pickLine(engine, options.db, options.campaign, b)];
    const [left, right] = await Promise.all(streams.map(async (stream) => summarize(await engine.state(stream))));
    const differences = diffSummaries(left!, right!);
    if (options.json) print(JSON.stringify({ a: { line: a, stream: streams[0], ...left }, b: { line: b, stream: streams[1], ...right }, differences }));
    else renderDiff(a, b, left!, right!, differences).forEach(print);
    for (const stream of streams) await warnIfBroken(engine, stream!);
  });
}

export const DIFF_HELP = `\nA and B are branch names or "${MAIN}" (the campaign's own line). See epicwar branches.`;
