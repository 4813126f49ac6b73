/**
 * The epicwar CLI as a function: `run(argv, io)` parses the arguments after the program's name, runs the command with
 * the streams, environment and clock in `io`, and returns the exit code (0 done; 1 refused or bad input; 2 the log
 * failed verification; 3 internal error). It never exits the process nor touches its streams: main.ts is the bin's
 * stub over it, and tests run it in-process. A run builds its own program (commander keeps state between parses) and
 * opens every database it reads for itself only, closing it before it returns.
 */
import { Command, CommanderError, Option } from "commander";
import { CorruptEventError } from "../log/index.js";
import { loadSetupFile } from "../setup-loader.js";
import { applyCommands, printEvents, readInput, startsWithCreate } from "./commands/apply.js";
import { registerAudit } from "./commands/audit.js";
import { applyBranchOption, branchOption, positionOf, registerBranchCommands } from "./commands/branch.js";
import { DIFF_HELP, runDiff } from "./commands/diff.js";
import { showStateAt } from "./commands/replay.js";
import { runTimeline } from "./commands/timeline.js";
import { viewAsOption } from "./commands/viewer.js";
import { ADVANCED_DEMO, BASIC_DEMO, DEMO_DB, runDemo } from "./commands/demo.js";
import { createCampaign } from "./commands/new.js";
import { showLog, showRawLog, showState, warnIfBroken } from "./commands/show.js";
import { verifyCampaigns } from "./commands/verify.js";
import { CliError, EXIT, isKnownError } from "./errors.js";
import { packageVersion } from "./paths.js";
import { defaultDb, type CliIo } from "./io.js";
import { Seat } from "./seat.js";
import { ORDER_SPELLINGS } from "../client/prepare.js";
import { unknownCommand } from "./unknown-command.js";
import { pickCampaign, withEngine } from "./session.js";

/** Runs the CLI on these arguments (process.argv without node and the script) and returns the exit code. */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode = 0;
  const print = (line: string) => io.stdout(`${line}\n`);

  /** Runs a command's action and turns any failure into one line on stderr and an exit code. */
  function action<A extends unknown[]>(work: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
    return async (...args: A) => {
      try {
        const command = args.find((arg): arg is Command => arg instanceof Command);
        if (command) await applyBranchOption(command);
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
              : known
                ? EXIT.refused
                : EXIT.internal;
      }
    };
  }

  const dbOption = () =>
    new Option("--db <dir>", "folder of the campaign database (embedded LevelDB)").default(defaultDb(io.env));
  const campaignOption = () => new Option("--campaign <id>", "which campaign, where the folder holds several");

  const program = new Command("epicwar")
    .description(
      "Epic War! campaign engine: every order, move, roll and result is a hash-chained event in a local log.",
    )
    .addHelpText(
      "after",
      "\nExit codes: 0 done; 1 a command was refused or an input is bad (the log is unchanged); 2 the log failed verification; 3 internal error.",
    )
    .version(packageVersion(), "-V, --version", "print the version")
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

  const secretsOption = () =>
    new Option(
      "--secrets <dir>",
      "folder of the parties' secrets files (hidden orders, dice seeds); default: <db>-secrets beside the database",
    );
  const asOption = () =>
    new Option(
      "--as <party>",
      "act (and see) only as this player, or as the host; default: every party, as at one shared machine",
    );
  const choresOption = () =>
    new Option(
      "--no-chores",
      "do not take protocol steps automatically (seeds, initiative, reveals, starting and ending turns)",
    );

  type SeatCliOptions = { db: string; campaign?: string; secrets?: string; as?: string; chores?: boolean };

  program
    .command("new")
    .description(
      "create a campaign from a set-up file (map, players, M and N, catalogue, armies, objectives, deployment)",
    )
    .addOption(dbOption())
    .requiredOption("--setup <file>", "the set-up file (JSON, see docs/setup-file.md)")
    .addOption(branchOption().hideHelp())
    .addOption(secretsOption())
    .addOption(asOption())
    .addOption(choresOption())
    .action(
      action(async (options: SeatCliOptions & { setup: string }) => {
        const setup = await loadSetupFile(options.setup);
        await withEngine(options.db, { clock: io.clock }, async (engine) => {
          const { campaign, lines } = await createCampaign(engine, options.setup, setup);
          lines.forEach(print);
          const table = await new Seat(engine, options).table(campaign);
          await table.takeChores(printEvents(print, options.as, await engine.state(campaign)));
          const head = await engine.store.head(campaign);
          print(`The log holds ${head.seq} events; head ${head.hash.slice(0, 16)}.`);
        });
      }),
    );

  program
    .command("apply")
    .description(
      'apply commands from a JSON Lines file (- for stdin), one command per line with "actor" and "type"; stops at the first refused line',
    )
    .argument("<file>", "JSON Lines file of commands, or - for standard input")
    .addOption(dbOption())
    .addOption(campaignOption())
    .addOption(branchOption())
    .addOption(secretsOption())
    .addOption(asOption())
    .addOption(choresOption())
    .addHelpText(
      "after",
      '\nAn order is written in the clear and kept secret by this machine: {"actor":"red","type":"ActivateArmy","army":"r1","order":"advance","path":[[1,1],[1,2]]}' +
        "\nlogs only a commitment; the order and its salt go to red's secrets file and are revealed from there (docs/secrets.md)." +
        `\nAn order is one of ${ORDER_SPELLINGS.join(", ")}, spelt exactly so; a salt, if given, is 32 to 128 lower-case hex characters.` +
        "\nA secret is on disk before the command that commits to it is logged: a crash never loses an order that was logged.",
    )
    .action(
      action(async (file: string, options: SeatCliOptions) => {
        const text = await readInput(file, io.stdin);
        await withEngine(options.db, { createIfMissing: startsWithCreate(text), clock: io.clock }, (engine) =>
          applyCommands(new Seat(engine, options), file, text, print),
        );
      }),
    );

  program
    .command("state")
    .description(
      "show the campaign now (or where a turn or phase began: --turn, --phase; after an event: --seq): map, armies, objectives, CVP target and awards",
    )
    .addOption(dbOption())
    .addOption(campaignOption())
    .option("--json", "print the projected state as JSON")
    .addOption(new Option("--as <player>", "show what this player may see, with its own hidden orders"))
    .addOption(secretsOption())
    .addOption(branchOption())
    .option("--turn <n>", "the state where this turn begins (its Action phase), not now")
    .option("--phase <phase>", "with --turn: where this phase of the turn begins: action, battle or end")
    .option("--seq <n>", "the state right after this event, not now (0: before the first)")
    .action(
      action(async (options: SeatCliOptions & { json?: boolean; turn?: string; phase?: string; seq?: string }) => {
        const position = positionOf(options);
        await withEngine(options.db, { createIfMissing: false }, async (engine) => {
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
    .addHelpText(
      "after",
      "\nA reference verifier of a --raw log, in Python with the standard library only: tools/verify_log.py (docs/storage.md).",
    )
    .action(
      action(async (options: { db: string; campaign?: string; json?: boolean; raw?: boolean; as?: string }) => {
        await withEngine(options.db, { createIfMissing: false }, async (engine) => {
          const campaign = await pickCampaign(engine, options.db, options.campaign);
          if (options.raw) await showRawLog(engine.store, campaign, print);
          else await showLog(engine, campaign, options.json ?? false, print, options.as);
          await warnIfBroken(engine, campaign);
        });
      }),
    );

  program
    .command("verify")
    .description(
      "check the hash chain of a campaign (all campaigns and branches in the folder by default); exit 2 naming the first bad seq",
    )
    .addOption(dbOption())
    .addOption(campaignOption())
    .addOption(branchOption())
    .action(
      action(async (options: { db: string; campaign?: string }) => {
        await withEngine(options.db, { createIfMissing: false }, async (engine) => {
          const campaigns = options.campaign
            ? [await pickCampaign(engine, options.db, options.campaign)]
            : [...(await engine.listCampaigns()), ...(await engine.listBranches()).map((branch) => branch.stream)];
          if (campaigns.length === 0) throw new CliError(`no campaign in ${options.db}`);
          await verifyCampaigns(engine, campaigns, print);
        });
      }),
    );

  program
    .command("demo")
    .description("set up the bundled example campaign in a local folder and tell what happened")
    .addOption(new Option("--db <dir>", "folder for the demo's database").default(DEMO_DB))
    .option("--advanced", "play the second example campaign, Emberfall, with every advanced rule (A1-A8) on")
    .addOption(viewAsOption())
    .action(
      action(async (options: { db: string; advanced?: boolean; as?: string }) => {
        await withEngine(options.db, { clock: io.clock }, (engine) =>
          runDemo(engine, options.db, print, options.advanced ? ADVANCED_DEMO : BASIC_DEMO, options.as),
        );
      }),
    );

  registerAudit(program, action, print, dbOption, campaignOption);
  program.commands.find((command) => command.name() === "audit")?.addOption(branchOption());

  registerBranchCommands(program, action, print, dbOption, campaignOption);

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

  program
    .command("timeline")
    .description('the campaign in players\' words, one line per event: "Turn 3 Action: c4 moves (4,2)->(4,4)"')
    .addOption(dbOption())
    .addOption(campaignOption())
    .addOption(branchOption())
    .option("--from-turn <n>", "start where this turn begins")
    .option("--json", "one JSON object per event (JSON Lines): seq, turn, phase, label, type, actor, at, text")
    .addOption(viewAsOption())
    .action(
      action((options: { db: string; campaign?: string; fromTurn?: string; json?: boolean; as?: string }) =>
        runTimeline(options, print),
      ),
    );

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
