import type { RunRecord } from "./simulate.js";

/** z for a two-sided 95% interval. */
const Z95 = 1.959964;

/** A share with its 95% Wilson score interval (docs/forecast.md). */
export interface Share {
  share: number;
  low: number;
  high: number;
}

/** The Wilson score interval of `hits` out of `n`: sound near 0 and 1 and for few runs, unlike the normal one. */
export function wilson(hits: number, n: number): Share {
  if (n === 0) return { share: 0, low: 0, high: 1 };
  const p = hits / n;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { share: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

export interface CvpSpread {
  /** Runs still going at the end of that turn, whose CVPs these are. */
  runs: number;
  mean: number;
  p10: number;
  median: number;
  p90: number;
}

export interface ForecastOdds {
  /** Runs played (fewer than asked when stopped part-way). */
  runs: number;
  /** Each player's chance to win, by id. */
  win: Record<string, Share>;
  draw: Share;
  /** Runs that had not ended when the simulation stopped (--turns, or the cap). */
  undecided: Share;
  /** How many runs ended in each turn. */
  endTurns: Record<string, number>;
  /** How many runs ended in each turn with each outcome (a player's id for its win, or "draw"): the odds by turn. */
  endings: Record<string, Record<string, number>>;
  /** Each player's CVPs at the end of each turn, over the runs still going then. */
  cvps: Array<{ turn: number; players: Record<string, CvpSpread> }>;
  /** Objectives and home bases by how often they changed hands, most first. */
  objectives: Array<{ objective: string; captures: number; perRun: number; runsCaptured: Share }>;
  /** Campaign turns simulated in all. */
  turnsSimulated: number;
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** The odds over a set of runs (any order: they are taken by run number). */
export function oddsOf(records: readonly RunRecord[], players: readonly string[]): ForecastOdds {
  const runs = [...records].sort((a, b) => a.run - b.run);
  const n = runs.length;
  const count = (test: (r: RunRecord) => boolean) => runs.filter(test).length;
  const endTurns: Record<string, number> = {};
  const endings: Record<string, Record<string, number>> = {};
  for (const r of runs) {
    if (r.endTurn === null) continue;
    endTurns[r.endTurn] = (endTurns[r.endTurn] ?? 0) + 1;
    const ended = (endings[r.endTurn] ??= {});
    ended[r.outcome!] = (ended[r.outcome!] ?? 0) + 1;
  }
  const turns = [...new Set(runs.flatMap((r) => Object.keys(r.cvps).map(Number)))].sort((a, b) => a - b);
  const cvps = turns.map((turn) => {
    const going = runs.filter((r) => r.cvps[turn] !== undefined);
    const spread = (player: string): CvpSpread => {
      const values = going.map((r) => r.cvps[turn]![player] ?? 0).sort((a, b) => a - b);
      return {
        runs: values.length,
        mean: values.reduce((a, b) => a + b, 0) / Math.max(values.length, 1),
        p10: quantile(values, 0.1),
        median: quantile(values, 0.5),
        p90: quantile(values, 0.9),
      };
    };
    return { turn, players: Object.fromEntries(players.map((p) => [p, spread(p)])) };
  });
  const keys = [...new Set(runs.flatMap((r) => Object.keys(r.captures)))];
  const objectives = keys
    .map((objective) => {
      const captures = runs.reduce((sum, r) => sum + (r.captures[objective] ?? 0), 0);
      return {
        objective,
        captures,
        perRun: captures / Math.max(n, 1),
        runsCaptured: wilson(
          count((r) => (r.captures[objective] ?? 0) > 0),
          n,
        ),
      };
    })
    .sort((a, b) => b.captures - a.captures || a.objective.localeCompare(b.objective));
  return {
    runs: n,
    win: Object.fromEntries(
      players.map((p) => [
        p,
        wilson(
          count((r) => r.outcome === p),
          n,
        ),
      ]),
    ),
    draw: wilson(
      count((r) => r.outcome === "draw"),
      n,
    ),
    undecided: wilson(
      count((r) => r.outcome === null),
      n,
    ),
    endTurns,
    endings,
    cvps,
    objectives,
    turnsSimulated: runs.reduce((sum, r) => sum + r.turns, 0),
  };
}

/** A difference of two chances with its 95% interval. */
export interface Difference {
  difference: number;
  low: number;
  high: number;
}

/**
 * The difference in one outcome's chance between two lines played from the same runs (same seed, same run numbers):
 * the mean of the paired differences (1, 0 or -1 a run) with its normal 95% interval, narrower than two separate ones
 * because each pair shares its random stream.
 */
export function pairedDifference(a: readonly RunRecord[], b: readonly RunRecord[], outcome: string): Difference {
  const byRun = new Map(b.map((r) => [r.run, r]));
  const diffs = a
    .filter((r) => byRun.has(r.run))
    .map((r) => Number(r.outcome === outcome) - Number(byRun.get(r.run)!.outcome === outcome));
  const n = diffs.length;
  if (n === 0) return { difference: 0, low: -1, high: 1 };
  const mean = diffs.reduce((x, y) => x + y, 0) / n;
  const variance = n > 1 ? diffs.reduce((s, d) => s + (d - mean) ** 2, 0) / (n - 1) : 1;
  const half = Z95 * Math.sqrt(variance / n);
  return { difference: mean, low: Math.max(-1, mean - half), high: Math.min(1, mean + half) };
}
