import { seedCommitment } from "../src/crypto/commitments.js";
import type { CheckedEvent } from "./audit-advanced.js";
import { SEED_VERDICTS } from "./audit-report.js";
import type { BasicCheck, TurnBook } from "./audit-turns.js";

interface SeedFinding {
  verdict: (typeof SEED_VERDICTS)[keyof typeof SEED_VERDICTS];
  player: string;
  seqs: number[];
  detail: string;
}

interface Commitment {
  seq: number;
  seedHash: string;
}

/**
 * D1: every player commits to its dice seed for a turn before the host commits to its own, and the seed it gives once
 * the host has committed must hash to that commitment. Then no party's seed could be chosen after another's was seen.
 */
export class PlayerSeedCheck implements BasicCheck {
  /** Commitments made for the turn about to start, by turn and then player. */
  private readonly pending = new Map<number, Map<string, Commitment>>();
  /** The commitments in force for each started turn, by player. */
  private readonly inForce = new Map<number, Map<string, Commitment>>();
  /** Turns a fork voided the seeds of (D1 on a branch), until the host reseeds them: the players commit afresh. */
  private readonly reseeding = new Set<number>();

  constructor(private readonly book: TurnBook) {}

  before(event: CheckedEvent): void {
    const turn = this.book.current;
    if (event.type === "LineForked") this.forked(event.data);
    else if (event.type === "PlayerSeedCommitted")
      this.committed(event.seq, event.data, turn && !turn.ended && !this.reseeding.has(turn.turn) ? turn.turn : null);
    else if (event.type === "TurnStarted") this.turnStarted(event.seq, event.data.turn, this.book.players);
    else if (event.type === "TurnReseeded") {
      this.reseeding.delete(event.data.turn);
      this.turnStarted(event.seq, event.data.turn, this.book.players);
    } else if (event.type === "PlayerSeedGiven") this.seedGiven(event.seq, event.data);
  }

  /** Files a finding under the section of the turn it concerns, or among the campaign-wide ones. */
  private report(turn: number, finding: SeedFinding): void {
    this.book.report(this.book.turns.get(turn) ?? null, finding);
  }

  /** D1 on a branch: the seed commitments the fork voided are void here; fresh ones are made for the same turn. */
  private forked(data: { turn: number; voidedSeeds: string[] }): void {
    const turn = this.book.current;
    const underWay = turn !== null && !turn.ended && turn.turn === data.turn;
    if (underWay) {
      this.inForce.delete(data.turn);
      this.reseeding.add(data.turn);
    }
    const pending = this.pending.get(data.turn);
    for (const party of data.voidedSeeds) pending?.delete(party);
  }

  private committed(
    seq: number,
    data: { turn: number; player: string; seedHash: string },
    turnUnderWay: number | null,
  ): void {
    if (turnUnderWay !== null || this.inForce.has(data.turn)) {
      this.report(data.turn, {
        verdict: SEED_VERDICTS.seedCommittedOutOfTurn,
        player: data.player,
        seqs: [seq],
        detail: `${data.player} committed to a seed for turn ${data.turn} (seq ${seq}) after ${turnUnderWay !== null ? `turn ${turnUnderWay}` : "that turn"} had started: a seed is committed before the host commits to the turn's`,
      });
      return;
    }
    const forTurn = this.pending.get(data.turn) ?? new Map<string, Commitment>();
    this.pending.set(data.turn, forTurn);
    if (!forTurn.has(data.player)) forTurn.set(data.player, { seq, seedHash: data.seedHash });
  }

  /** The host commits: every player must have committed already; their commitments are now in force for the turn. */
  private turnStarted(seq: number, turn: number, players: readonly string[]): void {
    const commitments = this.inForce.get(turn) ?? this.pending.get(turn) ?? new Map<string, Commitment>();
    this.pending.delete(turn);
    this.inForce.set(turn, commitments);
    for (const player of players.filter((p) => !commitments.has(p))) {
      this.report(turn, {
        verdict: SEED_VERDICTS.seedUncommitted,
        player,
        seqs: [seq],
        detail: `${player} had not committed to a dice seed for turn ${turn} when the host committed to its own (seq ${seq}): its seed could be chosen knowing the host's`,
      });
    }
  }

  private seedGiven(seq: number, data: { turn: number; player: string; seed: string }): void {
    const commitment = this.inForce.get(data.turn)?.get(data.player);
    if (!commitment || seedCommitment(data.seed) === commitment.seedHash) return;
    this.report(data.turn, {
      verdict: SEED_VERDICTS.seedCommitMismatch,
      player: data.player,
      seqs: [seq, commitment.seq],
      detail: `the seed ${data.player} gave for turn ${data.turn} (seq ${seq}) does not hash to its commitment of seq ${commitment.seq}`,
    });
  }
}
