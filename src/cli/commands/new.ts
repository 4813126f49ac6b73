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
import {
  checkComputerSetup,
  computerDir,
  ComputerSettingsError,
  DEFAULT_THINK_MS,
  parseComputer,
  removeComputerSettings,
  writeComputerSettings,
  type ComputerSettings,
} from "../../computer/settings.js";
import { computerAfterCommand } from "./computer.js";

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

/**
 * Creates a campaign the computer plays a seat of, its settings kept first, as a server keeps them: a server sharing
 * the log that finds the campaign finds its computer too. Settings kept for a campaign the log refuses are removed,
 * and those of a campaign already in the log are never touched.
 */
async function createAgainstComputer(
  engine: Engine,
  options: { db: string; setup: string },
  setup: SetupFile & { catalogue: Catalogue },
  computer: ComputerSettings,
): Promise<{ campaign: string; lines: string[] }> {
  const dir = computerDir(options.db);
  if ((await engine.store.head(setup.campaign)).seq > 0) return createCampaign(engine, options.setup, setup);
  await writeComputerSettings(dir, setup.campaign, computer);
  try {
    return await createCampaign(engine, options.setup, setup);
  } catch (error) {
    await removeComputerSettings(dir, setup.campaign);
    throw error;
  }
}

/** The computer's settings from --computer and --think, checked against the set-up's players before anything is written. */
function computerSettings(
  options: { computer?: string; think?: string },
  setup: SetupFile,
): ComputerSettings | undefined {
  if (options.computer === undefined) {
    if (options.think !== undefined)
      throw new CliError("--think sets the computer's thinking time: give --computer too");
    return undefined;
  }
  try {
    checkComputerSetup(setup);
    return parseComputer(
      options.computer,
      setup.players.map((p) => p.id),
      options.think === undefined ? undefined : Number(options.think),
    );
  } catch (error) {
    if (error instanceof ComputerSettingsError) throw new CliError(error.message);
    throw error;
  }
}

/** B4: the set-up with --battles's choice of how battles are resolved (the set-up's `options.battles` otherwise). */
export function withBattles<S extends SetupFile>(setup: S, battles: string | undefined): S {
  if (battles === undefined) return setup;
  if (battles !== "table" && battles !== "model")
    throw new CliError(
      `--battles: "${battles}" is not a way to resolve battles (B4): give table (the players report) or model (the battle model)`,
    );
  return { ...setup, options: { ...setup.options, battles } };
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
    .option(
      "--computer <seat[:level]>",
      "the computer plays this player, at a level: scripted (the default) or searching (docs/computer.md)",
    )
    .option(
      "--battles <how>",
      "how battles are resolved (B4): table (the players report and confirm, the default) or model (the host draws each by the battle model from the turn's dice)",
    )
    .option(
      "--think <ms>",
      `with --computer: the searching level's thinking time per decision, in milliseconds (default ${DEFAULT_THINK_MS})`,
    )
    .action(
      action(
        async (
          options: SeatCliOptions & {
            setup: string;
            computer?: string;
            think?: string;
            battles?: string;
            store?: string;
          },
        ) => {
          const setup = withBattles(await loadSetupFile(options.setup), options.battles);
          const computer = computerSettings(options, setup);
          if (computer && options.store !== undefined)
            throw new CliError(
              "--computer with --store: on a shared database a campaign against the computer is made through a server (POST /campaigns with computer, or the page's /new), which keeps the computer's settings and secrets in the database for every instance (docs/scaling.md)",
            );
          await withEngine(options, { clock: io.clock }, async (engine) => {
            const { campaign, lines } = computer
              ? await createAgainstComputer(engine, options, setup, computer)
              : await createCampaign(engine, options.setup, setup);
            lines.forEach(print);
            if (computer) {
              print(
                `The computer plays ${computer.seat} (${computer.level}); its secrets are kept in ${computerDir(options.db)}.`,
              );
            }
            const seat = new Seat(engine, options);
            const table = await seat.table(campaign);
            await table.takeChores(printEvents(print, options.as, await engine.state(campaign)));
            if (computer) await computerAfterCommand(seat, options.db, campaign, print);
            const head = await engine.store.head(campaign);
            print(`The log holds ${head.seq} events; head ${head.hash.slice(0, 16)}.`);
          });
        },
      ),
    );
}
