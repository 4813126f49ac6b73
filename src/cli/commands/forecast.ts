import { Option, type Command } from "commander";
import { stateContext } from "../../../replays/as-seen.js";
import type { Engine } from "../../engine/engine.js";
import { compareForecasts, forecast, type ForecastRequest } from "../../forecast/forecast.js";
import { POLICIES, type PolicyName } from "../../forecast/policies.js";
import { renderComparison, renderForecast } from "../../forecast/render.js";
import { ForecastError, forecastStart, type ForecastStart } from "../../forecast/start.js";
import { ownHeldOrders } from "../../views/view.js";
import { CliError } from "../errors.js";
import type { CliIo } from "../io.js";
import { Seat } from "../seat.js";
import { withEngine } from "../session.js";
import { asCliError, pickLine, positionOf } from "./branch.js";
import { addPositionOptions, type CliKit } from "./kit.js";
import { progressBar } from "./progress.js";

export interface ForecastCliOptions {
  db: string;
  campaign?: string;
  secrets?: string;
  as?: string;
  turn?: string;
  phase?: string;
  seq?: string;
  runs: string;
  turns?: string;
  seed: string;
  policy: string;
  workers?: string;
  json?: boolean;
  compare?: string[];
}

function count(value: string | undefined, option: string, least: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]{1,9}$/.test(value) || Number(value) < least)
    throw new CliError(`${option} must be a whole number of at least ${least}, not "${value}"`);
  return Number(value);
}

/** The starting point of one line for the seat: the truth for the organiser or a finished line, else its view. */
async function lineStart(
  engine: Engine,
  seat: Seat,
  stream: string,
  options: ForecastCliOptions,
): Promise<ForecastStart> {
  const position = positionOf(options);
  const context = await stateContext(engine.store, stream, options.as, position).catch(asCliError);
  const finished = (await engine.state(stream)).status === "finished";
  const known = await ownHeldOrders(context.state, options.as, seat.secrets(stream));
  try {
    return forecastStart(context, options.as, finished, known);
  } catch (error) {
    if (error instanceof ForecastError) throw new CliError(error.message);
    throw error;
  }
}

/**
 * `epicwar forecast`: plays a line on from a moment `--runs` times and prints the odds (docs/forecast.md); with
 * `--compare A B`, two lines from the same seed and the difference in their odds. Ctrl-C prints what was played.
 */
export async function runForecast(
  options: ForecastCliOptions,
  io: CliIo,
  print: (line: string) => void,
): Promise<void> {
  if (!(options.policy in POLICIES))
    throw new CliError(`--policy must be one of ${Object.keys(POLICIES).join(", ")}, not "${options.policy}"`);
  if (options.compare !== undefined && options.compare.length !== 2)
    throw new CliError(`--compare takes two lines (branch names or main), not ${options.compare.length}`);
  const runs = count(options.runs, "--runs", 1)!;
  const turns = count(options.turns, "--turns", 1);
  const workers = count(options.workers, "--workers", 0);
  const signal = io.interruption?.() ?? new AbortController().signal;
  const bar = progressBar(io);
  await withEngine(options, { createIfMissing: false }, async (engine) => {
    const seat = new Seat(engine, options);
    const request = (start: ForecastStart, label: string): ForecastRequest => ({
      start,
      runs,
      seed: options.seed,
      policy: options.policy as PolicyName,
      ...(turns !== undefined ? { turns } : {}),
      ...(workers !== undefined ? { workers } : {}),
      signal,
      onProgress: (done, total) => bar(label, done, total),
    });
    if (options.compare) {
      const [a, b] = options.compare as [string, string];
      const starts = [];
      for (const line of [a, b])
        starts.push(await lineStart(engine, seat, await pickLine(engine, options.db, options.campaign, line), options));
      const comparison = await compareForecasts(request(starts[0]!, a), request(starts[1]!, b));
      bar.done();
      if (options.json) print(JSON.stringify(comparison));
      else renderComparison(comparison, a, b).forEach(print);
      return;
    }
    const stream = await seat.campaign();
    const report = await forecast(request(await lineStart(engine, seat, stream, options), stream));
    bar.done();
    if (options.json) print(JSON.stringify(report));
    else renderForecast(report, `Forecast of ${stream}`).forEach(print);
  });
}

/** Registers `forecast`: the odds of a line played on from a moment, by Monte Carlo simulation. */
export function registerForecast(program: Command, kit: CliKit): void {
  const { action, print, io } = kit;
  const command = program
    .command("forecast")
    .description(
      "play the campaign on from a moment many times (battles by a model) and print each side's chance to win and to draw, when it ends, the CVPs by turn and the objectives that change hands most",
    )
    .addOption(kit.dbOption())
    .addOption(kit.campaignOption())
    .addOption(kit.branchOption())
    .addOption(
      new Option(
        "--as <party>",
        "forecast from what this player may see: hidden values are drawn, never read (host: the whole truth)",
      ),
    )
    .addOption(kit.secretsOption())
    .option("--runs <n>", "simulated campaigns", "10000")
    .option("--turns <k>", "play this many turns on (the one under way counts), not to the end")
    .option("--seed <text>", "the simulation's random seed: the same seed gives the same report", "1")
    .addOption(
      new Option("--policy <name>", "where both sides' orders come from")
        .choices(Object.keys(POLICIES))
        .default("scripted"),
    )
    .option("--workers <n>", "worker threads (0: this thread); default one a core")
    .option("--json", "print the report as one JSON object")
    .option("--compare <lines...>", "two lines (branch names or main) from the same seed, and the difference in odds");
  addPositionOptions(command, "forecast").action(
    action((options: ForecastCliOptions) => runForecast(options, io, print)),
  );
}
