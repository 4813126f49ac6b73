/**
 * Working copies (projections/working-copy.ts): a state folded in place must hold what the engine's immutable fold of
 * the same events holds, at every command of a whole campaign, and a forecast played on working copies must come out
 * as one played on the engine's frozen states.
 */
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { toCurrent, type DomainEvent } from "../events/index.js";
import { initialState, type CampaignState } from "../projections/state.js";
import { evolveWorkingCopy, foldInPlace, isWorkingCopy, workingCopy } from "../projections/working-copy.js";
import { sequenceRandomHex } from "../src/client/prepare.js";
import { MemorySecrets } from "../src/client/secrets.js";
import { Table } from "../src/client/table.js";
import type { CommandHandler, Outcome } from "../src/engine/engine.js";
import { playCampaign } from "../src/demo/play.js";
import { MemoryEngine } from "../src/engine/memory-engine.js";
import { foldDecided } from "../src/rules/phases.js";
import { FROZEN, simulateRun, type RunOptions } from "../src/forecast/simulate.js";
import { forecastStart } from "../src/forecast/start.js";
import { loadSetupFile } from "../src/setup/setup-loader.js";
import { lockstepKeeping } from "./lockstep-keeping.js";
import { setupCommands } from "../src/setup/setup-file.js";

const example = (name: string) => fileURLToPath(new URL(`../examples/${name}`, import.meta.url));

type Sequenced = DomainEvent & { seq: number };

/** One command's events as the log gives them, and the engine's states before and after them. */
interface Step {
  before: CampaignState;
  events: Sequenced[];
  after: CampaignState;
}

/** Ashfall played to its end by the demo's commanders, every command's step kept. */
async function ashfallSteps(): Promise<Step[]> {
  const memory = new MemoryEngine(() => new Date("2026-03-01T12:00:00Z"));
  const steps: Step[] = [];
  const recording: CommandHandler = {
    state: (campaign) => memory.state(campaign),
    async execute(campaign, inputs): Promise<Outcome> {
      const before = await memory.state(campaign);
      const outcome = await memory.execute(campaign, inputs);
      if (outcome.ok)
        steps.push({
          before,
          events: outcome.events.map((event) => toCurrent(event) as Sequenced),
          after: outcome.state,
        });
      return outcome;
    },
  };
  const setup = await loadSetupFile(example("ashfall.setup.json"));
  const created = await recording.execute(
    setup.campaign,
    setupCommands(setup).map((step) => step.command),
  );
  if (!created.ok) throw new Error(JSON.stringify(created.refusal));
  const table = new Table(recording, setup.campaign, {
    secrets: new MemorySecrets(),
    random: sequenceRandomHex("working-copy"),
  });
  const end = await playCampaign(table, () => {}, 30);
  expect(end.status).toBe("finished");
  return steps;
}

describe("working copies", () => {
  let steps: Step[];
  beforeAll(async () => {
    steps = await ashfallSteps();
  });

  it("S1-E6: a working copy folded in place, command by command through a whole campaign, holds the engine's state after each", () => {
    expect(steps.length).toBeGreaterThan(100);
    const types = new Set(steps.flatMap((step) => step.events.map((event) => event.type)));
    expect([...types]).toEqual(
      expect.arrayContaining([
        "BattleResolved",
        "ArmyRouted",
        "FormationReplaced",
        "TransitArrived",
        "CampaignFinished",
      ]),
    );
    const state = workingCopy(initialState);
    for (const step of steps) {
      foldInPlace(state, structuredClone(step.events));
      expect(state).toEqual(step.after);
    }
  });

  it("shares the set-up with the state it copies, and nothing else", () => {
    const { after } = steps[steps.length - 1]!;
    const copy = workingCopy(after);
    expect(copy).toEqual(after);
    expect(copy.setup).toBe(after.setup);
    for (const key of Object.keys(after) as Array<keyof CampaignState>) {
      const value = after[key];
      if (key !== "setup" && typeof value === "object" && value !== null) expect(copy[key]).not.toBe(value);
    }
    expect(isWorkingCopy(copy)).toBe(true);
    expect(isWorkingCopy(after)).toBe(false);
  });

  it("B4, T1: a state predicted from a working copy is a working copy of its own, and leaves the copy it came from as it was", () => {
    const battle = steps.find((step) => step.events.some((event) => event.type === "BattleResolved"))!;
    const copy = workingCopy(battle.before);
    const predicted = evolveWorkingCopy(copy, structuredClone(battle.events));
    expect(predicted).toEqual(battle.after);
    expect(copy).toEqual(battle.before);
    expect(isWorkingCopy(predicted)).toBe(true);
    foldInPlace(predicted, []);
    expect(JSON.stringify(predicted)).toBe(JSON.stringify(battle.after));
  });

  it("B4, T5: foldDecided on a working copy gives the engine's state for every command, and folds into the copy where no rule predicted", () => {
    for (const step of steps) {
      const copy = workingCopy(step.before);
      const plain = structuredClone(step.events).map(({ seq: _seq, ...event }) => event as DomainEvent);
      const after = foldDecided(copy, plain);
      expect(after).toEqual(step.after);
      expect(after).toBe(copy);
    }
    expect(foldDecided(workingCopy(steps[0]!.before), [])).toEqual(steps[0]!.before);
  });
});

describe("a forecast on working copies", () => {
  it("plays each run as the engine's frozen states play it, command by command, with either policy and from a turn with battles", async () => {
    const steps = await ashfallSteps();
    const moments = [steps.find((step) => step.after.status === "active")!.after];
    const battleTurn = steps.find((step) => step.events.some((event) => event.type === "BattleStarted"))!;
    moments.push(steps.find((step) => step.after.turn === battleTurn.after.turn + 1)!.after);
    const keeping = lockstepKeeping();
    for (const moment of moments) {
      const start = forecastStart({ state: moment }, undefined, false);
      for (const policy of ["scripted", "random"] as const) {
        const options: RunOptions = { policy, seed: `working-${policy}`, lastTurn: moment.turn + 6 };
        for (let run = 0; run < 4; run++) {
          const frozen = await simulateRun(start, run, options, FROZEN);
          expect(await simulateRun(start, run, options, keeping)).toEqual(frozen);
        }
      }
    }
    expect(keeping.commands).toBeGreaterThan(500);
  });
});
