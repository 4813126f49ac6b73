import { Option, type Command } from "commander";
import { MAIN } from "../../../replays/branches.js";
import { defaultDb, type CliIo } from "../io.js";
import { serverRequested, type ServerRequest } from "../remote.js";

/** Wraps a command's work so that any failure becomes one line on stderr and an exit code (run.ts's `action`). */
export type Wrap = <A extends unknown[]>(work: (...args: A) => Promise<void>) => (...args: A) => Promise<void>;

/** What every command's registration shares: the action wrapper, the printer, the option builders and the io. */
export interface CliKit {
  action: Wrap;
  /** Writes one line to stdout. */
  print: (line: string) => void;
  io: CliIo;
  dbOption: () => Option;
  /** `--store URL`: the log in PostgreSQL instead of the folder; every command with --db has it (run.ts). */
  storeOption: () => Option;
  campaignOption: () => Option;
  secretsOption: () => Option;
  asOption: () => Option;
  choresOption: () => Option;
  branchOption: () => Option;
  /** The server this run of the command plays against (--server, $EPICWAR_SERVER), or undefined for a local database. */
  server: (command: Command) => ServerRequest | undefined;
}

/** The options of a command played at a seat (new, apply, state). */
export type SeatCliOptions = { db: string; campaign?: string; secrets?: string; as?: string; chores?: boolean };

/** `--branch NAME`: which line of the campaign a command acts on. */
export const branchOption = () =>
  new Option("--branch <name>", `act on this branch of the campaign (its own line is "${MAIN}"); see epicwar branches`);

/** The kit of a run of the CLI on these streams, environment and clock, with this action wrapper. */
export function cliKit(io: CliIo, action: Wrap): CliKit {
  return {
    action,
    print: (line: string) => io.stdout(`${line}\n`),
    io,
    dbOption: () =>
      new Option("--db <dir>", "folder of the campaign database (embedded LevelDB)").default(defaultDb(io.env)),
    storeOption: () => {
      const option = new Option(
        "--store <url>",
        "the event log in PostgreSQL (postgres://user@host:port/database) instead of the folder --db, which then holds only the secrets and the server's data beside it; default $EPICWAR_STORE",
      );
      const fromEnv = io.env["EPICWAR_STORE"];
      return fromEnv ? option.default(fromEnv) : option;
    },
    campaignOption: () => new Option("--campaign <id>", "which campaign, where the folder holds several"),
    secretsOption: () =>
      new Option(
        "--secrets <dir>",
        "folder of the parties' secrets files (hidden orders, dice seeds); default: <db>-secrets beside the database, or ~/.epicwar/servers/<host>_<port> when playing on a server",
      ),
    asOption: () =>
      new Option(
        "--as <party>",
        "act (and see) only as this player, or as the host; default: every party, as at one shared machine",
      ),
    choresOption: () =>
      new Option(
        "--no-chores",
        "do not take protocol steps automatically (seeds, initiative, reveals, starting and ending turns)",
      ),
    branchOption,
    server: (command) => serverRequested(command, io),
  };
}

/** `--turn N [--phase P] | --seq N`: the point of the log at which a command shows `what` (positionOf reads them). */
export function addPositionOptions(command: Command, what: string): Command {
  return command
    .option("--turn <n>", `${what} where this turn begins (its Action phase), not now`)
    .option("--phase <phase>", "with --turn: where this phase of the turn begins: action, battle or end")
    .option("--seq <n>", `${what} right after this event, not now (0: before the first)`);
}
