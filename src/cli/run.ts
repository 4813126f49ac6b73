/**
 * The epicwar CLI as a function: `run(argv, io)` parses the arguments after the program's name, runs the command with
 * the streams, environment and clock in `io`, and returns the exit code (0 done; 1 refused or bad input; 2 the log
 * failed verification; 3 internal error; 4 a server stayed out of reach). It never exits the process nor touches its streams: main.ts is the bin's
 * stub over it, and tests run it in-process. A run builds its own program (commander keeps state between parses) and
 * opens every database it reads for itself only, closing it before it returns.
 */
import { Command, CommanderError } from "commander";
import { CorruptEventError } from "../log/index.js";
import { ServerOfflineError } from "../client/server.js";
import { registerApply } from "./commands/apply.js";
import { registerAudit } from "./commands/audit.js";
import { applyBranchOption, registerBranch, registerBranches } from "./commands/branch.js";
import { registerDemo } from "./commands/demo.js";
import { registerDiff } from "./commands/diff.js";
import { registerExport } from "./commands/export.js";
import { registerImport } from "./commands/import.js";
import { cliKit, type CliKit } from "./commands/kit.js";
import { registerLog } from "./commands/log.js";
import { registerBattle } from "./commands/battle.js";
import { registerKitPlay } from "./commands/kit-play.js";
import { registerMap } from "./commands/map.js";
import { registerNew } from "./commands/new.js";
import { registerComputer } from "./commands/computer.js";
import { registerDuel } from "./commands/duel.js";
import { registerSchema } from "./commands/schema.js";
import { registerServe } from "./commands/serve.js";
import { registerState } from "./commands/state.js";
import { registerTimeline } from "./commands/timeline.js";
import { registerVerify } from "./commands/verify.js";
import { registerWaiting } from "./commands/waiting.js";
import { registerJoin } from "./commands/join.js";
import { registerWatch } from "./commands/watch.js";
import { registerForecast } from "./commands/forecast.js";
import { CliError, EXIT, isKnownError } from "./errors.js";
import { packageVersion } from "../setup/package-files.js";
import type { CliIo } from "./io.js";
import { unknownCommand } from "./unknown-command.js";

/** Every command, in the order --help lists them; each registers itself on the program with the run's kit. */
const COMMANDS: readonly ((program: Command, kit: CliKit) => void)[] = [
  registerNew,
  registerApply,
  registerComputer,
  registerDuel,
  registerState,
  registerMap,
  registerLog,
  registerVerify,
  registerDemo,
  registerAudit,
  registerBranch,
  registerBranches,
  registerDiff,
  registerForecast,
  registerWaiting,
  registerBattle,
  registerKitPlay,
  registerTimeline,
  registerExport,
  registerImport,
  registerServe,
  registerJoin,
  registerWatch,
  registerSchema,
];

/** Runs the CLI on these arguments (process.argv without node and the script) and returns the exit code. */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode = 0;

  /** Runs a command's action and turns any failure into one line on stderr and an exit code. */
  function action<A extends unknown[]>(work: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
    return async (...args: A) => {
      try {
        const command = args.find((arg): arg is Command => arg instanceof Command);
        // Against a server, --branch is a query of the read (src/client/remote.ts), not a line of a local folder.
        if (command && !kit.server(command)) await applyBranchOption(command);
        await work(...args);
      } catch (error) {
        const known = isKnownError(error);
        const message = error instanceof Error ? error.message : String(error);
        io.stderr(`epicwar: ${known ? message : `internal error: ${message}`}\n`);
        if (!known && io.env["EPICWAR_DEBUG"]) io.stderr(`${(error as Error).stack ?? ""}\n`);
        exitCode =
          error instanceof CliError
            ? error.exitCode
            : error instanceof CorruptEventError
              ? EXIT.broken
              : error instanceof ServerOfflineError
                ? EXIT.offline
                : known
                  ? EXIT.refused
                  : EXIT.internal;
      }
    };
  }

  const program = new Command("epicwar")
    .description(
      "Epic War! campaign engine: every order, move, roll and result is a hash-chained event in a local log.",
    )
    .addHelpText(
      "after",
      "\nExit codes: 0 done; 1 a command was refused or an input is bad (the log is unchanged); 2 the log failed verification; 3 internal error; 4 the server stayed out of reach longer than --offline-timeout.",
    )
    .version(packageVersion(), "-V, --version", "print the version")
    .option(
      "--server <url>",
      "play on a campaign server (state, apply, log, timeline, audit, watch), e.g. http://127.0.0.1:4100; default $EPICWAR_SERVER (docs/remote-play.md)",
    )
    .option(
      "--token <token>",
      "the seat's token on that server; default $EPICWAR_TOKEN, or the one epicwar join kept in the secrets folder",
    )
    .option(
      "--offline-timeout <seconds>",
      "against a server: how long it may stay out of reach (retried meanwhile) before the command gives up with exit code 4; default $EPICWAR_OFFLINE_TIMEOUT, or 300",
    )
    .exitOverride()
    .configureOutput({
      writeOut: io.stdout,
      writeErr: io.stderr,
      outputError: (text, write) => write(`epicwar: ${text.replace(/^error: /, "").trim()} (see --help)\n`),
      getOutHelpWidth: () => io.columns?.stdout ?? 80,
      getErrHelpWidth: () => io.columns?.stderr ?? 80,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    });
  const kit = cliKit(io, action);
  for (const register of COMMANDS) register(program, kit);
  // Every command that opens a local log may find it in PostgreSQL instead of its folder.
  for (const command of program.commands)
    if (command.options.some((option) => option.long === "--db")) command.addOption(kit.storeOption());

  // An unknown command is an error even with --help, which commander would answer with the main help and exit 0.
  const unknown = unknownCommand(
    argv,
    program.commands.flatMap((command) => [command.name(), ...command.aliases()]),
  );
  if (unknown) {
    io.stderr(`epicwar: ${unknown}\n`);
    return EXIT.refused;
  }
  try {
    await program.parseAsync([...argv], { from: "user" });
  } catch (error) {
    // Help, the version and commander's own refusals (an unknown option, a missing argument) were written to io.
    if (error instanceof CommanderError) return error.exitCode;
    throw error;
  }
  return exitCode;
}
