import type { Catalogue } from "../../../events/common.js";
import { describeRefusal } from "../../rules/refusal.js";
import { setupCommands, type SetupFile } from "../../setup/setup-file.js";
import type { Engine } from "../../engine/engine.js";
import { CliError } from "../errors.js";
import type { Command } from "commander";
import { loadSetupFile } from "../../setup/setup-loader.js";
import { Seat } from "../seat.js";
import { withEngine } from "../session.js";
import { printEvents } from "./apply.js";
import type { CliKit, SeatCliOptions } from "./kit.js";

/** Creates a campaign from a set-up file: every set-up command decided in turn, all written in one batch or none. */
export async function createCampaign(
  engine: Engine,
  setupPath: string,
  setup: SetupFile & { catalogue: Catalogue },
): Promise<{ campaign: string; lines: string[] }> {
  const steps = setupCommands(setup);
  const outcome = await engine.create(steps.map((step) => step.command));
  if (!outcome.ok) {
    throw new CliError(`${setupPath}: ${steps[outcome.index]?.source ?? "setup"}: ${describeRefusal(outcome.refusal)}`);
  }
  const { state } = outcome;
  const armies = Object.keys(state.armies).length;
  const lines = [
    `Created campaign ${state.campaign} "${state.setup!.name}": ${armies} armies, ${Object.keys(state.objectives).length} objectives, ` +
      `${Object.keys(state.homeBases).length} home bases${state.status === "active" ? "; turn 1 begins" : "; set-up continues"}.`,
    `${outcome.events.length} set-up events written.`,
  ];
  return { campaign: state.campaign!, lines };
}

/** Registers `new`: creates a campaign from a set-up file and takes the first chores. */
export function registerNew(program: Command, kit: CliKit): void {
  const { action, print, io } = kit;
  program
    .command("new")
    .description(
      "create a campaign from a set-up file (map, players, M and N, catalogue, armies, objectives, deployment)",
    )
    .addOption(kit.dbOption())
    .requiredOption("--setup <file>", "the set-up file (JSON, see docs/setup-file.md)")
    .addOption(kit.branchOption().hideHelp())
    .addOption(kit.secretsOption())
    .addOption(kit.asOption())
    .addOption(kit.choresOption())
    .action(
      action(async (options: SeatCliOptions & { setup: string }) => {
        const setup = await loadSetupFile(options.setup);
        await withEngine(options, { clock: io.clock }, async (engine) => {
          const { campaign, lines } = await createCampaign(engine, options.setup, setup);
          lines.forEach(print);
          const table = await new Seat(engine, options).table(campaign);
          await table.takeChores(printEvents(print, options.as, await engine.state(campaign)));
          const head = await engine.store.head(campaign);
          print(`The log holds ${head.seq} events; head ${head.hash.slice(0, 16)}.`);
        });
      }),
    );
}
