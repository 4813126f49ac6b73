import type { Command } from "commander";
import { computerDir, readComputerSettings } from "../../computer/settings.js";
import { takeComputerSteps } from "../computer-steps.js";
import { CliError } from "../errors.js";
import { Seat } from "../seat.js";
import { withEngine } from "../session.js";
import { eventFeed } from "../../words/events.js";
import type { CliKit, SeatCliOptions } from "./kit.js";
import { seatViewer } from "./show.js";

/**
 * After a command of the human's in a campaign against the computer (`new`, `apply`): the computer's due steps, its
 * events printed as this machine's parties see them.
 */
export async function computerAfterCommand(
  seat: Seat,
  db: string,
  campaign: string,
  print: (line: string) => void,
): Promise<number> {
  const start = await seat.engine.state(campaign);
  const steps = await takeComputerSteps(
    seat.engine,
    seat,
    db,
    campaign,
    eventFeed(print, seatViewer(seat), start),
    print,
  );
  return steps.length;
}

/** Registers `computer`: takes the computer's due steps in a campaign against it, as new and apply do after a command. */
export function registerComputer(program: Command, kit: CliKit): void {
  const { action, print, io } = kit;
  program
    .command("computer")
    .description(
      "take the computer's due steps in a campaign against it (new and apply take them after each command; see docs/computer.md)",
    )
    .addOption(kit.dbOption())
    .addOption(kit.campaignOption())
    .addOption(kit.secretsOption())
    .action(
      action(async (options: SeatCliOptions) => {
        await withEngine(options, { clock: io.clock }, async (engine) => {
          const seat = new Seat(engine, options);
          const campaign = await seat.campaign();
          const settings = await readComputerSettings(computerDir(options.db), campaign);
          if (!settings)
            throw new CliError(
              `the computer plays no seat of ${campaign}: a campaign against it is made with epicwar new --computer SEAT[:LEVEL]`,
            );
          const steps = await computerAfterCommand(seat, options.db, campaign, print);
          const state = await engine.state(campaign);
          print(
            `The computer (${settings.seat}, ${settings.level}) took ${steps} step${steps === 1 ? "" : "s"}; ${state.status === "finished" ? "the campaign has ended" : "it waits on you"}.`,
          );
        });
      }),
    );
}
