import { readFile } from "node:fs/promises";
import type { StoredEvent } from "../../../events/index.js";
import type { CampaignState } from "../../../projections/state.js";
import { ChoreRefusedError, Table, type WrittenEvents } from "../../client/table.js";
import { ORDER_SPELLINGS, PrepareError } from "../../client/prepare.js";
import { SecretsError } from "../../client/secrets.js";
import type { Answer, Outcome } from "../../engine/engine.js";
import type { SeatEvent } from "../../client/remote.js";
import { describeRefusal } from "../../rules/refusal.js";
import { viewedContent, type CampaignView, type Viewer } from "../../views/view.js";
import { eventFeed, feedLine } from "../../words/events.js";
import { seatViewer } from "./show.js";
import { CliError } from "../errors.js";
import { withoutBom } from "../../setup/setup-loader.js";
import { Seat } from "../seat.js";
import type { CliIo } from "../io.js";
import type { Command } from "commander";
import { withEngine } from "../session.js";
import type { CliKit, SeatCliOptions } from "./kit.js";
import { refuseLocalOnly } from "./remote.js";
import { computerAfterCommand } from "./computer.js";
import { RemoteSeat, type RemoteSeatOptions, type ServerRequest } from "../remote.js";

/** The text of a commands file, or of standard input (`stdin`: a stream, or its whole text) for "-". */
export async function readInput(file: string, stdin: CliIo["stdin"]): Promise<string> {
  if (file === "-") {
    if (typeof stdin === "string") return withoutBom(stdin);
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk);
    return withoutBom(Buffer.concat(chunks).toString("utf8"));
  }
  try {
    return withoutBom(await readFile(file, "utf8"));
  } catch (error) {
    throw new CliError(
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`,
    );
  }
}

/** Prints each event written, as the viewer may see it (no viewer: as stored); `start` is the state before them. */
export const printEvents = (
  print: (line: string) => void,
  viewer?: Viewer,
  start?: CampaignState,
): ((events: StoredEvent[]) => void) => eventFeed(print, viewer, start);

/** Where apply plays: a Seat at a local database, or a RemoteSeat at a campaign on a server. */
export interface PlayingSeat<S extends CampaignView, O extends Answer<unknown>> {
  /** The parties this machine acts for, or undefined for every party of the campaign. */
  readonly acting: ReadonlySet<string> | undefined;
  /** The table of the campaign (the one the seat plays unless named: a CreateCampaign's). */
  table(named?: string): Promise<Table<S, O>>;
  /** The seat the computer plays, once the table is made, if it plays one: the human's lines never act for it. */
  computerSeat?: () => string | undefined;
  /** Prints each event written, from the state `start` on, as the seat's viewer may see it. */
  feed(print: (line: string) => void, start: S): (events: WrittenEvents<O>) => void;
}

/** A seat at a local database, playing through the Engine. */
function localSeat(seat: Seat): PlayingSeat<CampaignState, Outcome> {
  return {
    acting: seat.acting,
    table: (named) => seat.table(named),
    computerSeat: () => seat.computerSeat,
    feed: (print, start) => printEvents(print, seatViewer(seat), start),
  };
}

/** Prints each event a server reports written: it comes already as the seat may see it. */
export const printSeatEvents =
  (print: (line: string) => void) =>
  (events: readonly SeatEvent[]): void =>
    events.forEach((event) => print(feedLine(viewedContent(event))));

/**
 * Applies commands given as JSON Lines, each prepared by this machine's parties, decided and written on its own, in
 * order. Stops at the first line that is not valid JSON or is refused: the lines before it stay applied, that line
 * and those after it are not. A line applied whose following step fails (a chore refused, a secret not kept) stays
 * applied, and the message says so. The chores due before the first line are taken first (see catchUp).
 */
export function applyCommands<S extends CampaignView, O extends Answer<unknown>>(
  seat: Seat | PlayingSeat<S, O>,
  file: string,
  text: string,
  print: (line: string) => void,
): Promise<void> {
  return "feed" in seat ? applyLines(seat, file, text, print) : applyLines(localSeat(seat), file, text, print);
}

async function applyLines<S extends CampaignView, O extends Answer<unknown>>(
  seat: PlayingSeat<S, O>,
  file: string,
  text: string,
  print: (line: string) => void,
): Promise<void> {
  const lines = text.split(/\r?\n/);
  let table: Table<S, O> | undefined;
  let feed: ((events: WrittenEvents<O>) => void) | undefined;
  for (const [index, text] of lines.entries()) {
    if (text.trim() === "") continue;
    const where = `${file === "-" ? "stdin" : file}:${index + 1}`;
    const stop = (reason: string) => new CliError(`${where}: ${reason}; nothing from this line on was applied`);
    let command: unknown;
    try {
      command = JSON.parse(text);
    } catch (error) {
      throw stop(`not valid JSON (${(error as Error).message})`);
    }
    const actor = (command as { actor?: unknown } | null)?.actor;
    if (seat.acting && typeof actor === "string" && !seat.acting.has(actor)) {
      throw stop(`this machine acts as ${[...seat.acting].join(", ")}, and this line is ${actor}'s`);
    }
    const creates = (command as { type?: unknown } | null)?.type === "CreateCampaign";
    if (!table) {
      table = await seat.table(creates ? String((command as { campaign?: unknown }).campaign) : undefined);
      feed = seat.feed(print, await table.state());
      if (!creates) await catchUp(table, feed, true);
    }
    if (actor !== undefined && actor === seat.computerSeat?.())
      throw stop(`${actor} is played by the computer in this campaign: its steps are its own (docs/computer.md)`);
    const before = (await table.state()).seq;
    let outcome: Answer<unknown>;
    try {
      outcome = await table.submit(command, feed);
    } catch (error) {
      // The line may have been applied before the failure (a chore after it refused, a secret after it not kept).
      const after = (await table.state()).seq;
      const message = error instanceof Error ? error.message : String(error);
      if (after > before) {
        const written = after === before + 1 ? `event #${after} is` : `events #${before + 1}-#${after} are`;
        throw new CliError(
          `${where}: this line was applied (${written} in the log), but the step after it failed: ${message}; no line after it was applied`,
        );
      }
      if (error instanceof PrepareError || error instanceof ChoreRefusedError || error instanceof SecretsError)
        throw stop(message);
      throw error;
    }
    if (!outcome.ok) throw stop(`refused: ${describeRefusal(outcome.refusal)}`);
  }
  if (!table) {
    const only = await seat.table();
    await catchUp(only, seat.feed(print, await only.state()), false);
  }
}

/**
 * Takes the chores already due before any line: a run that was stopped (a crash, a kill) may have left a turn
 * unstarted or a reveal unmade, which the next line would otherwise be refused for. Input with no line does only this,
 * and reports a chore that fails; before a line, a failing chore is left for the line (which may be what gets past it,
 * a ClaimStall say), and the same chore is tried again after it.
 */
async function catchUp<S extends CampaignView, O extends Answer<unknown>>(
  table: Table<S, O>,
  feed: (events: WrittenEvents<O>) => void,
  linesFollow: boolean,
): Promise<void> {
  try {
    await table.takeChores(feed);
  } catch (error) {
    if (!(error instanceof PrepareError || error instanceof ChoreRefusedError || error instanceof SecretsError))
      throw error;
    if (!linesFollow) throw new CliError(`a step that was due could not be taken: ${error.message}`);
  }
}

/** `apply` against a server: the lines prepared here from the seat's secrets, each sent on its own. */
export async function remoteApply(
  request: ServerRequest,
  file: string,
  options: RemoteSeatOptions,
  io: CliIo,
  print: (line: string) => void,
): Promise<void> {
  refuseLocalOnly(options, {
    branch:
      "--branch plays a line of a local folder; a server takes commands for the campaign's own line, so --branch does not work",
  });
  const text = await readInput(file, io.stdin);
  const seat = await RemoteSeat.open(request, options, io.env);
  await applyCommands(
    { acting: seat.acting, table: (named) => seat.table(named), feed: (print) => printSeatEvents(print) },
    file,
    text,
    print,
  );
}

/** Whether a command file starts by creating a campaign: only then may apply create the database folder. */
export function startsWithCreate(text: string): boolean {
  const first = text.split(/\r?\n/).find((line) => line.trim() !== "");
  try {
    return (JSON.parse(first ?? "null") as { type?: unknown } | null)?.type === "CreateCampaign";
  } catch {
    return false;
  }
}

/** Registers `apply`: applies commands from a JSON Lines file, stopping at the first refused line. */
export function registerApply(program: Command, kit: CliKit): void {
  const { action, print, io } = kit;
  program
    .command("apply")
    .description(
      'apply commands from a JSON Lines file (- for stdin), one command per line with "actor" and "type"; stops at the first refused line',
    )
    .argument("<file>", "JSON Lines file of commands, or - for standard input")
    .addOption(kit.dbOption())
    .addOption(kit.campaignOption())
    .addOption(kit.branchOption())
    .addOption(kit.secretsOption())
    .addOption(kit.asOption())
    .addOption(kit.choresOption())
    .addHelpText(
      "after",
      '\nAn order is written in the clear and kept secret by this machine: {"actor":"red","type":"ActivateArmy","army":"r1","order":"advance","path":[[1,1],[1,2]]}' +
        "\nlogs only a commitment; the order and its salt go to red's secrets file and are revealed from there (docs/secrets.md)." +
        `\nAn order is one of ${ORDER_SPELLINGS.join(", ")}, spelt exactly so; a salt, if given, is 32 to 128 lower-case hex characters.` +
        "\nA secret is on disk before the command that commits to it is logged: a crash never loses an order that was logged.",
    )
    .action(
      action(async (file: string, options: SeatCliOptions & { branch?: string }, command: Command) => {
        const remote = kit.server(command);
        if (remote) return remoteApply(remote, file, options, io, print);
        const text = await readInput(file, io.stdin);
        await withEngine(options, { createIfMissing: startsWithCreate(text), clock: io.clock }, async (engine) => {
          const seat = new Seat(engine, options);
          await applyCommands(seat, file, text, print);
          // Against the computer, its steps follow the human's (docs/computer.md).
          if (options.chores !== false && !startsWithCreate(text))
            await computerAfterCommand(seat, options.db, await seat.campaign(), print);
        });
      }),
    );
}
