/**
 * The forecast's figures (docs/forecast.md): simulated campaign turns a second of Ashfall on worker threads across the
 * cores, and the time of a simulated turn against folding the events one real turn of Ashfall wrote.
 */
import { availableParallelism } from "node:os";
import type { DomainEvent, NewEvent } from "../events/index.js";
import { evolveAll, replay } from "../projections/campaign.js";
import type { CampaignState } from "../projections/state.js";
import { forecast, MAX_FORECAST_TURNS } from "../src/forecast/forecast.js";
import { playRuns } from "../src/forecast/pool.js";
import { forecastStart, type ForecastStart } from "../src/forecast/start.js";
import type { Template } from "./campaign.js";
import { fmt, median, type Figure } from "./figure.js";

/** The template's events with the seqs the log gave them, as the reducers take them. */
function sequenced(template: Template): { setup: DomainEvent[]; turns: DomainEvent[][] } {
  let seq = 0;
  const number = (events: NewEvent[]) => events.map((event) => ({ ...event, seq: ++seq }) as unknown as DomainEvent);
  return { setup: number(template.setup), turns: template.turns.map(number) };
}

/** Median time (ms) to fold each real turn's events into the state it started from, over `repeats` passes. */
function foldTurnMs(setupState: CampaignState, turns: DomainEvent[][], repeats: number): number {
  const times: number[] = [];
  for (let pass = 0; pass < repeats; pass++) {
    let state = setupState;
    for (const events of turns) {
      const start = performance.now();
      state = evolveAll(state, events as Array<DomainEvent & { seq: number }>);
      times.push(performance.now() - start);
    }
  }
  return median(times);
}

/** Runs played to warm up before the timed ones, for each timed run. */
const WARM_UP_RUNS = 2;

/**
 * A simulated turn's time (ms) in this thread: the median over `runs` runs of each run's time a turn, as the fold it is
 * compared with is a median (a burst of other work on the machine then moves it less), and over all the runs' turns.
 * Warmed up first, as that fold is: else it counts the compiling of the simulation's code on this thread, which the
 * worker threads paid for themselves.
 */
async function simulatedTurnMs(
  start: ForecastStart,
  runs: number,
): Promise<{ medianMs: number; overallMs: number; turns: number }> {
  const options = { policy: "scripted" as const, seed: "bench", lastTurn: start.view.turn + MAX_FORECAST_TURNS - 1 };
  // A forecast plays thousands of runs (10,000 by default): the figure is of the code compiled as they find it.
  await playRuns({ start, runs: runs * WARM_UP_RUNS, options: { ...options, seed: "warm-up" } }, { workers: 0 });
  const ends: number[] = [];
  const began = performance.now();
  // In this thread the runs are played and their records kept in run order: the k-th progress ends the k-th record.
  const { records } = await playRuns(
    { start, runs, options },
    { workers: 0, onProgress: () => ends.push(performance.now()) },
  );
  const perTurn = records.map((record, i) => (ends[i]! - (i === 0 ? began : ends[i - 1]!)) / Math.max(1, record.turns));
  const turns = records.reduce((sum, record) => sum + record.turns, 0);
  return { medianMs: median(perTurn), overallMs: (ends[ends.length - 1]! - began) / turns, turns };
}

export async function forecastFigures(template: Template, runs: number): Promise<Figure[]> {
  const { setup, turns } = sequenced(template);
  const setupState = replay(setup as Array<DomainEvent & { seq: number }>);
  const start = forecastStart({ state: setupState }, undefined, false);
  const cores = availableParallelism();

  const began = performance.now();
  const threaded = await forecast({ start, runs, seed: "bench", policy: "scripted" });
  const threadedMs = performance.now() - began;
  const perSecond = (threaded.turnsSimulated / threadedMs) * 1000;

  const single = Math.max(4, Math.round(runs / 4));
  const simulated = await simulatedTurnMs(start, single);
  const foldMs = foldTurnMs(setupState, turns, 20);
  const ratio = simulated.medianMs / foldMs;
  return [
    {
      name: "forecastTurnsPerSecond",
      value: perSecond,
      unit: " turns/s",
      goal: ">= 10,000",
      met: perSecond >= 10_000,
      detail: `Ashfall from turn 1, ${runs} runs on ${cores} worker threads: ${fmt(threaded.turnsSimulated)} turns in ${fmt(threadedMs / 1000, 1)} s`,
    },
    {
      name: "forecastTurnRatio",
      value: ratio,
      unit: "",
      goal: "<= 3",
      met: ratio <= 3,
      detail: `a simulated turn ${fmt(simulated.medianMs, 2)} ms in one thread (median over ${single} runs of each run's time a turn; all ${fmt(simulated.turns)} turns: ${fmt(simulated.overallMs, 2)} ms a turn) vs folding a real turn's events ${fmt(foldMs, 3)} ms (median over ${turns.length} turns x 20)`,
    },
  ];
}
