import { MAIN } from "../../../replays/branches.js";
import { diffAsSeen } from "../../../replays/as-seen.js";
import { renderDiff } from "../../../replays/diff.js";
import { withEngine } from "../session.js";
import { warnIfBroken } from "./show.js";
import { pickLine } from "./branch.js";
import { viewAsOption } from "./viewer.js";
import type { Command } from "commander";
import type { CliKit } from "./kit.js";

/**
 * `epicwar diff A B`: two lines of a campaign (branch names, or "main") compared at their current states: CVPs,
 * objectives and home bases, armies' positions and strength, reserves, winner. With --as PLAYER, each line as that
 * player may see it now (viewState): the other side's strength and reserves stay hidden under fog of war (A2).
 */
export async function runDiff(
  a: string,
  b: string,
  options: { db: string; campaign?: string; json?: boolean; as?: string },
  print: (line: string) => void,
): Promise<void> {
  await withEngine(options, { createIfMissing: false }, async (engine) => {
    const streams = [
      await pickLine(engine, options.db, options.campaign, a),
      await pickLine(engine, options.db, options.campaign, b),
    ];
    const diff = await diffAsSeen(
      engine.store,
      { line: a, stream: streams[0]! },
      { line: b, stream: streams[1]! },
      options.as,
    );
    if (options.json) print(JSON.stringify(diff));
    else renderDiff(a, b, diff.a, diff.b, diff.differences).forEach(print);
    for (const stream of streams) await warnIfBroken(engine, stream!);
  });
}

export const DIFF_HELP = `\nA and B are branch names or "${MAIN}" (the campaign's own line). See epicwar branches.`;

/** Registers `diff`: compares two lines of a campaign now. */
export function registerDiff(program: Command, { action, print, dbOption, campaignOption }: CliKit): void {
  program
    .command("diff")
    .description(
      "compare two lines of a campaign now: CVPs, objectives, armies' positions and strength, reserves, winner",
    )
    .argument("<a>", "a branch name, or main")
    .argument("<b>", "another")
    .addOption(dbOption())
    .addOption(campaignOption())
    .option("--json", "print the comparison as one JSON object")
    .addOption(viewAsOption())
    .addHelpText("after", DIFF_HELP)
    .action(
      action((a: string, b: string, options: { db: string; campaign?: string; json?: boolean; as?: string }) =>
        runDiff(a, b, options, print),
      ),
    );
}
