/** The program's own options: none takes a value. */
const PROGRAM_OPTIONS = new Set(["-h", "--help", "-V", "--version"]);

/**
 * Whether a command line names a command the CLI does not have: a sentence naming the known ones, or undefined.
 * Commander shows the main help, and exits 0, for an unknown command given with --help (`epicwar serve --help`), as
 * if help had been asked for: an unknown command is an error with or without --help, and so is `epicwar help serve`.
 * An unknown option before the command is left to commander, which names it.
 */
export function unknownCommand(args: readonly string[], known: readonly string[]): string | undefined {
  const commands = [...known, "help"];
  const at = args.findIndex((arg) => !PROGRAM_OPTIONS.has(arg));
  if (at < 0 || args[at]!.startsWith("-")) return undefined;
  const following = args[at + 1];
  const named = args[at] === "help" && following !== undefined && !following.startsWith("-") ? following : args[at]!;
  if (commands.includes(named)) return undefined;
  return `unknown command '${named}' (the commands are ${commands.join(", ")}; see epicwar --help)`;
}
