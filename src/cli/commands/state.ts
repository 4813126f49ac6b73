import { Option, type Command } from "commander";
import { Seat } from "../seat.js";
import { withEngine } from "../session.js";
import { positionOf } from "./branch.js";
import { addPositionOptions, type CliKit, type SeatCliOptions } from "./kit.js";
import { showStateAt } from "./replay.js";
import { showState, warnIfBroken } from "./show.js";
import { remoteState } from "./remote.js";

type StateCliOptions = SeatCliOptions & {
  json?: boolean;
  turn?: string;
  phase?: string;
  seq?: string;
  branch?: string;
};

/** Registers `state`: the campaign now, or where a turn or phase began, or right after an event. */
export function registerState(program: Command, kit: CliKit): void {
  const { action, print } = kit;
  const command = program
    .command("state")
    .description(
      "show the campaign now (or where a turn or phase began: --turn, --phase; after an event: --seq): map, armies, objectives, CVP target and awards",
    )
    .addOption(kit.dbOption())
    .addOption(kit.campaignOption())
    .option("--json", "print the projected state as JSON")
    .addOption(new Option("--as <player>", "show what this player may see, with its own hidden orders"))
    .addOption(kit.secretsOption())
    .addOption(kit.branchOption());
  addPositionOptions(command, "the state").action(
    action(async (options: StateCliOptions, command: Command) => {
      const server = kit.server(command);
      if (server) return remoteState(server, options, kit.io, print);
      const position = positionOf(options);
      await withEngine(options, { createIfMissing: false }, async (engine) => {
        const seat = new Seat(engine, options);
        print(
          position
            ? await showStateAt(seat, position, options.json ?? false)
            : await showState(seat, options.json ?? false),
        );
        await warnIfBroken(engine, await seat.campaign());
      });
    }),
  );
}
