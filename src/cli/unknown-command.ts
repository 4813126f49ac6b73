/** The program's own options that take no value... */
const PROGRAM_FLAGS = new Set(["-h", "--help", "-V", "--version"]);
/** ...and those that take one: the next argument, or after "=". */
const PROGRAM_VALUE_OPTIONS = ["--server", "--token"];

/** Where the command's name is among the arguments: after the program's own options and their values. */
function commandAt(args: readonly string[]): number {
  for (let at = 0; at < args.length; at++) {
    const arg = args[at]!;
    if (PROGRAM_FLAGS.has(arg) || PROGRAM_VALUE_OPTIONS.some((option) => arg.startsWith(`${option}=`))) continue;
    if (PROGRAM_VALUE_OPTIONS.includes(arg)) at++;
    else return at;
  }
  return -1;
}

/**
 * Whether a command line names a command the CLI does not have: a sentence naming the known ones, or undefined.
 * Commander shows the main help, and exits 0, for an unknown command given with --help (`epicwar serve --help`), as
 * if help had been asked for: an unknown command is an error with or without --help, and so is `epicwar help serve`.
 * An unknown option before the command is left to commander, which names it.
 */
export function unknownCommand(args: readonly string[], known: readonly string[]): string | undefined {
  const commands = [...known, "help"];
  const at = commandAt(args);
  if (at < 0 || args[at]!.startsWith("-")) return undefined;
  const following = args[at + 1];
  const named = args[at] === "help" && following !== undefined && !following.startsWith("-") ? following : args[at]!;
  if (commands.includes(named)) return undefined;
  return `unknown command '${named}' (the commands are ${commands.join(", ")}; see epicwar --help)`;
}
