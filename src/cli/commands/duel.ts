import { performance } from "node:perf_hooks";
import type { Command } from "commander";
import { COMPUTER_LEVELS, type ComputerLevel } from "../../computer/decide.js";
import { duel, type DuelReport } from "../../computer/duel.js";
import { MAX_THINK_MS } from "../../computer/settings.js";
import { DUEL_SEARCH_ROUNDS, MAX_SEARCH_ROUNDS, type SearchBudget } from "../../computer/search.js";
import { MAX_FORECAST_TURNS } from "../../forecast/forecast.js";
import { loadSetupFile } from "../../setup/setup-loader.js";
import { CliError } from "../errors.js";
import type { CliKit } from "./kit.js";
import { withBattles } from "./new.js";

const percent = (share: number) => `${(100 * share).toFixed(1)}%`;

function levelsOf(text: string): [ComputerLevel, ComputerLevel] {
  const levels = text.split(",");
  if (levels.length !== 2 || !levels.every((level) => (COMPUTER_LEVELS as readonly string[]).includes(level)))
    throw new CliError(
      `--levels takes two levels with a comma between, each one of ${COMPUTER_LEVELS.join(", ")}: "${text}" is not`,
    );
  return levels as [ComputerLevel, ComputerLevel];
}

function wholeNumber(text: string, option: string, low: number, high: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < low || value > high)
    throw new CliError(`${option} takes a whole number from ${low} to ${high}: "${text}" is not`);
  return value;
}

/** The duel's report in words: each level's wins with its interval, the draws, and the time each took to decide. */
export function renderDuel(report: DuelReport, setupName: string, budget: SearchBudget, modelled: boolean): string[] {
  const thinking =
    budget.milliseconds === Number.POSITIVE_INFINITY
      ? `${budget.rounds} rounds`
      : `at most ${budget.rounds} rounds or ${budget.milliseconds} ms`;
  const lines = [
    `Duel on ${setupName}: ${report.campaigns} campaigns, sides swapped every other one; battles by the forecast's battle model (${modelled ? "the host resolving each" : "the attacker reporting each"}); searching thinks ${thinking} a decision; 95% Wilson score intervals.`,
    "",
  ];
  for (const level of report.levels)
    lines.push(
      `  ${level.level.padEnd(10)} wins ${String(level.wins).padStart(4)}  ${percent(level.winRate.share).padStart(6)}  [${percent(level.winRate.low)}, ${percent(level.winRate.high)}]   ${level.decisions} decisions, ${level.meanDecision.toFixed(1)} ms each on average, ${level.longestDecision.toFixed(0)} ms at most`,
    );
  lines.push(
    `  draws      ${String(report.draws).padStart(4)}`,
    `  undecided  ${String(report.undecided).padStart(4)}`,
  );
  return lines;
}

/** Registers `duel`: the computer against itself, one level against another, over many campaigns of one set-up. */
export function registerDuel(program: Command, kit: CliKit): void {
  const { action, print, io } = kit;
  program
    .command("duel")
    .description(
      "the computer against itself: one level against another over many campaigns, with win rates (docs/computer.md)",
    )
    .requiredOption("--setup <file>", "the set-up file the campaigns are made from")
    .option("--levels <a,b>", `the two levels (of ${COMPUTER_LEVELS.join(", ")})`, "scripted,searching")
    .option("--campaigns <n>", "how many campaigns", "20")
    .option("--first <n>", "the first campaign's number (a duel run in parts numbers each part on)", "0")
    .option(
      "--rounds <n>",
      "the searching level's rounds of forecasts per decision (the same rounds give the same duel)",
      String(DUEL_SEARCH_ROUNDS),
    )
    .option("--think <ms>", "the searching level's thinking time per decision at most, in milliseconds")
    .option("--turns <n>", "turns a campaign plays at most before it counts as undecided", String(MAX_FORECAST_TURNS))
    .option(
      "--battles <how>",
      "how battles are resolved (B4): table (the attacker reports the battle model's result, the defender confirms it; the set-up's own, by default) or model (the host resolves each by the battle model, no side reporting)",
    )
    .option("--json", "print the report as JSON")
    .action(
      action(
        async (options: {
          setup: string;
          levels: string;
          campaigns: string;
          first: string;
          rounds: string;
          think?: string;
          turns: string;
          battles?: string;
          json?: boolean;
        }) => {
          const levels = levelsOf(options.levels);
          const campaigns = wholeNumber(options.campaigns, "--campaigns", 1, 100_000);
          const first = wholeNumber(options.first, "--first", 0, 1_000_000);
          const rounds = wholeNumber(options.rounds, "--rounds", 1, MAX_SEARCH_ROUNDS);
          const budget: SearchBudget = {
            rounds,
            milliseconds:
              options.think === undefined
                ? Number.POSITIVE_INFINITY
                : wholeNumber(options.think, "--think", 1, MAX_THINK_MS),
            now: () => performance.now(),
          };
          const maxTurns = wholeNumber(options.turns, "--turns", 1, 1000);
          const setup = withBattles(await loadSetupFile(options.setup), options.battles);
          const report = await duel({
            setup,
            levels,
            campaigns,
            first,
            maxTurns,
            budget,
            onCampaign: (record) =>
              io.stderr(`campaign ${record.number}: ${record.outcome ?? "undecided"} (turn ${record.turn})\n`),
          });
          if (options.json) print(JSON.stringify(report));
          else renderDuel(report, setup.name, budget, setup.options?.battles === "model").forEach(print);
        },
      ),
    );
}
