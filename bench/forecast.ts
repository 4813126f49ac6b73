/**
 * The forecast's figures (docs/forecast.md): simulated campaign turns a second of Ashfall on worker threads across the
 * cores, and the time of a simulated turn against folding the events one real turn of Ashfall wrote.
 */
import { availableParallelism } from "node:os";
import type { DomainEvent, NewEvent } from "../events/index.js";
import { evolveAll, replay } from "../projections/campaign.js";
import type { CampaignState } from "../projections/state.js";
import { forecast } from "../src/forecast/forecast.js";
import { forecastStart } from "../src/forecast/start.js";
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

export async function forecastFigures(template: Template, runs: number): Promise<Figure[]> {
  const { setup, turns } = sequenced(template);
  const setupState = replay(setup as Array<DomainEvent & { seq: number }>);
  const start = forecastStart({ state: setupState }, undefined, false);
  const cores = availableParallelism();

  let began = performance.now();
  const threaded = await forecast({ start, runs, seed: "bench", policy: "scripted" });
  const threadedMs = performance.now() - began;
  const perSecond = (threaded.turnsSimulated / threadedMs) * 1000;

  const single = Math.max(4, Math.round(runs / 10));
  // Warmed up first, as the fold it is compared with is (a median over many passes): else the figure counts the
  // compiling of the simulation's code on this thread, which the worker threads above paid for themselves.
  await forecast({ start, runs: single, seed: "warm-up", policy: "scripted", workers: 0 });
  began = performance.now();
  const here = await forecast({ start, runs: single, seed: "bench", policy: "scripted", workers: 0 });
  const simulatedTurnMs = (performance.now() - began) / here.turnsSimulated;
  const foldMs = foldTurnMs(setupState, turns, 20);
  const ratio = simulatedTurnMs / foldMs;
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
      detail: `a simulated turn ${fmt(simulatedTurnMs, 2)} ms in one thread (${single} runs, ${fmt(here.turnsSimulated)} turns) vs folding a real turn's events ${fmt(foldMs, 3)} ms (median over ${turns.length} turns x 20)`,
    },
  ];
}
