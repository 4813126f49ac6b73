import { sha256Hex } from "../src/log/hash.js";
import type { CampaignState } from "../projections/state.js";
import type { CheckedEvent } from "./audit-advanced.js";
import { PENDING_SEED, VERDICTS, type Status, type TurnSeed } from "./audit-report.js";
import { short, type BasicCheck, type TurnBook, type TurnSection, type TurnWork } from "./audit-turns.js";

/**
 * D1, the host's seed: each turn's TurnStarted commits to it, its TurnEnded reveals it, and the seed must hash to the
 * commitment. A turn abandoned without its reveal, a second commitment within a turn, and a commitment reused from an
 * earlier turn (whose seed the players may have seen) are findings.
 */
export class HostSeedCheck implements BasicCheck {
  /** The first turn that committed to each host seed commitment. */
  private readonly commitments = new Map<string, { seq: number; turn: number }>();

  constructor(private readonly book: TurnBook) {}

  before(event: CheckedEvent, state: CampaignState): void {
    if (event.type === "TurnStarted") this.turnStarted(event.seq, event.data, state);
    else if (event.type === "TurnReseeded") this.turnReseeded(event.seq, event.data);
    else if (event.type === "TurnEnded") this.turnEnded(event.seq, event.data);
  }

  /** The host seed's verdict in the report: matching, still secret, never revealed, re-committed or reused. */
  finishTurn(turn: TurnWork, section: TurnSection): void {
    let status: Status = "pending";
    let verdict: string = PENDING_SEED;
    if (turn.ended) {
      status = seedMatches(turn) ? "ok" : "failed";
      verdict = seedMatches(turn) ? VERDICTS.ok : VERDICTS.hostSeedMismatch;
    } else if (turn.abandonedAt !== null) {
      status = "failed";
      verdict = VERDICTS.hostSeedNeverRevealed;
    }
    if (turn.starts.filter((start) => !start.reseed).length > 1 && status !== "failed") {
      status = "failed";
      verdict = VERDICTS.hostRecommitted;
    }
    if (turn.findings.some((f) => f.verdict === VERDICTS.hostSeedReused) && status !== "failed") {
      status = "failed";
      verdict = VERDICTS.hostSeedReused;
    }
    section.hostSeedStatus = status;
    section.hostSeedVerdict = verdict;
  }

  private turnStarted(seq: number, data: { turn: number; hostSeedHash: string }, state: CampaignState): void {
    this.openTurn(seq, data, state);
    const earlier = this.commitments.get(data.hostSeedHash);
    if (earlier && earlier.turn !== data.turn) {
      const revealed = this.book.turns.get(earlier.turn)?.ended;
      this.book.report(this.book.current, {
        verdict: VERDICTS.hostSeedReused,
        seqs: [seq, earlier.seq, ...(revealed ? [revealed.seq] : [])],
        detail:
          `turn ${data.turn} (seq ${seq}) commits to the seed turn ${earlier.turn} committed to (seq ${earlier.seq})` +
          (revealed
            ? `, which was revealed at seq ${revealed.seq}: the players knew the host seed before giving theirs, and the last could choose its own to suit it`
            : ""),
      });
    }
    if (!earlier) this.commitments.set(data.hostSeedHash, { seq, turn: data.turn });
  }

  /**
   * D1 on a branch: the host's fresh commitment for a turn the fork voided the seeds of. It is the commitment in force
   * from here on, which the turn's TurnEnded must reveal; reused from any earlier commitment, it is a finding.
   */
  private turnReseeded(seq: number, data: { turn: number; hostSeedHash: string }): void {
    const turn = this.book.current;
    if (!turn || turn.ended || turn.turn !== data.turn) {
      this.book.report(turn ?? null, {
        verdict: VERDICTS.hostRecommitted,
        seqs: [seq],
        detail: `turn ${data.turn} was reseeded (seq ${seq}) when it was not under way`,
      });
      return;
    }
    const earlier = this.commitments.get(data.hostSeedHash);
    if (earlier)
      this.book.report(turn, {
        verdict: VERDICTS.hostSeedReused,
        seqs: [seq, earlier.seq],
        detail: `turn ${data.turn} is reseeded (seq ${seq}) with the commitment of seq ${earlier.seq}: each seed is fresh`,
      });
    else this.commitments.set(data.hostSeedHash, { seq, turn: data.turn });
    turn.starts.push({ seq, hostSeedHash: data.hostSeedHash, reseed: true });
  }

  private openTurn(seq: number, data: { turn: number; hostSeedHash: string }, state: CampaignState): void {
    const previous = this.book.current;
    if (previous && !previous.ended && previous.turn !== data.turn) {
      previous.abandonedAt = seq;
      this.book.report(previous, {
        verdict: VERDICTS.hostSeedNeverRevealed,
        seqs: [previous.starts[previous.starts.length - 1]!.seq, seq],
        detail: `turn ${previous.turn} never ended: turn ${data.turn} started (seq ${seq}) without the host revealing the seed it committed to, so its rolls cannot be checked`,
      });
    }
    const existing = this.book.turns.get(data.turn);
    if (!existing) {
      this.book.open(seq, data, state);
      return;
    }
    const seen = existing.seeds.filter((s) => s.seq < seq);
    const before = existing.starts[existing.starts.length - 1]!;
    this.book.report(existing, {
      verdict: VERDICTS.hostRecommitted,
      seqs: [seq, before.seq, ...seen.map((s) => s.seq)],
      detail:
        `a second TurnStarted for turn ${data.turn} (seq ${seq}) replaces the commitment of seq ${before.seq}` +
        (seen.length > 0
          ? ` after the players' seeds were given (${seen.map((s) => `${s.player} seq ${s.seq}`).join(", ")})`
          : "") +
        (existing.ended ? `, after the turn had ended (seq ${existing.ended.seq})` : ""),
    });
    existing.starts.push({ seq, hostSeedHash: data.hostSeedHash });
    this.book.current = existing;
  }

  private turnEnded(seq: number, data: { turn: number; hostSeed: string }): void {
    const turn = this.book.current;
    if (!turn || turn.ended || turn.turn !== data.turn) {
      this.book.report(null, {
        verdict: VERDICTS.hostSeedMismatch,
        seqs: [seq],
        detail: `turn ${data.turn} ended (seq ${seq}) with no commitment of that turn in force`,
      });
      return;
    }
    turn.ended = { seq, hostSeed: data.hostSeed };
    const commitment = turn.starts[turn.starts.length - 1]!;
    const hash = sha256Hex(data.hostSeed);
    if (hash !== commitment.hostSeedHash) {
      this.book.report(turn, {
        verdict: VERDICTS.hostSeedMismatch,
        seqs: [seq, commitment.seq],
        detail: `the seed revealed in TurnEnded (seq ${seq}) hashes to ${short(hash)}, not the ${short(commitment.hostSeedHash)} committed in TurnStarted (seq ${commitment.seq})`,
      });
    }
  }
}

/** Whether the seed the turn's TurnEnded revealed hashes to the commitment in force. */
function seedMatches(turn: TurnWork): boolean {
  return turn.ended !== null && sha256Hex(turn.ended.hostSeed) === turn.starts[turn.starts.length - 1]!.hostSeedHash;
}

/** The turn's host seed as its rolls are judged on: revealed and matching, still secret, or never (rightly) revealed. */
export function turnSeed(turn: TurnWork): TurnSeed {
  if (!turn.ended) {
    return turn.abandonedAt !== null
      ? { hostSeed: null, status: "failed", verdict: VERDICTS.hostSeedNeverRevealed }
      : { hostSeed: null, status: "pending", verdict: PENDING_SEED };
  }
  return seedMatches(turn)
    ? { hostSeed: turn.ended.hostSeed, endedSeq: turn.ended.seq }
    : { hostSeed: null, status: "failed", verdict: VERDICTS.hostSeedMismatch };
}
