import { Replays } from "../../../replays/replayer.js";
import { timeline, timelineLine } from "../../../replays/timeline.js";
import { CliError } from "../errors.js";
import { pickCampaign, withEngine } from "../session.js";
import { asCliError } from "./branch.js";
import { warnIfBroken } from "./show.js";
import { describeAs, lineView } from "../../../replays/as-seen.js";
import { viewAsOption } from "./viewer.js";
import type { Command } from "commander";
import type { CliKit } from "./kit.js";
import { remoteTimeline } from "./remote.js";

/**
 * `epicwar timeline`: one line per event in players' words, prefixed with where it happened ("Turn 3 Action: ..."),
 * from the start of a turn on; with --json, one JSON object per event (JSON Lines).
 */
export async function runTimeline(
  options: { db: string; campaign?: string; fromTurn?: string; json?: boolean; as?: string },
  print: (line: string) => void,
): Promise<void> {
  if (options.fromTurn !== undefined && !/^[1-9][0-9]{0,8}$/.test(options.fromTurn)) {
    throw new CliError(`--from-turn must be a turn number (1, 2, ...), not "${options.fromTurn}"`);
  }
  await withEngine(options, { createIfMissing: false }, async (engine) => {
    const stream = await pickCampaign(engine, options.db, options.campaign);
    const replays = new Replays(engine.store);
    const fromTurn = options.fromTurn === undefined ? undefined : Number(options.fromTurn);
    // A player's view is judged with the campaign as it stands now, as `log --as` judges it.
    const view = await lineView(engine.store, stream, options.as);
    try {
      for await (const batch of timeline(engine.store, replays, stream, {
        ...(fromTurn === undefined ? {} : { fromTurn }),
        describe: describeAs(view),
      })) {
        for (const entry of batch) print(options.json ? JSON.stringify(entry) : timelineLine(entry));
      }
    } catch (error) {
      asCliError(error);
    }
    await warnIfBroken(engine, stream);
  });
}

type TimelineCliOptions = {
  db: string;
  campaign?: string;
  fromTurn?: string;
  json?: boolean;
  as?: string;
  secrets?: string;
};

/** Registers `timeline`: the campaign in players' words, one line per event. */
export function registerTimeline(
  program: Command,
  { action, print, io, server, dbOption, campaignOption, branchOption, secretsOption }: CliKit,
): void {
  program
    .command("timeline")
    .description('the campaign in players\' words, one line per event: "Turn 3 Action: c4 moves (4,2)->(4,4)"')
    .addOption(dbOption())
    .addOption(campaignOption())
    .addOption(branchOption())
    .option("--from-turn <n>", "start where this turn begins")
    .option("--json", "one JSON object per event (JSON Lines): seq, turn, phase, label, type, actor, at, text")
    .addOption(viewAsOption())
    .addOption(secretsOption())
    .action(
      action((options: TimelineCliOptions, command: Command) => {
        const remote = server(command);
        return remote ? remoteTimeline(remote, options, io, print) : runTimeline(options, print);
      }),
    );
}
