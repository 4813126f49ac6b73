/**
 * The forecast at length: many runs of both example campaigns, from each seat's view (Emberfall under fog of war,
 * A2) and from the truth, with both policies, every run played to its end through the real rules without a command
 * refused; the odds add up and the runs end where the rules end them. And every run played on a working copy of its
 * state (projections/working-copy.ts) comes out as on the engine's frozen states.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { CampaignState } from "../../projections/state.js";
import { sequenceRandomHex } from "../../src/client/prepare.js";
import { MemorySecrets } from "../../src/client/secrets.js";
import { Table } from "../../src/client/table.js";
import { playCampaign } from "../../src/demo/play.js";
import { forecast, MAX_FORECAST_TURNS } from "../../src/forecast/forecast.js";
import type { PolicyName } from "../../src/forecast/policies.js";
import { FROZEN, simulateRun } from "../../src/forecast/simulate.js";
import { forecastStart } from "../../src/forecast/start.js";
import { MemoryEngine } from "../../src/engine/memory-engine.js";
import { loadSetupFile } from "../../src/setup/setup-loader.js";
import { setupCommands } from "../../src/setup/setup-file.js";
import { lockstepKeeping } from "../lockstep-keeping.js";

/** The example campaign played by the demo's commanders through `turns` turns, in memory. */
async function played(file: string, turns: number): Promise<CampaignState> {
  const engine = new MemoryEngine(() => new Date("2026-03-01T12:00:00Z"));
  const setup = await loadSetupFile(fileURLToPath(new URL(`../../examples/${file}`, import.meta.url)));
  const created = await engine.execute(
    setup.campaign,
    setupCommands(setup).map((step) => step.command),
  );
  if (!created.ok) throw new Error(JSON.stringify(created.refusal));
  const table = new Table(engine, setup.campaign, { secrets: new MemorySecrets(), random: sequenceRandomHex(file) });
  return playCampaign(table, () => {}, turns);
}

describe("forecast soak", () => {
  for (const [file, turns] of [
    ["ashfall.setup.json", 2],
    ["emberfall.setup.json", 2],
  ] as const) {
    for (const policy of ["scripted", "random"] as PolicyName[]) {
      it(`plays 60 runs of ${file} from turn ${turns + 1} for each seat and the organiser, ${policy} orders`, async () => {
        const state = await played(file, turns);
        expect(state.status).toBe("active");
        for (const viewer of [undefined, ...state.setup!.players.map((p) => p.id)]) {
          const report = await forecast({
            start: forecastStart({ state }, viewer, false),
            runs: 60,
            seed: `soak-${viewer ?? "truth"}`,
            policy,
          });
          expect(report.runs).toBe(60);
          const shares = [...Object.values(report.win), report.draw, report.undecided].map((s) => s.share);
          expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
          const ended = Object.values(report.endTurns).reduce((a, b) => a + b, 0);
          expect(ended).toBe(Math.round(60 * (1 - report.undecided.share)));
          for (const turn of Object.keys(report.endTurns).map(Number)) {
            expect(turn).toBeGreaterThanOrEqual(state.turn);
            expect(turn).toBeLessThan(state.turn + MAX_FORECAST_TURNS);
          }
        }
      });
    }
  }
});

describe("forecast soak on working copies", () => {
  for (const [file, turns] of [
    ["ashfall.setup.json", 2],
    ["emberfall.setup.json", 2],
  ] as const) {
    it(`plays 20 runs of ${file} from turn ${turns + 1} for each seat and the organiser, both policies, as the engine's frozen states play them, command by command`, async () => {
      const state = await played(file, turns);
      const keeping = lockstepKeeping();
      for (const viewer of [undefined, ...state.setup!.players.map((p) => p.id)]) {
        const start = forecastStart({ state }, viewer, false);
        for (const policy of ["scripted", "random"] as PolicyName[]) {
          const options = {
            policy,
            seed: `copies-${viewer ?? "truth"}`,
            lastTurn: state.turn + MAX_FORECAST_TURNS - 1,
          };
          for (let run = 0; run < 20; run++) {
            const frozen = await simulateRun(start, run, options, FROZEN);
            expect(await simulateRun(start, run, options, keeping)).toEqual(frozen);
          }
        }
      }
    });
  }
});
