import type { BattleResult, Order } from "../../events/common.js";
import type { BattleState, CampaignState } from "../../projections/state.js";
import type { PlainCommand } from "../demo/plain-command.js";
import { seededRandom } from "../demo/rng.js";
import { seatDecision } from "../demo/seat.js";
import { modelResult } from "../forecast/battle-model.js";
import type { CampaignView } from "../views/view.js";
import { searchedDecision, type SearchBudget } from "./search.js";

/** The computer's levels: the demo's scripted commanders, or short forecasts of each choice from its own view. */
export const COMPUTER_LEVELS = ["scripted", "searching"] as const;
export type ComputerLevel = (typeof COMPUTER_LEVELS)[number];

/**
 * How the battles of a campaign against the computer are fought: on the table, the human reporting each result and
 * the computer confirming or rejecting it (B4); or by the forecast's battle model, the attacker reporting the model's
 * result from dice both players' seeds of the turn make (a duel of two computers).
 */
export type BattleMode = "table" | "model";

export interface ComputerChoices {
  level: ComputerLevel;
  battles: BattleMode;
  /** The searching level's thinking time per decision. */
  budget: SearchBudget;
}

/** A result the computer would not confirm, and the rule it breaks. */
export interface Objection {
  rule: string;
  message: string;
}

/**
 * The computer's next decision for `seat`, from that seat's view alone (and its own orders not yet revealed, from
 * its own secrets): undefined while the campaign waits on another party. Battle results are the computer's only to
 * answer (or, with modelled battles, to report); every other decision is its level's.
 */
export async function computerDecision(
  view: CampaignView,
  seat: string,
  knownOrders: Record<string, Order>,
  choices: ComputerChoices,
): Promise<PlainCommand | undefined> {
  if (view.status !== "active" || view.paused) return undefined;
  if (view.phase === "battle") {
    // The battle kit's steps (a scenario proposed, say) are the scripted commanders' at every level.
    const kitStep = seatDecision(view, seat);
    if (kitStep && !RESULT_STEPS.has(kitStep.type)) return kitStep;
    return battleStep(view as CampaignState, seat, choices.battles);
  }
  if (choices.level === "scripted") return seatDecision(view, seat);
  return searchedDecision(view, seat, knownOrders, choices.budget);
}

/** The scripted commanders' steps with a battle's result, which the computer takes as battleStep says. */
const RESULT_STEPS = new Set(["ReportBattleResult", "ConfirmBattleResult"]);

/** The Battle phase: answer a result the other side reported; with modelled battles, report those it attacked in. */
function battleStep(state: CampaignState, seat: string, battles: BattleMode): PlainCommand | undefined {
  // B4: where the campaign resolves its battles by the model, the host enters every result.
  if (state.setup?.options.battles === "model") return undefined;
  const open = Object.values(state.battles)
    .filter((b) => b.turn === state.turn && b.status !== "resolved")
    .filter((b) => b.attacker.player === seat || b.defender.player === seat)
    .sort((a, b) => a.index - b.index);
  const answer = open.find((b) => b.status === "reported" && b.report!.by !== seat);
  if (answer) {
    const objection = resultObjection(answer, answer.report!.result);
    return { actor: seat, type: objection ? "RejectBattleResult" : "ConfirmBattleResult", battle: answer.id };
  }
  const toReport = open.find((b) => b.status === "pending" && b.attacker.player === seat);
  if (battles !== "model" || !toReport) return undefined;
  return { actor: seat, type: "ReportBattleResult", battle: toReport.id, result: modelledResult(state, toReport) };
}

/**
 * B3, B4: what the computer holds against a reported result the rules let through: the rules check the losses and
 * routs against the rosters when the result is reported; the outcome must also agree with the VPs: a winner breaks
 * at least the battle's VP target (B3) and more than the loser; in a draw, no side alone reaches the target.
 */
export function resultObjection(battle: BattleState, result: BattleResult): Objection | undefined {
  const target = battle.vpTarget;
  const { attacker, defender } = result;
  if (result.outcome === "draw") {
    if (attacker.vp >= target !== defender.vp >= target)
      return {
        rule: "B3",
        message: `a draw in which only the ${attacker.vp >= target ? "attacker" : "defender"} reached the VP target (${target}) is that side's win`,
      };
    return undefined;
  }
  const [winner, loser] = result.outcome === "attacker" ? [attacker, defender] : [defender, attacker];
  if (winner.vp < target)
    return {
      rule: "B3",
      message: `the ${result.outcome} won with ${winner.vp} VPs, short of the VP target (${target})`,
    };
  if (winner.vp <= loser.vp)
    return {
      rule: "B4",
      message: `the ${result.outcome} won with ${winner.vp} VPs against the loser's ${loser.vp}: the winner breaks more`,
    };
  return undefined;
}

/**
 * A battle's result by the forecast's battle model, its dice drawn from the battle and the turn's player seeds (D1),
 * which both players gave before any battle and neither could choose alone.
 */
function modelledResult(state: CampaignState, battle: BattleState): BattleResult {
  const seeds = Object.entries(state.turnState!.playerSeeds)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([, seed]) => seed)
    .join("/");
  return modelResult(state, battle, seededRandom(`${state.campaign}/${battle.id}/${seeds}`));
}
