import type { Order } from "../events/common.js";
import { orderCommitment } from "../src/crypto/commitments.js";
import type { CheckedEvent } from "./audit-advanced.js";
import { VERDICTS } from "./audit-report.js";
import {
  ORDER_WORDS,
  short,
  type ActivationWork,
  type BasicCheck,
  type TurnBook,
  type TurnWork,
} from "./audit-turns.js";

/**
 * T5, commitments and reveals: an activation's commitment binds one army in one turn (a commitment reused can match
 * no honest reveal); every reveal the log accepts must recompute to its army's commitment from the order and salt, and
 * every reveal the engine rejected (RevealRejected) must really fail to.
 */
export class RevealCheck implements BasicCheck {
  /** The first activation that gave each commitment. */
  private readonly commitments = new Map<string, { seq: number; turn: number; army: string }>();

  constructor(private readonly book: TurnBook) {}

  before(event: CheckedEvent): void {
    switch (event.type) {
      case "ArmyActivated":
        return this.committed(event.seq, event.data);
      case "OrderRevealed":
        return this.revealed(event.seq, event.data);
      case "RevealRejected":
        return this.rejected(event.seq, event.data);
      default:
        return;
    }
  }

  private committed(seq: number, data: { turn: number; army: string; player: string; commitment: string }): void {
    const turn = this.book.current;
    const reused = this.commitments.get(data.commitment);
    if (!reused) {
      this.commitments.set(data.commitment, { seq, turn: turn?.turn ?? data.turn, army: data.army });
      return;
    }
    this.book.activation?.failures.push(VERDICTS.commitmentReused);
    this.book.report(turn ?? null, {
      verdict: VERDICTS.commitmentReused,
      army: data.army,
      player: data.player,
      seqs: [seq, reused.seq],
      detail: `${data.army}'s commitment ${short(data.commitment)} (seq ${seq}) is the one ${reused.army} gave in turn ${reused.turn} (seq ${reused.seq}): a commitment binds one army in one turn, so no honest reveal can match it`,
    });
  }

  private revealed(seq: number, data: { turn: number; army: string; order: Order; salt: string }): void {
    const turn = this.book.current;
    const activation = turn?.activations.get(data.army);
    if (!turn || !activation) {
      this.book.report(turn ?? null, {
        verdict: VERDICTS.revealMismatch,
        army: data.army,
        seqs: [seq],
        detail: `${data.army}'s order was revealed as ${ORDER_WORDS[data.order]} (seq ${seq}) but it has no activation this turn to match`,
      });
      return;
    }
    const recomputed = orderCommitment({
      campaign: this.book.campaign ?? "",
      turn: data.turn,
      army: data.army,
      order: data.order,
      salt: data.salt,
    });
    if (recomputed !== activation.commitment) {
      const detail = `the log accepts ${ORDER_WORDS[data.order]} for ${data.army} (OrderRevealed seq ${seq}), but order and salt hash to ${short(recomputed)}, not the commitment ${short(activation.commitment)} of seq ${activation.seq}`;
      this.mismatch(turn, activation, { seq, type: "OrderRevealed", order: data.order }, activation.player, detail);
      return;
    }
    if (activation.reveal) return; // the same order again: nothing new
    activation.reveal = {
      seq,
      order: data.order,
      salt: data.salt,
      late: turn.actionEnded !== null || turn.ended !== null,
    };
  }

  private rejected(seq: number, data: { army: string; player: string; order: Order; salt: string }): void {
    const turn = this.book.current;
    const activation = turn?.activations.get(data.army);
    if (!turn || !activation) {
      this.book.report(turn ?? null, {
        verdict: VERDICTS.revealMismatch,
        army: data.army,
        player: data.player,
        seqs: [seq],
        detail: `a reveal of ${data.army} was rejected (seq ${seq}) but it has no activation this turn`,
      });
      return;
    }
    const recomputed = orderCommitment({
      campaign: this.book.campaign ?? "",
      turn: turn.turn,
      army: data.army,
      order: data.order,
      salt: data.salt,
    });
    if (recomputed === activation.commitment) {
      this.book.report(turn, {
        verdict: VERDICTS.unconfirmedBreach,
        army: data.army,
        player: data.player,
        seqs: [seq, activation.seq],
        detail: `RevealRejected (seq ${seq}) says ${data.player}'s reveal of ${ORDER_WORDS[data.order]} for ${data.army} does not match, but it recomputes to the commitment of seq ${activation.seq}`,
      });
      return;
    }
    const detail = `${data.player} revealed ${ORDER_WORDS[data.order]} for ${data.army} (seq ${seq}); order and salt hash to ${short(recomputed)}, not the commitment ${short(activation.commitment)} of seq ${activation.seq}`;
    this.mismatch(turn, activation, { seq, type: "RevealRejected", order: data.order }, data.player, detail);
  }

  /** A reveal whose order and salt do not hash to the army's commitment. */
  private mismatch(
    turn: TurnWork,
    activation: ActivationWork,
    reveal: ActivationWork["badReveals"][number],
    player: string,
    detail: string,
  ): void {
    activation.badReveals.push(reveal);
    activation.failures.push(VERDICTS.revealMismatch);
    this.book.report(turn, {
      verdict: VERDICTS.revealMismatch,
      army: activation.army,
      player,
      seqs: [reveal.seq, activation.seq],
      detail,
    });
  }
}
