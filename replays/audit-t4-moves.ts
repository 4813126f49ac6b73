import type { Order, Square } from "../events/common.js";
import type { EventData } from "../events/index.js";
import type { CampaignState } from "../projections/state.js";
import { squaresPaid, stepPricing, type StepPricing } from "../src/rules/terrain-costs.js";
import type { CheckedEvent } from "./audit-advanced.js";
import { VERDICTS, type Verdict } from "./audit-report.js";
import {
  ORDER_WORDS,
  plural,
  sq,
  type ActivationWork,
  type ArmyJudgement,
  type BasicCheck,
  type TurnBook,
  type TurnSection,
  type TurnWork,
} from "./audit-turns.js";

/**
 * T4, M1 and S7, moves: a move is a path of orthogonal steps on the map from where its army stood, made after the
 * army's activation; its length is measured against the revealed order and the army's move rate (A4: at terrain
 * costs). An engaged army may not move, a First Fire or Fortify army neither, and an army stacked on its home base
 * must take Advance or Charge (S7). The engine's own OrderViolated events must name a breach found here.
 */
export class MoveCheck implements BasicCheck {
  constructor(private readonly book: TurnBook) {}

  before(event: CheckedEvent, state: CampaignState): void {
    if (event.type === "ArmyMoved") this.moved(event.seq, event.data, state);
  }

  finishArmy(turn: TurnWork, activation: ActivationWork, judgement: ArmyJudgement, state: CampaignState): void {
    const { army, player, reveal } = activation;
    const rate = activation.derivedRate ?? activation.rate;
    const squares = activation.moves.reduce((sum, move) => sum + move.path.length, 0);
    const moveSeqs = activation.moves.map((m) => m.seq);
    const fail = (verdict: Verdict, seqs: number[], detail: string) => {
      judgement.failures.push(verdict);
      this.book.report(turn, { verdict, army, player, seqs, detail });
    };
    const revealSeqs = reveal ? [reveal.seq] : [];
    const rateNote =
      activation.derivedRate !== null && activation.derivedRate !== activation.rate
        ? ` (the activation recorded rate ${activation.rate}, the roster gives ${rate})`
        : "";

    const pricing = state.setup ? stepPricing(state.setup) : null;
    const path = activation.moves.flatMap((move) => move.path);
    let allowed: number | null = null;
    if (activation.engaged) allowed = 0;
    else if (reveal) allowed = pricedAllowance(pricing, reveal.order, rate, path);
    judgement.allowed = allowed;
    const chargeAllows = pricedAllowance(pricing, "charge", rate, path);
    const terms = pricing?.byTerrain ? " at terrain costs (A4)" : "";

    if (squares > 0 && reveal && (reveal.order === "firstFire" || reveal.order === "fortify")) {
      fail(
        VERDICTS.movedStationary,
        [...moveSeqs, ...revealSeqs, activation.seq],
        `${army} moved ${plural(squares, "square")} (seq ${moveSeqs.join(", ")}) on ${ORDER_WORDS[reveal.order]}, which may not move (revealed seq ${reveal.seq})`,
      );
    } else if (activation.engaged && squares > 0) {
      fail(
        VERDICTS.movedTooFar,
        [...moveSeqs, activation.seq],
        `${army} moved ${plural(squares, "square")} (seq ${moveSeqs.join(", ")}) although it was attacked before its activation and is pinned`,
      );
    } else if (allowed !== null && squares > allowed) {
      fail(
        VERDICTS.movedTooFar,
        [...moveSeqs, ...revealSeqs, activation.seq],
        `${army} moved ${plural(squares, "square")} (seq ${moveSeqs.join(", ")}) on ${ORDER_WORDS[reveal!.order]}, which allows ${allowed}${terms} at move rate ${rate}${rateNote} (revealed seq ${reveal!.seq})`,
      );
    } else if (allowed === null && squares > chargeAllows) {
      fail(
        VERDICTS.movedTooFar,
        [...moveSeqs, activation.seq],
        `${army} moved ${plural(squares, "square")} (seq ${moveSeqs.join(", ")}): no order allows more than ${chargeAllows}${terms} at move rate ${rate}${rateNote}`,
      );
    }
    if (activation.stacked && reveal && (reveal.order === "firstFire" || reveal.order === "fortify")) {
      fail(
        VERDICTS.stackedStayed,
        [activation.seq, reveal.seq],
        `${army} began its activation (seq ${activation.seq}) stacked on its home base and took ${ORDER_WORDS[reveal.order]} (revealed seq ${reveal.seq}): a stacked army must take Advance or Charge`,
      );
    }
  }

  /** The engine's OrderViolated events, checked against what the audit found: a recorded breach must be a real one. */
  finishTurn(turn: TurnWork, section: TurnSection): void {
    const byArmy = new Map(section.armies.map((a) => [a.army, a]));
    for (const violation of turn.engineViolations) {
      const audited = byArmy.get(violation.army);
      const confirmed =
        audited !== undefined &&
        (violation.rule === "S7"
          ? audited.verdicts.includes(VERDICTS.stackedStayed)
          : audited.verdicts.includes(VERDICTS.movedStationary) || audited.verdicts.includes(VERDICTS.movedTooFar));
      if (!confirmed) {
        this.book.report(turn, {
          verdict: VERDICTS.unconfirmedBreach,
          army: violation.army,
          ...(audited ? { player: audited.player } : {}),
          seqs: [violation.seq, violation.evidenceSeq],
          detail: `OrderViolated (seq ${violation.seq}, ${violation.rule}) accuses ${violation.army}, but its move and revealed order recompute as allowed`,
        });
      }
    }
  }

  private moved(seq: number, data: EventData<"ArmyMoved">, state: CampaignState): void {
    const turn = this.book.current;
    const activation = turn?.activations.get(data.army);
    const army = state.armies[data.army];
    if (!turn || !activation || turn.ended) {
      this.book.report(turn ?? null, {
        verdict: VERDICTS.movedUnactivated,
        army: data.army,
        ...(army ? { player: army.player } : {}),
        seqs: [seq],
        detail: `${data.army} moved ${plural(data.path.length, "square")} (seq ${seq}) without an activation this turn`,
      });
      return;
    }
    activation.moves.push({ seq, from: data.from, path: data.path });
    const map = state.setup?.map;
    let previous = army?.at ?? null;
    const problems: string[] = [];
    if (!previous || previous[0] !== data.from[0] || previous[1] !== data.from[1]) {
      problems.push(`it starts from ${sq(data.from)} but the army stood at ${previous ? sq(previous) : "no square"}`);
    }
    previous = data.from;
    for (const [i, step] of data.path.entries()) {
      if (map && (step[0] >= map.width || step[1] >= map.height))
        problems.push(`step ${i + 1} ${sq(step)} is off the map`);
      if (Math.abs(step[0] - previous[0]) + Math.abs(step[1] - previous[1]) !== 1)
        problems.push(`step ${i + 1} ${sq(previous)}->${sq(step)} is not orthogonal`);
      previous = step;
    }
    if (problems.length > 0) {
      activation.failures.push(VERDICTS.illegalPath);
      this.book.report(turn, {
        verdict: VERDICTS.illegalPath,
        army: data.army,
        player: activation.player,
        seqs: [seq, activation.seq],
        detail: `${data.army}'s move (seq ${seq}): ${problems.join("; ")}`,
      });
    }
  }
}

/**
 * T4, or A4 with terrain costs: how many squares of the army's path its order allows: R on Advance and 2R on Charge by
 * count, or as many leading squares as the order's points pay for at terrain costs (at least one).
 */
function pricedAllowance(pricing: StepPricing | null, order: Order, rate: number, path: readonly Square[]): number {
  if (order === "firstFire" || order === "fortify") return 0;
  if (pricing?.byTerrain) return squaresPaid(pricing, order, rate, path);
  return order === "advance" ? rate : 2 * rate;
}
