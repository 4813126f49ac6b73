import type { CampaignView } from "../views/view.js";
import { playRuns, type PoolOptions } from "./pool.js";
import { oddsOf, pairedDifference, type Difference, type ForecastOdds } from "./report.js";
import type { PolicyName } from "./policies.js";
import type { RunRecord } from "./simulate.js";
import type { ForecastStart } from "./start.js";

/** Turns a run plays on for at most without --turns: a campaign not won by then counts as undecided. */
export const MAX_FORECAST_TURNS = 30;

export interface ForecastRequest extends PoolOptions {
  start: ForecastStart;
  runs: number;
  seed: string;
  policy: PolicyName;
  /** Turns to play on (the one under way counts), else to the end or MAX_FORECAST_TURNS. */
  turns?: number;
}

export interface ForecastReport extends ForecastOdds {
  /** Whose view it starts from: a player's, or null for the whole truth. */
  seat: string | null;
  /** The moment it starts from: turn, phase and the seq of the last event. */
  from: { turn: number; phase: string | null; seq: number };
  seed: string;
  policy: PolicyName;
  runsAsked: number;
  /** Stopped (Ctrl-C) before every run asked for was played. */
  stopped: boolean;
  lastTurn: number;
  players: Array<{ id: string; name: string }>;
  interval: string;
  battles: string;
}

export const INTERVAL = "95% Wilson score interval";
export const BATTLE_MODEL = "the forecast's battle model (docs/forecast.md), not the tabletop";

/** Plays a campaign on from a moment `runs` times and reports the odds (docs/forecast.md). */
export async function forecast(request: ForecastRequest): Promise<ForecastReport> {
  return (await forecastRuns(request)).report;
}

/** The forecast's report and the records of its runs. */
async function forecastRuns(request: ForecastRequest): Promise<{ report: ForecastReport; records: RunRecord[] }> {
  const view: CampaignView = request.start.view;
  if (!view.setup) throw new Error("the campaign has no set-up to forecast");
  const lastTurn = view.turn + (request.turns ?? MAX_FORECAST_TURNS) - 1;
  const { records, stopped } = await playRuns(
    { start: request.start, runs: request.runs, options: { policy: request.policy, seed: request.seed, lastTurn } },
    request,
  );
  const players = view.setup.players.map((p) => ({ id: p.id, name: p.name }));
  const report: ForecastReport = {
    seat: request.start.seat,
    from: { turn: view.turn, phase: view.phase, seq: view.seq },
    seed: request.seed,
    policy: request.policy,
    runsAsked: request.runs,
    stopped,
    lastTurn,
    players,
    interval: INTERVAL,
    battles: BATTLE_MODEL,
    ...oddsOf(
      records,
      players.map((p) => p.id),
    ),
  };
  return { report, records };
}

export interface Comparison {
  a: ForecastReport;
  b: ForecastReport;
  /** A's chance less B's, each player's win and the draw, over runs paired by number (pairedDifference). */
  differences: { win: Record<string, Difference>; draw: Difference };
}

/**
 * Two lines forecast from the same seed, run for run (the same run number draws the same stream on both), and the
 * difference in their odds with its interval. Stopped part-way, only the runs both lines played are compared.
 */
export async function compareForecasts(a: ForecastRequest, b: ForecastRequest): Promise<Comparison> {
  const left = await forecastRuns(a);
  const right = await forecastRuns({ ...b, runs: left.records.length });
  const players = left.report.players.map((p) => p.id);
  return {
    a: left.report,
    b: right.report,
    differences: {
      win: Object.fromEntries(players.map((p) => [p, pairedDifference(left.records, right.records, p)])),
      draw: pairedDifference(left.records, right.records, "draw"),
    },
  };
}
