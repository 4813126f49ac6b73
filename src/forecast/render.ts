import type { Comparison, ForecastReport } from "./forecast.js";
import type { Difference, Share } from "./report.js";

const percent = (x: number) => `${(100 * x).toFixed(1)}%`;
const share = (s: Share) => `${percent(s.share).padStart(6)}  [${percent(s.low)}, ${percent(s.high)}]`;
const signed = (x: number) => `${x >= 0 ? "+" : ""}${(100 * x).toFixed(1)}`;
const difference = (d: Difference) => `${signed(d.difference)} points  [${signed(d.low)}, ${signed(d.high)}]`;

/** Objectives listed in a report, at most. */
const TOP_OBJECTIVES = 5;

function objectiveName(report: ForecastReport, key: string): string {
  if (!key.startsWith("home:")) return key;
  const player = key.slice("home:".length);
  return `home base of ${report.players.find((p) => p.id === player)?.name ?? player}`;
}

/** The forecast in words: the odds, when it ends, the CVPs by turn and the objectives that change hands most. */
export function renderForecast(report: ForecastReport, title: string): string[] {
  const lines = [
    `${title}, ${report.seat === null ? "from the whole truth" : `as ${report.seat} sees it`}, from turn ${report.from.turn}${report.from.phase ? `, ${report.from.phase} phase` : ""} (after event ${report.from.seq})`,
    `${report.runs} run${report.runs === 1 ? "" : "s"}${report.stopped ? ` of ${report.runsAsked} (stopped)` : ""}, seed "${report.seed}", ${report.policy} orders; battles by ${report.battles}; ${report.interval}s.`,
    "",
  ];
  const width = Math.max(...report.players.map((p) => `${p.name} win`.length), "undecided by turn 999".length);
  for (const player of report.players)
    lines.push(`  ${`${player.name} win`.padEnd(width)}  ${share(report.win[player.id]!)}`);
  lines.push(`  ${"draw".padEnd(width)}  ${share(report.draw)}`);
  lines.push(`  ${`undecided by turn ${report.lastTurn}`.padEnd(width)}  ${share(report.undecided)}`);
  const ends = Object.entries(report.endTurns).sort(([a], [b]) => Number(a) - Number(b));
  lines.push("", "Ends in turn:");
  lines.push(
    ends.length === 0
      ? "  (no run ended)"
      : `  ${ends.map(([turn, count]) => `${turn}: ${percent(count / Math.max(report.runs, 1))}`).join("  ")}`,
  );
  lines.push("", "CVPs at the end of each turn (median [10th-90th percentile], over the runs still going):");
  lines.push(`  turn  runs   ${report.players.map((p) => p.id.padEnd(18)).join(" ")}`.trimEnd());
  for (const { turn, players } of report.cvps) {
    const cells = report.players.map((p) => {
      const s = players[p.id]!;
      return `${s.median} [${s.p10}-${s.p90}]`.padEnd(18);
    });
    lines.push(
      `  ${String(turn).padStart(4)}  ${String(players[report.players[0]!.id]!.runs).padStart(5)}  ${cells.join(" ")}`.trimEnd(),
    );
  }
  lines.push("", "Objectives that change hands most (captures a run; share of runs with one):");
  if (report.objectives.length === 0) lines.push("  (none changed hands)");
  const shown = report.objectives.slice(0, TOP_OBJECTIVES);
  const nameWidth = Math.max(0, ...shown.map((o) => objectiveName(report, o.objective).length));
  for (const o of shown)
    lines.push(
      `  ${objectiveName(report, o.objective).padEnd(nameWidth)}  ${o.perRun.toFixed(2)}  ${share(o.runsCaptured)}`,
    );
  return lines;
}

/** Two lines' forecasts and the difference in their odds (A less B), in words. */
export function renderComparison(comparison: Comparison, a: string, b: string): string[] {
  const { players } = comparison.a;
  const lines = [
    ...renderForecast(comparison.a, `Forecast of ${a}`),
    "",
    ...renderForecast(comparison.b, `Forecast of ${b}`),
    "",
    `${a} less ${b}, run for run from the same seed (mean of paired differences, normal 95% interval):`,
  ];
  for (const player of players)
    lines.push(`  ${`${player.name} win`.padEnd(20)} ${difference(comparison.differences.win[player.id]!)}`);
  lines.push(`  ${"draw".padEnd(20)} ${difference(comparison.differences.draw)}`);
  return lines;
}
