import { describeEvent } from "../../words/events.js";
import { Option, type Command } from "commander";
import { linesAsSeen } from "../../../replays/as-seen.js";
import { branchStream, createBranch, lineStream, listBranches, MAIN } from "../../../replays/branches.js";
import { parsePhase, type Position } from "../../../replays/positions.js";
import { ReplayError, Replays } from "../../../replays/replayer.js";
import type { Engine } from "../../engine/engine.js";
import { BranchError } from "../../log/index.js";
import { CliError } from "../errors.js";
import { waitingFor } from "../../words/waiting.js";
import { Seat } from "../seat.js";
import { warnIfBroken } from "./show.js";
import { requireIntact } from "./verify.js";
import { pickCampaign, withEngine } from "../session.js";
import type { CliKit } from "./kit.js";

/** Refusals of the replay and branch layers are the user's input, shown as one line (exit 1). */
export function asCliError(error: unknown): never {
  if (error instanceof BranchError || error instanceof ReplayError) throw new CliError(error.message);
  throw error;
}

/** The campaign a command names (with --campaign, or the only one), even when --campaign names a branch's stream. */
export async function rootCampaign(engine: Engine, db: string, named: string | undefined): Promise<string> {
  const campaign = await pickCampaign(engine, db, named);
  return (await engine.store.branch(campaign))?.root ?? campaign;
}

/** The stream of the line a command acts on: the campaign's own (main) or the branch named. */
export async function pickLine(
  engine: Engine,
  db: string,
  campaign: string | undefined,
  branch: string | undefined,
): Promise<string> {
  const root = await rootCampaign(engine, db, campaign);
  if (branch === undefined) return campaign === undefined ? root : pickCampaign(engine, db, campaign);
  return lineStream(engine.store, root, branch).catch(asCliError);
}

/**
 * Turns `--branch NAME` into the branch's stream for the command about to run, as its --campaign: every command that
 * reads or writes a campaign reads or writes a branch the same way. (`branch` itself reads --branch as the line to
 * fork; `new` makes a campaign's own line, never a branch.)
 */
export async function applyBranchOption(command: Command): Promise<void> {
  const options = command.opts<{ db?: string; store?: string; campaign?: string; branch?: string }>();
  if (options.branch === undefined || command.name() === "branch" || command.name() === "diff") return;
  if (command.name() === "new")
    throw new CliError(
      `new creates a campaign's own line; to try another course, fork it: epicwar branch --from-turn N --name NAME`,
    );
  const db = options.db!;
  const stream = await withEngine({ db, store: options.store }, { createIfMissing: false }, (engine) =>
    pickLine(engine, db, options.campaign, options.branch),
  );
  command.setOptionValue("campaign", stream);
}

/** A position from --turn/--phase or --seq options (both given is an error; neither gives undefined). */
export function positionOf(
  options: { turn?: string; phase?: string; seq?: string },
  names = { turn: "--turn", phase: "--phase", seq: "--seq" },
): Position | undefined {
  if (options.seq !== undefined && (options.turn !== undefined || options.phase !== undefined)) {
    throw new CliError(`give either ${names.turn} (with ${names.phase}) or ${names.seq}, not both`);
  }
  if (options.seq !== undefined) {
    if (!/^(0|[1-9][0-9]{0,11})$/.test(options.seq))
      throw new CliError(`${names.seq} must be an event number (0, 1, 2, ...), not "${options.seq}"`);
    return { seq: Number(options.seq) };
  }
  if (options.phase !== undefined && options.turn === undefined)
    throw new CliError(`${names.phase} needs ${names.turn}`);
  if (options.turn === undefined) return undefined;
  if (!/^[1-9][0-9]{0,8}$/.test(options.turn))
    throw new CliError(`${names.turn} must be a turn number (1, 2, ...), not "${options.turn}"`);
  const phase = options.phase === undefined ? undefined : parsePhase(options.phase);
  if (options.phase !== undefined && phase === undefined)
    throw new CliError(`${names.phase} must be action, battle or end, not "${options.phase}"`);
  return phase === undefined ? { turn: Number(options.turn) } : { turn: Number(options.turn), phase };
}

export interface BranchCliOptions {
  db: string;
  campaign?: string;
  branch?: string;
  name: string;
  fromTurn?: string;
  phase?: string;
  fromSeq?: string;
  secrets?: string;
}

/** `epicwar branch`: forks a line of a campaign (main, or --branch) at a turn and phase or a seq, copying no event. */
export async function runBranch(options: BranchCliOptions, print: (line: string) => void): Promise<void> {
  const from = positionOf(
    { turn: options.fromTurn, phase: options.phase, seq: options.fromSeq },
    { turn: "--from-turn", phase: "--phase", seq: "--from-seq" },
  );
  if (!from) throw new CliError("say where to fork: --from-turn N (with --phase action|battle|end) or --from-seq N");
  await withEngine(options, { createIfMissing: false }, async (engine) => {
    const campaign = await rootCampaign(engine, options.db, options.campaign);
    const parent = await pickLine(engine, options.db, options.campaign, options.branch);
    let stream: string;
    try {
      stream = branchStream(campaign, options.name);
    } catch (error) {
      asCliError(error);
    }
    // A branch inherits its parent's line: forking a broken one would only make another.
    await requireIntact(engine, parent);
    const replays = new Replays(engine.store);
    const seat = new Seat(engine, { db: options.db, ...(options.secrets ? { secrets: options.secrets } : {}) });
    const { meta, forked } = await createBranch(engine, replays, {
      campaign,
      parent,
      from,
      name: options.name,
      secrets: { parent: seat.secrets(parent), branch: seat.secrets(stream) },
    }).catch(asCliError);
    const [info] = (await listBranches(engine.store, replays, campaign)).filter((b) => b.stream === meta.stream);
    print(
      `Branch ${meta.name} of ${campaign} forks ${options.branch ?? MAIN} after event ${meta.forkSeq} (${info?.forkPlace ?? "?"}), hash ${meta.forkHash.slice(0, 16)}; ` +
        `nothing was copied from the log.`,
    );
    // No secret of the parent line reaches the branch: what was open at the fork is void there, made afresh.
    if (forked) print(`Its first event: ${describeEvent(forked)}.`);
    const state = await engine.state(meta.stream);
    print(
      `It waits for ${waitingFor(state)}. Play on it with --branch ${meta.name}; the ${options.branch ?? MAIN} line is left as it is.`,
    );
  });
}

/** `epicwar branches`: the lines of a campaign, with parent and fork point; exit 2 after them when one fails verification. */
export async function runBranches(
  options: { db: string; campaign?: string; json?: boolean },
  print: (line: string) => void,
): Promise<void> {
  await withEngine(options, { createIfMissing: false }, async (engine) => {
    const campaign = await rootCampaign(engine, options.db, options.campaign);
    const lines = await linesAsSeen(engine.store, campaign);
    const { branches } = lines;
    if (options.json) {
      print(JSON.stringify(lines));
    } else {
      const rows = [
        ["line", "parent", "fork", "events", "stream"],
        [MAIN, "-", "-", String(lines.main.head), campaign],
        ...branches.map((b) => [
          b.name,
          b.parent,
          `after #${b.forkSeq} (${b.forkPlace})`,
          `${b.head} (${b.own} own)`,
          b.stream,
        ]),
      ];
      const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
      for (const row of rows)
        print(row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  "));
    }
    for (const stream of [campaign, ...branches.map((branch) => branch.stream)]) await warnIfBroken(engine, stream);
  });
}

/** Registers `branch`: forks a line of a campaign. */
export function registerBranch(program: Command, { action, print, dbOption, campaignOption }: CliKit): void {
  program
    .command("branch")
    .description(
      "make a what-if branch of a campaign at a turn and phase or an event: it copies nothing, and the original line is never changed",
    )
    .addOption(dbOption())
    .addOption(campaignOption())
    .addOption(
      new Option(
        "--branch <name>",
        `the line to fork (default ${MAIN}): a branch of a branch reads its parent's line up to its fork`,
      ),
    )
    .requiredOption("--name <name>", "the new branch's name (letters, digits, _ or -; unique in the campaign)")
    .option("--from-turn <n>", "fork where this turn begins (with --phase: where that phase of it begins)")
    .option("--phase <phase>", "action, battle or end (with --from-turn)")
    .option("--from-seq <n>", "fork right after this event")
    .addOption(
      new Option("--secrets <dir>", "folder of the parties' secrets files; default: <db>-secrets beside the database"),
    )
    .addHelpText(
      "after",
      "\nNo secret of the parent line reaches the branch. A fork where commitments are open (a turn under way, seeds" +
        "\ncommitted, hidden orders) starts the branch with the host's LineForked, naming what is void there: the players" +
        "\nand the host commit to fresh dice seeds for the rest of the turn, and each hidden order is committed again" +
        "\n(RecommitOrder) by its player, who may choose another.",
    )
    .action(action((options: BranchCliOptions) => runBranch(options, print)));
}

/** Registers `branches`: lists a campaign's lines. */
export function registerBranches(program: Command, { action, print, dbOption, campaignOption }: CliKit): void {
  program
    .command("branches")
    .description(`list a campaign's lines: ${MAIN} and its branches, with parent and fork point`)
    .addOption(dbOption())
    .addOption(campaignOption())
    .option("--json", "print them as one JSON object")
    .action(action((options: { db: string; campaign?: string; json?: boolean }) => runBranches(options, print)));
}
