/**
 * The forecast (docs/forecast.md): its intervals, its battle model, that the same seed gives the same report whatever
 * threads play it, and that a seat's forecast reads nothing the seat may not see (D1 seeds, T5 orders, S8 commanders).
 */
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { Commander } from "../events/common.js";
import type { CampaignState } from "../projections/state.js";
import { sequenceRandomHex } from "../src/client/prepare.js";
import { MemorySecrets } from "../src/client/secrets.js";
import { Table } from "../src/client/table.js";
import { orderCommitment } from "../src/crypto/commitments.js";
import { nextDecision, playCampaign } from "../src/demo/play.js";
import { seededRandom } from "../src/demo/rng.js";
import { engagementEdge, outcomeChances, STEEPNESS } from "../src/forecast/battle-model.js";
import { forecast, compareForecasts, type ForecastRequest } from "../src/forecast/forecast.js";
import { oddsOf, wilson } from "../src/forecast/report.js";
import { playOn, type RunRecord } from "../src/forecast/simulate.js";
import { pointsBand } from "../src/forecast/fog.js";
import {
  forecastStart,
  ordersForMove,
  randomHexFrom,
  sampledStart,
  type ForecastStart,
} from "../src/forecast/start.js";
import { POLICIES } from "../src/forecast/policies.js";
import { dueChores } from "../src/client/chores.js";
import { prepareCommand } from "../src/client/prepare.js";
import { seatsOf } from "../src/client/seats.js";
import { decide } from "../src/engine/decide.js";
import { battlesThisTurn } from "../src/rules/action-common.js";
import { foldDecided } from "../src/rules/phases.js";
import { armyPoints } from "../projections/units.js";
import { engagement } from "../projections/engagement.js";
import { MemoryEngine } from "../src/engine/memory-engine.js";
import { decideBatch } from "../src/engine/decide-batch.js";
import { loadSetupFile } from "../src/setup/setup-loader.js";
import { setupCommands } from "../src/setup/setup-file.js";
import { HIDDEN, viewState } from "../src/views/view.js";

const example = (name: string) => fileURLToPath(new URL(`../examples/${name}`, import.meta.url));
const SEAT = "concord";
const ENEMY = "horde";

/** The example campaign of `file` set up, in memory. */
async function createdCampaign(file: string) {
  const engine = new MemoryEngine(() => new Date("2026-03-01T12:00:00Z"));
  const setup = await loadSetupFile(example(file));
  const created = await engine.execute(
    setup.campaign,
    setupCommands(setup).map((step) => step.command),
  );
  if (!created.ok) throw new Error(JSON.stringify(created.refusal));
  return { engine, setup };
}

/** Ashfall played by the demo's commanders into turn 2's Action phase, until each side has an order not yet revealed. */
async function ashfallMidAction(): Promise<{ state: CampaignState; secrets: MemorySecrets }> {
  const { engine, setup } = await createdCampaign("ashfall.setup.json");
  const secrets = new MemorySecrets();
  const table = new Table(engine, setup.campaign, { secrets, random: sequenceRandomHex("forecast-test") });
  await playCampaign(table, () => {}, 1);
  const hidden = (state: CampaignState, player: string) =>
    Object.values(state.turnState?.activations ?? {}).some((a) => a.player === player && a.order === null);
  const hiddenEnemyOrder = (state: CampaignState) =>
    state.phase === "action" && hidden(state, ENEMY) && hidden(state, SEAT);
  for (;;) {
    const state = await table.state();
    if (hiddenEnemyOrder(state)) return { state, secrets };
    const outcome = await table.submit(nextDecision(state));
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.refusal));
  }
}

const quick = (start: ForecastStart, more: Partial<ForecastRequest> = {}): ForecastRequest => ({
  start,
  runs: 3,
  seed: "quick",
  policy: "scripted",
  turns: 1,
  workers: 0,
  ...more,
});

describe("forecast intervals", () => {
  it("gives the 95% Wilson score interval", () => {
    const half = wilson(5, 10);
    expect(half.share).toBe(0.5);
    expect(half.low).toBeCloseTo(0.2366, 4);
    expect(half.high).toBeCloseTo(0.7634, 4);
    const none = wilson(0, 10);
    expect(none.low).toBe(0);
    expect(none.high).toBeCloseTo(0.2775, 4);
  });

  it("E2: counts the runs each side won, and those drawn, in each turn: the odds by turn", () => {
    const run = (n: number, outcome: string | null, endTurn: number | null): RunRecord => ({
      run: n,
      outcome,
      endTurn,
      cvps: {},
      captures: {},
      turns: endTurn ?? 5,
    });
    const records = [run(0, "red", 3), run(1, "blue", 3), run(2, "red", 4), run(3, "draw", 4), run(4, null, null)];
    const odds = oddsOf(records, ["red", "blue"]);
    expect(odds.endings).toEqual({ 3: { red: 1, blue: 1 }, 4: { red: 1, draw: 1 } });
    expect(odds.endTurns).toEqual({ 3: 2, 4: 2 });
    expect(odds.win["red"]!.share).toBe(2 / 5);
  });
});

describe("forecast battle model (B2, B3)", () => {
  it("B2: gives the defender the edge of Charge against First Fire, and the attacker that of Advance against Charge", () => {
    const chargeIntoFire = engagement("charge", "firstFire");
    expect(engagementEdge(chargeIntoFire, "defender")).toBeGreaterThan(engagementEdge(chargeIntoFire, "attacker"));
    const advanceOnCharge = engagement("advance", "charge");
    expect(engagementEdge(advanceOnCharge, "attacker")).toBeGreaterThan(engagementEdge(advanceOnCharge, "defender"));
  });

  it("splits even battles evenly, with the most draws, and favours the stronger side by the ratio's power", () => {
    const even = outcomeChances({ attacker: 1000, defender: 1000 });
    expect(even.attacker).toBeCloseTo(even.defender, 10);
    expect(even.draw).toBeCloseTo(0.12, 10);
    const double = outcomeChances({ attacker: 2000, defender: 1000 });
    expect(double.attacker / double.defender).toBeCloseTo(2 ** STEEPNESS, 6);
    expect(double.draw).toBeLessThan(even.draw);
    expect(double.attacker + double.defender + double.draw).toBeCloseTo(1, 10);
  });
});

describe("forecast of Ashfall", () => {
  let midAction: { state: CampaignState; secrets: MemorySecrets };
  beforeAll(async () => {
    midAction = await ashfallMidAction();
  });

  it("D1, T5: draws the hidden orders and seeds afresh, with secrets that open the commitments it puts in their place", async () => {
    const { state } = midAction;
    const { state: sampled, secrets } = await sampledStart(forecastStart({ state }, SEAT, false), seededRandom("x"));
    for (const activation of Object.values(sampled.turnState!.activations).filter((a) => a.order === null)) {
      const held = (await secrets.order(activation.player, sampled.turn, activation.army))!;
      expect(orderCommitment({ campaign: sampled.campaign!, turn: sampled.turn, army: activation.army, ...held })).toBe(
        activation.commitment,
      );
      expect(activation.commitment).not.toBe(state.turnState!.activations[activation.army]!.commitment);
    }
    expect(sampled.turnState!.hostSeedHash).not.toBe(state.turnState!.hostSeedHash);
    expect(await secrets.hostSeed(sampled.turn)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("T5: keeps the seat's own hidden orders as its secrets hold them, and draws the enemy's", async () => {
    const { state } = midAction;
    const own = Object.values(state.turnState!.activations).filter((a) => a.player === SEAT && a.order === null);
    expect(own.length).toBeGreaterThan(0);
    const known = Object.fromEntries(own.map((a) => [a.army, "fortify" as const]));
    for (const seed of ["a", "b", "c"]) {
      const { state: sampled, secrets } = await sampledStart(
        forecastStart({ state }, SEAT, false, known),
        seededRandom(seed),
      );
      for (const activation of own)
        expect((await secrets.order(SEAT, sampled.turn, activation.army))?.order).toBe("fortify");
    }
  });

  it("S8: draws each hidden enemy commander from a unit of its army's roster, and keeps the seat's own", async () => {
    const { state } = midAction;
    const view = viewState(state, SEAT);
    const enemyArmies = Object.values(state.armies).filter((a) => a.player === ENEMY);
    expect(enemyArmies.every((a) => (view.armies[a.id]!.commander as unknown) === HIDDEN)).toBe(true);
    const { state: sampled } = await sampledStart(forecastStart({ state }, SEAT, false), seededRandom("y"));
    for (const army of enemyArmies) {
      const { formation, unitType } = sampled.armies[army.id]!.commander;
      expect(army.formations.find((f) => f.id === formation)?.units[unitType]).toBeGreaterThan(0);
    }
    for (const army of Object.values(state.armies).filter((a) => a.player === SEAT))
      expect(sampled.armies[army.id]!.commander).toEqual(army.commander);
  });

  it("O1, S1-S8: refuses to start from a moment the campaign is paused or still being set up", () => {
    const paused: CampaignState = { ...midAction.state, paused: { seq: midAction.state.seq } };
    expect(() => forecastStart({ state: paused }, undefined, false)).toThrow(/paused at that moment \(O1\)/);
    const settingUp: CampaignState = { ...midAction.state, status: "setup" };
    expect(() => forecastStart({ state: settingUp }, SEAT, false)).toThrow(/set up at that moment \(S1-S8\)/);
  });

  it("gives the same report for the same seed and plays every run", async () => {
    const start = forecastStart({ state: midAction.state }, undefined, false);
    const here = await forecast(quick(start, { runs: 4 }));
    expect(await forecast(quick(start, { runs: 4 }))).toEqual(here);
    expect(here.runs).toBe(4);
    expect(here.stopped).toBe(false);
    expect(here.cvps.map((c) => c.turn)).toEqual([midAction.state.turn]);
    const players = here.players.map((p) => p.id);
    const total = players.reduce((sum, p) => sum + here.win[p]!.share, here.draw.share + here.undecided.share);
    expect(total).toBeCloseTo(1, 10);
  });

  it("stops when told and reports the runs played by then", async () => {
    const stop = new AbortController();
    const report = await forecast(
      quick(forecastStart({ state: midAction.state }, undefined, false), {
        runs: 50,
        signal: stop.signal,
        onProgress: (done) => done >= 2 && stop.abort(),
      }),
    );
    expect(report.stopped).toBe(true);
    expect(report.runs).toBe(2);
    expect(report.runsAsked).toBe(50);
  });

  it("compares a line with itself as no difference, run for run", async () => {
    const start = forecastStart({ state: midAction.state }, undefined, false);
    const comparison = await compareForecasts(quick(start), quick(start));
    expect(comparison.a).toEqual(comparison.b);
    for (const d of [...Object.values(comparison.differences.win), comparison.differences.draw])
      expect(d).toEqual({ difference: 0, low: 0, high: 0 });
  });

  it("D1, T5, S8: a seat's forecast is the same whatever the values hidden from it", async () => {
    const { state } = midAction;
    const baseline = await forecast(quick(forecastStart({ state }, SEAT, false)));
    const baselineStart = (await sampledStart(forecastStart({ state }, SEAT, false), seededRandom("p"))).state;
    const enemyArmies = Object.values(state.armies).filter((a) => a.player === ENEMY && a.status === "active");
    const hex = fc.stringMatching(/^[0-9a-f]{64}$/);
    const commanders = fc.tuple(
      ...enemyArmies.map((army) =>
        fc.constantFrom<Commander>(
          ...army.formations.flatMap((f) => Object.keys(f.units).map((unitType) => ({ formation: f.id, unitType }))),
        ),
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        commanders,
        hex,
        hex,
        fc.array(hex, { minLength: 8, maxLength: 8 }),
        async (chosen, hostSeedHash, enemySeed, commitments) => {
          const turn = state.turnState!;
          const activations = Object.fromEntries(
            Object.entries(turn.activations).map(([id, a], i) => [
              id,
              a.player === ENEMY && a.order === null ? { ...a, commitment: commitments[i % commitments.length]! } : a,
            ]),
          );
          const varied: CampaignState = {
            ...state,
            armies: {
              ...state.armies,
              ...Object.fromEntries(enemyArmies.map((army, i) => [army.id, { ...army, commander: chosen[i]! }])),
            },
            // A commitment made is public, its seed not: only the seeds of those made are varied.
            seedCommitments: Object.fromEntries(Object.keys(state.seedCommitments).map((p) => [p, enemySeed])),
            turnState: { ...turn, hostSeedHash, activations },
          };
          const start = forecastStart({ state: varied }, SEAT, false);
          expect((await sampledStart(start, seededRandom("p"))).state).toEqual(baselineStart);
          expect(await forecast(quick(start))).toEqual(baseline);
        },
      ),
      { numRuns: 4 },
    );
  });
});

describe("forecast under fog of war (A2)", () => {
  let state: CampaignState;
  let table: Table;
  beforeAll(async () => {
    const { engine, setup } = await createdCampaign("emberfall.setup.json");
    table = new Table(engine, setup.campaign, {
      secrets: new MemorySecrets(),
      random: sequenceRandomHex("forecast-fog"),
    });
    state = await playCampaign(table, () => {}, 1);
  });

  /** The campaign played on by the demo's commanders until `found` holds of its state. */
  const playUntil = async (found: (state: CampaignState) => boolean) => {
    for (let now = await table.state(); ; now = await table.state()) {
      if (found(now)) return now;
      const outcome = await table.submit(nextDecision(now));
      if (!outcome.ok) throw new Error(JSON.stringify(outcome.refusal));
    }
  };
  const enemyBattle = (now: CampaignState, status: string) =>
    Object.values(now.battles).find(
      (b) => b.turn === now.turn && b.status === status && [b.attacker, b.defender].some((s) => s.player === ENEMY),
    );

  it("T5: the host ends an Action phase in which no army is left to activate, and the forecast plays on from it", async () => {
    const now = await playUntil(
      (s) => s.phase === "action" && !!s.turnState?.first && Object.keys(s.turnState.activations).length === 0,
    );
    // Every army routed (the random play of a long campaign can come to this): nobody has an army to activate.
    const armies = Object.fromEntries(
      Object.entries(now.armies).map(([id, army]) => [id, { ...army, status: "routed" as const, at: null }]),
    );
    // Decided with no key in force, unsigned, as the forecast's runs decide (D2 is the engine's, not the rules').
    const { seatKeys: _keys, ...unkeyed } = now;
    const empty: CampaignState = { ...unkeyed, armies };
    const close = nextDecision(empty);
    expect(close).toEqual({ actor: "host", type: "CloseActionPhase" });
    const decided = decideBatch(empty, [close], () => new Date("2026-03-01T12:00:00Z"), {
      line: "f",
      verify: () => false,
    });
    expect(decided.ok && decided.events.map((e) => e.type)).toContain("ActionPhaseEnded");
    for (const policy of ["scripted", "random"] as const)
      await expect(forecast(quick(forecastStart({ state: empty }, "host", false), { policy }))).resolves.toMatchObject({
        runs: 3,
      });
  });

  it("M2, B1: refuses to start inside a command's events, between an army's move onto its enemy and their battle", async () => {
    const now = await playUntil((s) => s.phase === "action" && enemyBattle(s, "pending") !== undefined);
    const battle = enemyBattle(now, "pending")!;
    // The line as a branch forked just before the BattleStarted of that command would leave it.
    const { [battle.id]: _started, ...others } = now.battles;
    const inside: CampaignState = { ...now, battles: others };
    for (const seat of [SEAT, "host"])
      expect(() => forecastStart({ state: inside }, seat, false)).toThrow(
        new RegExp(
          `inside a command's events at event #${now.seq}: (${battle.attacker.army} and ${battle.defender.army}|${battle.defender.army} and ${battle.attacker.army}) share a square`,
        ),
      );
    expect(forecastStart({ state: now }, SEAT, false).seat).toBe(SEAT);
  });

  it("A2, B3: makes a battle's hidden size and VP target from its sides' points as drawn, in the Action phase", async () => {
    const now = await playUntil((s) => s.phase === "action" && enemyBattle(s, "pending") !== undefined);
    const battle = enemyBattle(now, "pending")!;
    expect(viewState(now, SEAT).battles[battle.id]!.averagePoints as unknown).toBe(HIDDEN);
    const { state: drawn } = await sampledStart(forecastStart({ state: now }, SEAT, false), seededRandom("size"));
    const guess = drawn.battles[battle.id]!;
    expect(guess.averagePoints).toBe((guess.attacker.points + guess.defender.points) / 2);
    expect(guess.vpTarget).toBe(10 * Math.ceil(guess.averagePoints / 1000) + 5);
    await expect(forecast(quick(forecastStart({ state: now }, SEAT, false)))).resolves.toMatchObject({ runs: 3 });
  });

  it("A2, B4: fights again a result reported against an enemy roster it drew anew, which that result cannot fit", async () => {
    const now = await playUntil((s) => enemyBattle(s, "reported") !== undefined);
    const battle = enemyBattle(now, "reported")!;
    const { state: drawn } = await sampledStart(forecastStart({ state: now }, SEAT, false), seededRandom("report"));
    expect(drawn.battles[battle.id]).toMatchObject({ status: "pending", report: null });
    // The organiser sees the rosters the report names: the result stands as reported.
    const { state: truth } = await sampledStart(forecastStart({ state: now }, "host", false), seededRandom("report"));
    expect(truth.battles[battle.id]!.report).toEqual(battle.report);
    await expect(forecast(quick(forecastStart({ state: now }, SEAT, false)))).resolves.toMatchObject({ runs: 3 });
  });

  it("A2, S5: draws each enemy army's strength in its move rate's band from its owner's companies, its hidden ledger empty", async () => {
    const view = viewState(state, SEAT);
    const fogged = Object.values(state.armies).filter((a) => a.player === ENEMY);
    expect(fogged.every((a) => (view.armies[a.id]!.points as unknown) === HIDDEN)).toBe(true);
    const { state: drawn } = await sampledStart(forecastStart({ state }, SEAT, false), seededRandom("fog"));
    expect(JSON.stringify(drawn)).not.toContain(`"${HIDDEN}"`);
    const { maxArmyPoints } = state.setup!.force;
    for (const army of fogged) {
      const guess = drawn.armies[army.id]!;
      const [low, high] = pointsBand(army.moveRate, maxArmyPoints);
      expect(guess.points).toBe(armyPoints(guess.formations, state.setup!.catalogue));
      // The last company drawn may take the roster past the band's top, never short of its bottom.
      expect(guess.points).toBeGreaterThanOrEqual(low);
      expect(guess.points).toBeLessThan(
        high + Math.max(...Object.values(state.setup!.catalogue.formations).map((f) => f.points)),
      );
      for (const formation of guess.formations) expect(formation.formation.startsWith(`${ENEMY}-`)).toBe(true);
    }
    expect(drawn.ledgers[ENEMY]!.reserves).toEqual({});
    expect(drawn.ledgers[SEAT]).toEqual(state.ledgers[SEAT]);
  });

  it("A2: a seat's forecast is the same whatever the enemy's hidden strengths, rosters and Reserves", async () => {
    const baseline = await forecast(quick(forecastStart({ state }, SEAT, false)));
    const baselineStart = (await sampledStart(forecastStart({ state }, SEAT, false), seededRandom("q"))).state;
    const enemyArmies = Object.values(state.armies).filter((a) => a.player === ENEMY);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat({ max: 5000 }), { minLength: enemyArmies.length, maxLength: enemyArmies.length }),
        fc.nat({ max: 1000 }),
        async (points, chest) => {
          const varied: CampaignState = {
            ...state,
            armies: {
              ...state.armies,
              ...Object.fromEntries(
                enemyArmies.map((army, i) => [
                  army.id,
                  { ...army, points: points[i]!, formations: army.formations.slice(0, 1 + (points[i]! % 3)) },
                ]),
              ),
            },
            ledgers: {
              ...state.ledgers,
              [ENEMY]: { ...state.ledgers[ENEMY]!, warChest: chest, reserves: { x: chest } },
            },
          };
          const start = forecastStart({ state: varied }, SEAT, false);
          expect((await sampledStart(start, seededRandom("q"))).state).toEqual(baselineStart);
          expect(await forecast(quick(start))).toEqual(baseline);
        },
      ),
      { numRuns: 4 },
    );
  });

  it("gives the organiser, and anyone once the campaign has finished, the whole truth", () => {
    for (const start of [
      forecastStart({ state }, SEAT, true),
      forecastStart({ state }, "host", false),
      forecastStart({ state }, undefined, false),
    ]) {
      expect(start.view).toBe(state);
      expect(start.seat).toBeNull();
    }
    expect(forecastStart({ state }, SEAT, false).seat).toBe(SEAT);
  });
});

describe("forecast on a branch", () => {
  const AT = "2026-03-01T12:00:00.000Z";
  /** A battle of this turn whose defender was activated after it started (engaged), both orders still hidden. */
  const engagedBeforeReveal = (state: CampaignState) =>
    state.phase === "action" &&
    battlesThisTurn(state).some((battle) =>
      [battle.attacker.army, battle.defender.army].every((army) => state.turnState!.activations[army]?.order === null),
    );

  it("T5: forked after an engaged defender's activation, the attack stays hidden until the defender has committed again", async () => {
    const { engine, setup } = await createdCampaign("ashfall.setup.json");
    const start = forecastStart({ state: await engine.state(setup.campaign) }, "host", false);
    const { state: created, secrets } = await sampledStart(start, seededRandom("branch"));
    const { state: engaged } = await playOn(created, secrets, {
      run: 0,
      random: seededRandom("branch/play"),
      lastTurn: 10,
      policy: POLICIES.scripted,
      until: engagedBeforeReveal,
    });
    expect(engagedBeforeReveal(engaged)).toBe(true);
    // Given the line as a branch forked at that moment leaves it (both orders void there, made afresh by their
    // players; no secret of the parent's held) and its turn reseeded by the chores,
    const parties = new Set(seatsOf(engaged));
    const branchSecrets = new MemorySecrets();
    const hex = randomHexFrom(seededRandom("seeds"));
    const apply = async (state: CampaignState, written: Record<string, unknown>) => {
      const prepared = await prepareCommand(state, written as never, branchSecrets, hex);
      await prepared.keep();
      const decided = decide(state, prepared.command as never, AT);
      if (!decided.ok) throw new Error(JSON.stringify(decided.refusal));
      return foldDecided(state, decided.events);
    };
    let branch = await apply(engaged, { actor: "host", type: "ForkLine" });
    const battle = battlesThisTurn(branch).find((b) => branch.turnState!.activations[b.defender.army]?.voided)!;
    expect(branch.turnState!.activations[battle.attacker.army]!.voided).toBe(true);
    for (let chores = dueChores(branch, parties); chores.length > 0; chores = dueChores(branch, parties))
      branch = await apply(branch, chores[0]!);
    expect(branch.turnState!.forked!.reseeded).toBe(true);
    // when the attacker's player commits to its order again first,
    const attack = branch.turnState!.activations[battle.attacker.army]!;
    const [order] = ordersForMove(branch, branch.armies[attack.army]!, attack.path);
    branch = await apply(branch, { actor: attack.player, type: "RecommitOrder", army: attack.army, order });
    expect(branch.turnState!.activations[battle.defender.army]!.voided).toBe(true);
    // then no chore reveals the attack while the defender's order is void, and the forecast plays on from there.
    expect(dueChores(branch, parties)).not.toContainEqual(
      expect.objectContaining({ type: "RevealOrder", army: attack.army }),
    );
    for (const policy of ["scripted", "random"] as const)
      await expect(
        forecast(quick(forecastStart({ state: branch }, "host", false), { policy, turns: branch.turn })),
      ).resolves.toMatchObject({ runs: 3 });
  });
});
