import type { Command } from "commander";
import { waitingOn } from "../../rules/waiting-on.js";
import { describeWaitingOn } from "../../words/waiting.js";
import { pickCampaign, withEngine } from "../session.js";
import type { CliKit } from "./kit.js";

/**
 * Registers `waiting`: who the campaign waits on now, per party, and the command each would give; with the pause and
 * the Action phase's deadline. Nothing in it is secret (ids and commands only), so it is the same for every seat.
 */
export function registerWaiting(
  program: Command,
  { action, print, io, dbOption, campaignOption, branchOption }: CliKit,
): void {
  program
    .command("waiting")
    .description(
      "show who the campaign waits on now, per party (host and players), and the command each would give; the pause and the Action phase's deadline",
    )
    .addOption(dbOption())
    .addOption(campaignOption())
    .addOption(branchOption())
    .option(
      "--json",
      "print it as one JSON object: { parties: { <party>: [{ what, command, army?, battle?, ... }] }, paused?, actionDeadline? }",
    )
    .action(
      action(async (options: { db: string; campaign?: string; json?: boolean }) => {
        await withEngine(options, { createIfMissing: false }, async (engine) => {
          const campaign = await pickCampaign(engine, options.db, options.campaign);
          const waiting = waitingOn(await engine.state(campaign));
          if (options.json) print(JSON.stringify(waiting));
          else describeWaitingOn(waiting, io.clock()).forEach(print);
        });
      }),
    );
}
