/**
 * The searching level's End phase (src/computer/end-phase.ts): its purchases and replacements chosen by short
 * forecasts from its own view, judged by the outlook at the end of the next turn's Action phase.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { Commander } from "../events/common.js";
import type { CampaignState } from "../projections/state.js";
import { scoredCandidates, searchedDecision, type SearchBudget } from "../src/computer/search.js";
import { ownFormations } from "../src/demo/catalogue.js";
import { allowed } from "../src/demo/legal.js";
import { nextDecision } from "../src/demo/play.js";
import { viewState } from "../src/views/view.js";
import { ashfallPlayedUntil } from "./support/ashfall-table.js";

const rounds = (count: number): SearchBudget => ({
  rounds: count,
  milliseconds: Number.POSITIVE_INFINITY,
  now: () => 0,
});

/** Ashfall played by the scripted commanders to the first moment `wanted` holds. */
const playedUntil = (wanted: (state: CampaignState) => boolean) => ashfallPlayedUntil("computer-end-phase", wanted);

/** The state with the player's Reserves (E6) holding, besides their own units, every unit of its catalogue's formations. */
function withFullReserves(state: CampaignState, player: string): CampaignState {
  const reserves = { ...state.ledgers[player]!.reserves };
  for (const [, formation] of ownFormations(state.setup!.catalogue, player))
    for (const [type, count] of Object.entries(formation.units)) reserves[type] = (reserves[type] ?? 0) + count;
  return { ...state, ledgers: { ...state.ledgers, [player]: { ...state.ledgers[player]!, reserves } } };
}

describe("the searching level's End phase", () => {
  let state: CampaignState;
  let seat: string;
  beforeAll(async () => {
    // The first End phase choice that uses the Reserves (E6b: a depleted formation brought back to full strength).
    state = await playedUntil((now) => now.phase === "end" && nextDecision(now)?.type === "ReinforceFormation");
    seat = nextDecision(state)!.actor;
  }, 120_000);

  it("E6: weighs the scripted choice first and alternatives the rules accept, the Reserves kept among them", async () => {
    const scored = await scoredCandidates(viewState(state, seat), seat, {}, rounds(1));
    expect(scored[0]!.command).toEqual(nextDecision(state));
    expect(scored.map((c) => c.command.type)).toContain("FinishEndPhase");
    expect(scored.length).toBeGreaterThan(2);
    for (const { command } of scored) expect(allowed(state, command)).toBe(true);
    const chosen = await searchedDecision(viewState(state, seat), seat, {}, rounds(1));
    expect(allowed(state, chosen!)).toBe(true);
  }, 120_000);

  it("S8, E6a: takes a new army onto the map over a formation brought back that adds no points", async () => {
    const rich = withFullReserves(state, seat);
    const scripted = nextDecision(rich)!;
    expect(scripted.type).toBe("ReinforceFormation");
    const scored = await scoredCandidates(viewState(rich, seat), seat, {}, rounds(1));
    const raises = scored.filter((c) => c.command.type === "RaiseArmy");
    expect(raises.length).toBeGreaterThan(0);
    const best = Math.max(...scored.map((c) => c.score));
    expect(best).toBeGreaterThan(scored[0]!.score);
    const chosen = await searchedDecision(viewState(rich, seat), seat, {}, rounds(1));
    expect(chosen!.type).toBe("RaiseArmy");
    expect(allowed(rich, chosen!)).toBe(true);
    expect(scored.find((c) => JSON.stringify(c.command) === JSON.stringify(chosen))!.score).toBe(best);
  }, 120_000);

  it("D1, S8: its End phase choice and every candidate's score are the same whatever the values hidden from its seat", async () => {
    const rich = withFullReserves(state, seat);
    const decisionOn = async (truth: CampaignState) => {
      const view = viewState(truth, seat);
      return {
        scores: await scoredCandidates(view, seat, {}, rounds(1)),
        chosen: await searchedDecision(view, seat, {}, rounds(1)),
      };
    };
    const baseline = await decisionOn(rich);
    const enemyArmies = Object.values(rich.armies).filter((a) => a.player !== seat && a.status === "active");
    const commanders = fc.tuple(
      ...enemyArmies.map((army) =>
        fc.constantFrom<Commander>(
          ...army.formations.flatMap((f) => Object.keys(f.units).map((unitType) => ({ formation: f.id, unitType }))),
        ),
      ),
    );
    await fc.assert(
      fc.asyncProperty(commanders, fc.stringMatching(/^[0-9a-f]{64}$/), async (chosen, seed) => {
        const varied: CampaignState = {
          ...rich,
          armies: {
            ...rich.armies,
            ...Object.fromEntries(enemyArmies.map((army, i) => [army.id, { ...army, commander: chosen[i]! }])),
          },
          seedCommitments: Object.fromEntries(Object.keys(rich.seedCommitments).map((p) => [p, seed])),
        };
        expect(await decisionOn(varied)).toEqual(baseline);
      }),
      { numRuns: 3 },
    );
  }, 120_000);

  it("the same budget in rounds gives the same scores and the same choice", async () => {
    const rich = withFullReserves(state, seat);
    const once = await scoredCandidates(viewState(rich, seat), seat, {}, rounds(2));
    let clock = 0;
    const slow = { rounds: 2, milliseconds: Number.POSITIVE_INFINITY, now: () => (clock += 3_600_000) };
    expect(await scoredCandidates(viewState(rich, seat), seat, {}, slow)).toEqual(once);
    expect(await searchedDecision(viewState(rich, seat), seat, {}, rounds(2))).toEqual(
      await searchedDecision(viewState(rich, seat), seat, {}, rounds(2)),
    );
  }, 120_000);
});
