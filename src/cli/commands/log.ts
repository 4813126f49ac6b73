import { Option, type Command } from "commander";
import { pickCampaign, withEngine } from "../session.js";
import type { CliKit } from "./kit.js";
import { showLog, showRawLog, warnIfBroken } from "./show.js";
import { remoteLog } from "./remote.js";

type LogCliOptions = { db: string; campaign?: string; json?: boolean; raw?: boolean; as?: string; secrets?: string };

/** Registers `log`: the campaign's events in order, as read, as JSON lines, as stored (--raw) or as a player sees them. */
export function registerLog(
  program: Command,
  { action, print, io, server, dbOption, campaignOption, branchOption, secretsOption }: CliKit,
): void {
  program
    .command("log")
    .description("list the campaign's events in order")
    .addOption(dbOption())
    .addOption(campaignOption())
    .option(
      "--json",
      'print each event as one JSON line: the stored event parsed and written out again with a "hash" member (not the stored bytes; see --raw)',
    )
    .addOption(
      new Option(
        "--raw",
        "print the log as stored, for a verifier without this code: per event its seq, stored hash and the hashed body verbatim, then the head (docs/storage.md)",
      ).conflicts(["json", "as"]),
    )
    .addOption(
      new Option(
        "--as <player>",
        "show what this player may see: the other side's secrets hidden, and no chain hashes (docs/views.md)",
      ),
    )
    .addOption(branchOption())
    .addOption(secretsOption())
    .addHelpText(
      "after",
      "\nA reference verifier of a --raw log, in Python with the standard library only: tools/verify_log.py (docs/storage.md).",
    )
    .action(
      action(async (options: LogCliOptions, command: Command) => {
        const remote = server(command);
        if (remote) return remoteLog(remote, options, io, print);
        await withEngine(options, { createIfMissing: false }, async (engine) => {
          const campaign = await pickCampaign(engine, options.db, options.campaign);
          if (options.raw) await showRawLog(engine.store, campaign, print);
          else await showLog(engine, campaign, options.json ?? false, print, options.as);
          await warnIfBroken(engine, campaign);
        });
      }),
    );
}
