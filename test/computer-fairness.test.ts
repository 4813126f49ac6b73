/**
 * The computer is fair to what its seat may not know (docs/computer.md), proved as the forecast's fairness is: at
 * every level, its decision is the same whatever the values hidden from its seat (the enemy's orders behind their
 * commitments, its commanders, the dice seeds not yet revealed), since it reads only the seat's view and its own
 * secrets. The secrets each try holds the enemy's orders as drawn, where a computer that peeked would find them.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { Commander } from "../events/common.js";
import type { ActivationState, CampaignState } from "../projections/state.js";
import { orderCommitment } from "../src/crypto/commitments.js";
import { ordersForMove } from "../src/forecast/start.js";
import { MemorySecrets } from "../src/client/secrets.js";
import { COMPUTER_LEVELS, computerDecision, type ComputerChoices } from "../src/computer/decide.js";
import { scoredCandidates } from "../src/computer/search.js";
import { nextDecision, playCampaign } from "../src/demo/play.js";
import { reach } from "../src/demo/pathing.js";
import { orderAllowance } from "../src/rules/terrain-costs.js";
import { ownHeldOrders, viewState } from "../src/views/view.js";
import { ashfallTable } from "./support/ashfall-table.js";

const SEAT = "concord";
const ENEMY = "horde";

/**
 * Ashfall played by the demo's commanders to a moment the campaign waits on the seat for an activation of an army
 * that could attack an enemy army whose order is not yet revealed and may be one of several: where it counts most.
 */
async function waitingOnSeat(): Promise<{ state: CampaignState; secrets: MemorySecrets }> {
  const secrets = new MemorySecrets();
  const table = await ashfallTable("computer-fairness", secrets);
  await playCampaign(table, () => {}, 1);
  for (let step = 0; step < 2000 && (await table.state()).status === "active"; step++) {
    const state = await table.state();
    const decision = nextDecision(state);
    if (state.phase === "action" && decision?.actor === SEAT && decision.type === "ActivateArmy") {
      const army = state.armies[decision["army"] as string]!;
      // An order hidden that might be one of several: one its move allows alone is no secret.
      const hidden = (enemy: string) => {
        const activation = state.turnState!.activations[enemy];
        return activation?.order === null && ordersForMove(state, state.armies[enemy]!, activation.path).length > 1;
      };
      const { attacks } = reach(state, army, orderAllowance("charge", army.moveRate));
      if (attacks.some(({ enemy }) => hidden(enemy.id))) return { state, secrets };
    }
    const outcome = await table.submit(decision);
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.refusal));
  }
  throw new Error("the campaign never waited on the seat to activate an army in reach of an enemy with a hidden order");
}

/** Two rounds of forecasts per decision, however long they take: a budget by count, so the choice is repeatable. */
const choicesAt = (level: (typeof COMPUTER_LEVELS)[number]): ComputerChoices => ({
  level,
  battles: "table",
  budget: { milliseconds: Number.POSITIVE_INFINITY, rounds: 2, now: () => 0 },
});

describe("the computer's fairness", () => {
  let state: CampaignState;
  let secrets: MemorySecrets;
  beforeAll(async () => {
    ({ state, secrets } = await waitingOnSeat());
  }, 60_000);

  /** The computer's decision on the truth as its seat sees it, the parties' secrets (its own and the enemy's) in `held`. */
  const decisionOn = async (
    truth: CampaignState,
    level: (typeof COMPUTER_LEVELS)[number],
    held: MemorySecrets = secrets,
  ) => {
    const view = viewState(truth, SEAT);
    const known = await ownHeldOrders(view, SEAT, held);
    const choices = choicesAt(level);
    return {
      decision: await computerDecision(view, SEAT, known, choices),
      // The searching level's forecasts of every candidate, not only the one they chose.
      scores: level === "searching" ? await scoredCandidates(view, SEAT, known, choices.budget) : [],
    };
  };

  for (const level of COMPUTER_LEVELS)
    it(`D1, T5, S8: the ${level} level decides the same whatever the values hidden from its seat`, async () => {
      const baseline = await decisionOn(state, level);
      expect(baseline.decision).toMatchObject({ actor: SEAT, type: "ActivateArmy" });
      if (level === "searching") expect(baseline.scores.length).toBeGreaterThan(1);
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
          fc.array(fc.tuple(fc.nat(), fc.stringMatching(/^[0-9a-f]{32}$/)), { minLength: 8, maxLength: 8 }),
          async (chosen, hostSeedHash, enemySeed, orders) => {
            const turn = state.turnState!;
            // The enemy's hidden orders drawn anew among those its moves allow, committed to and kept in its secrets.
            const held = new MemorySecrets();
            const activations: Record<string, ActivationState> = {};
            for (const [i, [id, a]] of Object.entries(turn.activations).entries()) {
              activations[id] = a;
              if (a.order !== null) continue;
              const kept = await secrets.order(a.player, state.turn, id);
              if (a.player !== ENEMY) {
                await held.keepOrder(a.player, state.turn, id, kept!);
                continue;
              }
              const [pick, salt] = orders[i % orders.length]!;
              const allowed = ordersForMove(state, state.armies[id]!, a.path);
              const order = allowed[pick % allowed.length]!;
              await held.keepOrder(ENEMY, state.turn, id, { order, salt });
              const commitment = orderCommitment({
                campaign: state.campaign!,
                turn: state.turn,
                army: id,
                order,
                salt,
              });
              activations[id] = { ...a, commitment };
            }
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
            expect(await decisionOn(varied, level, held)).toEqual(baseline);
          },
        ),
        { numRuns: 4 },
      );
    }, 120_000);

  it("is not blind: the searching level's forecasts follow what its seat does see (its own armies' strength)", async () => {
    const own = Object.values(state.armies).filter((a) => a.player === SEAT && a.status === "active");
    const baseline = await decisionOn(state, "searching");
    const weakened: CampaignState = {
      ...state,
      armies: { ...state.armies, ...Object.fromEntries(own.map((a) => [a.id, { ...a, points: 1 }])) },
    };
    expect((await decisionOn(weakened, "searching")).scores).not.toEqual(baseline.scores);
  }, 60_000);
});
