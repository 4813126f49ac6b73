import type { Command } from "commander";
import { followFeed } from "../../client/feed.js";
import { PrepareError } from "../../client/prepare.js";
import { SecretsError } from "../../client/secrets.js";
import { ChoreRefusedError } from "../../client/table.js";
import { viewedContent } from "../../views/view.js";
import { logLine } from "../../words/events.js";
import { CliError } from "../errors.js";
import type { CliIo } from "../io.js";
import { RemoteSeat, type RemoteSeatOptions, type ServerRequest } from "../remote.js";
import type { CliKit } from "./kit.js";

export interface WatchCliOptions extends RemoteSeatOptions {
  json?: boolean;
  /** Print from after this event (0: the whole log); default: from now on. */
  fromSeq?: string;
}

/**
 * `epicwar watch`: follows a campaign's live feed on a server and prints each event as it comes, in the words of
 * `epicwar log` (or as JSON Lines), each once and in order across dropped connections; after each arrival it takes the
 * seat's chores that fell due (its seeds, its reveals), from its secrets on this machine, and again each time the feed
 * is connected again after a drop. Runs until interrupted, or until the server has been out of reach too long.
 */
export async function watchCampaign(
  request: ServerRequest,
  options: WatchCliOptions,
  io: CliIo,
  print: (line: string) => void,
): Promise<void> {
  if (options.fromSeq !== undefined && !/^(0|[1-9][0-9]{0,11})$/.test(options.fromSeq))
    throw new CliError(`--from-seq must be an event number (0, 1, 2, ...), not "${options.fromSeq}"`);
  const signal = io.interruption?.() ?? new AbortController().signal;
  const seat = await RemoteSeat.open(request, options, io.env);
  const table = await seat.table();
  const after = options.fromSeq === undefined ? (await table.state()).seq : Number(options.fromSeq);
  let lastTrouble: string | undefined;
  // A chore that cannot be taken (a secret lost, a step refused) is reported once; the feed goes on, and so do the
  // chores that can be taken later.
  const takeChores = async () => {
    try {
      await table.takeChores();
      lastTrouble = undefined;
    } catch (error) {
      if (!(error instanceof ChoreRefusedError || error instanceof PrepareError || error instanceof SecretsError))
        throw error;
      if (error.message !== lastTrouble)
        io.stderr(`epicwar: a step that was due could not be taken: ${error.message}\n`);
      lastTrouble = error.message;
    }
  };
  await takeChores();
  // The connection tells on stderr when the server is lost and when it is back.
  const feed = followFeed(seat.server, seat.campaign, { after, signal });
  for await (const events of feed) {
    for (const event of events) print(options.json ? JSON.stringify(event) : logLine(viewedContent(event)));
    await takeChores();
  }
}

/** Registers `watch`: the live feed of a campaign on a server, with the seat's chores. */
export function registerWatch(program: Command, kit: CliKit): void {
  const { action, print, io } = kit;
  program
    .command("watch")
    .description(
      "follow a campaign on a server (--server): print each event as it comes, as log does, and take this seat's chores (seeds, reveals) as they fall due; Ctrl-C stops",
    )
    .addOption(kit.campaignOption())
    .addOption(kit.secretsOption())
    .addOption(kit.choresOption())
    .option("--json", "print each event as one JSON line, as log --json does")
    .option("--from-seq <n>", "print from after this event (0: the whole log) instead of from now on")
    .addHelpText("after", "\nThe server, the token and the secrets folder: docs/remote-play.md.")
    .action(
      action(async (options: WatchCliOptions, command: Command) => {
        const server = kit.server(command);
        if (!server)
          throw new CliError("watch follows a campaign on a server: give --server URL (or set EPICWAR_SERVER)");
        await watchCampaign(server, options, io, print);
      }),
    );
}
