import type { CheckedEvent } from "./audit-advanced.js";
import { VERDICTS } from "./audit-report.js";
import type { ActivationWork, ArmyJudgement, BasicCheck, TurnBook, TurnSection, TurnWork } from "./audit-turns.js";

/**
 * T5, never revealed: an activated army's order must be revealed, matching its commitment, before the Action phase
 * ends (while it is open the reveal is pending). By the stall ruling an attacker whose defender never gave its order,
 * when the host closed a claimed stall (or at the Action phase's deadline, O2), could not reveal its own. The engine's
 * ActionPhaseEnded must not list as withheld an order that was revealed.
 */
export class NeverRevealedCheck implements BasicCheck {
  constructor(private readonly book: TurnBook) {}

  before(_event: CheckedEvent): void {}

  finishArmy(turn: TurnWork, activation: ActivationWork, judgement: ArmyJudgement): void {
    const { army, player, reveal } = activation;
    const { closing } = judgement;
    const inTime = reveal !== null && !reveal.late;
    const stalledClose = turn.stallClaimed !== null && closing !== null && turn.stallClaimed < closing;
    const couldNotReveal =
      stalledClose && turn.battles.some((battle) => battle.attacker === army && !turn.activations.has(battle.defender));
    if (inTime || couldNotReveal) return;
    if (closing === null) {
      judgement.pending = true;
      return;
    }
    const recorded = turn.actionEnded?.withheld.includes(army) ?? false;
    judgement.failures.push(VERDICTS.neverRevealed);
    this.book.report(turn, {
      verdict: VERDICTS.neverRevealed,
      army,
      player,
      seqs: [activation.seq, closing, ...(reveal ? [reveal.seq] : [])],
      detail:
        `${army}'s order (activated seq ${activation.seq}) had no matching reveal when the Action phase ended (seq ${closing})` +
        (reveal ? `; it was revealed only afterwards (seq ${reveal.seq})` : "") +
        (recorded ? "" : "; the log's ActionPhaseEnded does not list it as withheld"),
    });
  }

  /** ActionPhaseEnded's withheld armies, checked against the reveals: a recorded breach must be a real one. */
  finishTurn(turn: TurnWork, section: TurnSection): void {
    if (!turn.actionEnded) return;
    const byArmy = new Map(section.armies.map((a) => [a.army, a]));
    for (const army of turn.actionEnded.withheld) {
      const audited = byArmy.get(army);
      if (audited && audited.reveal !== null && !audited.verdicts.includes(VERDICTS.neverRevealed)) {
        this.book.report(turn, {
          verdict: VERDICTS.unconfirmedBreach,
          army,
          player: audited.player,
          seqs: [turn.actionEnded.seq, audited.reveal.seq],
          detail: `ActionPhaseEnded (seq ${turn.actionEnded.seq}) lists ${army} as withheld, but its order was revealed at seq ${audited.reveal.seq}`,
        });
      }
    }
  }
}
