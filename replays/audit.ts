import { evolve } from "../projections/campaign.js";
import { initialState, type CampaignState } from "../projections/state.js";
import type { VerifyResult } from "../src/log/verify.js";
import type { AdvancedCheck, AdvancedFinding } from "./audit-advanced.js";
import { CommandersAudit } from "./audit-commanders.js";
import { HostSeedCheck, turnSeed } from "./audit-d1-host-seeds.js";
import { PlayerSeedCheck } from "./audit-d1-player-seeds.js";
import { DerivedAudit } from "./audit-derived.js";
import {
  PENDING_REVEAL,
  VERDICTS,
  type ArmyAudit,
  type AuditEvent,
  type AuditInput,
  type AuditOptions,
  type AuditReport,
  type ChainAudit,
  type Finding,
  type RecordedHead,
  type Status,
  type TurnAudit,
  type UnreadableEvent,
} from "./audit-report.js";
import { ScoutingAudit } from "./audit-scouting.js";
import { SupportUseAudit } from "./audit-support.js";
import { InitiativeCheck } from "./audit-t2-initiative.js";
import { KitRollCheck } from "./audit-d1-kit-rolls.js";
import { ModelBattleAudit } from "./audit-model-battles.js";
import { ActivationCheck } from "./audit-t3-activations.js";
import { MoveCheck } from "./audit-t4-moves.js";
import { NeverRevealedCheck } from "./audit-t5-never-revealed.js";
import { RevealCheck } from "./audit-t5-reveals.js";
import { TitanDamageAudit } from "./audit-titans.js";
import {
  short,
  TurnBook,
  type ActivationWork,
  type ArmyJudgement,
  type BasicCheck,
  type TurnSection,
  type TurnWork,
} from "./audit-turns.js";
import { WarChestAudit } from "./audit-war-chest.js";
import { SignatureAudit } from "./audit-d2-signatures.js";
import { verifySignature } from "../src/crypto/verify-node.js";

export * from "./audit-report.js";
export { describeRounds, ORDER_WORDS } from "./audit-turns.js";

/**
 * The audit (D1, T2-T5, docs/fair-dice.md): a pure function over a campaign's events and the result of verifying its
 * chain. It re-derives everything from the events' data: every commitment is recomputed from the revealed order and
 * salt, every move is measured against the revealed order and the army's move rate, the T3 alternation is replayed,
 * every roll is recomputed from the seeds once the host has revealed its own, and the host's seed is checked against
 * its commitment. The engine's own verdict events (RevealRejected, OrderViolated, ActionPhaseEnded.withheld) are only
 * cross-checked, never trusted. The projection (projections/) is used for what the log means (where armies stand,
 * their move rates). Of the rules (src/rules) only the advanced ones' prices and tables are used: A4's terrain costs,
 * A8's income table, A6's command limits.
 *
 * Each check is a module named by its rule: the basic ones replays/audit-{d1-host-seeds,d1-player-seeds,
 * t2-initiative,t5-reveals,t3-activations,t4-moves,t5-never-revealed}.ts, which share the record of the turns
 * (audit-turns.ts); the advanced ones replays/audit-{scouting,war-chest,support,titans,commanders}.ts; and the
 * recomputation of everything the rules derive, replays/audit-derived.ts. The Auditor below only hands each event to
 * every check and puts their findings together.
 */

/** Audits a campaign's log: see the module comment. Pure: the same input gives the same report. */
export function auditCampaign(input: AuditInput, options: AuditOptions = {}): AuditReport {
  const auditor = new Auditor(input.stream);
  for (const problem of input.unreadable ?? []) auditor.unreadable(problem);
  for (const event of input.events) auditor.take(event);
  for (const head of options.heads ?? []) auditor.checkHead(head, input.events);
  const full = auditor.finish(input.chain, input.events.length);
  return options.turn === undefined ? full : narrow(full, options.turn);
}

/** The report of one turn: that turn's section, with the chain's and the campaign-wide findings. */
function narrow(report: AuditReport, turn: number): AuditReport {
  const turns = report.turns.filter((t) => t.turn === turn);
  const findings = report.findings.filter((f) => f.turn === null || f.turn === turn);
  return { ...report, turnFilter: turn, turns, findings, pending: countPending(turns), ok: findings.length === 0 };
}

function countPending(turns: readonly TurnAudit[]): number {
  let pending = 0;
  for (const turn of turns) {
    pending +=
      turn.armies.filter((a) => a.status === "pending").length +
      turn.rolls.filter((r) => r.status === "pending").length;
    if (turn.hostSeedStatus === "pending") pending++;
  }
  return pending;
}

class Auditor {
  private state: CampaignState = initialState;
  private readonly loose: Finding[] = [];
  private readonly book = new TurnBook((turn, finding) => this.report(turn, finding));
  private readonly reportAdvanced = (finding: AdvancedFinding) => this.report(this.book.current, finding);
  private readonly scouting = new ScoutingAudit(this.reportAdvanced);
  /** Everything the rules derive, recomputed by replaying the decisions that wrote it (replays/audit-derived.ts). */
  private readonly derived = new DerivedAudit();
  /**
   * The basic checks, in the order they see each event and judge each army and turn (the order of findings on the
   * same event follows it). The record of the turns sees each event first.
   */
  private readonly basic: readonly BasicCheck[] = [
    new HostSeedCheck(this.book),
    new PlayerSeedCheck(this.book),
    new InitiativeCheck(this.book, this.scouting),
    new KitRollCheck(this.book),
    new RevealCheck(this.book),
    new ActivationCheck(this.book),
    new MoveCheck(this.book),
    new NeverRevealedCheck(this.book),
  ];
  /** The advanced rules' checks (A3, A5-A8) and the derived events': each sees every event before and after it. */
  private readonly advanced: readonly AdvancedCheck[] = [
    this.scouting,
    new WarChestAudit(this.reportAdvanced),
    new SupportUseAudit(this.reportAdvanced),
    new TitanDamageAudit(this.reportAdvanced),
    new CommandersAudit(this.reportAdvanced),
    new ModelBattleAudit(this.reportAdvanced),
    this.derived,
  ];
  /** D2: signatures, envelopes and recorded times (replays/audit-d2-signatures.ts), campaign-wide. */
  private readonly signatures: SignatureAudit;
  private readonly signed: Finding[] = [];
  private readonly checks: readonly AdvancedCheck[];

  constructor(private readonly stream: string) {
    // Filed after the derived audit's (finish): what the rules derive is named by its rule there, and D2's findings
    // about the same events stand beside them.
    this.signatures = new SignatureAudit((finding) => this.signed.push(finding), verifySignature, stream);
    this.checks = [this.book, ...this.basic, ...this.advanced, this.signatures];
  }

  unreadable(problem: UnreadableEvent): void {
    this.loose.push({
      verdict: VERDICTS.unreadable,
      turn: null,
      seqs: [problem.seq],
      detail: `event ${problem.seq}: ${problem.reason}`,
    });
  }

  /** A head a player recorded must still be in the log, at its seq when the seq is known. */
  checkHead(head: RecordedHead, events: readonly AuditEvent[]): void {
    const hash = head.hash.toLowerCase();
    const named = hash.length === 64 ? hash : `${hash}...`;
    if (head.seq !== undefined) {
      const event = events.find((e) => e.seq === head.seq);
      if (!event) {
        this.loose.push({
          verdict: VERDICTS.headNotFound,
          turn: null,
          seqs: [head.seq],
          detail: `the recorded head ${named} was event ${head.seq}, but the log has no event ${head.seq}: it was cut`,
        });
      } else if (!event.hash?.startsWith(hash)) {
        this.loose.push({
          verdict: VERDICTS.headNotFound,
          turn: null,
          seqs: [head.seq],
          detail: `event ${head.seq} has hash ${short(event.hash ?? "")}..., not the recorded ${named}: the log up to seq ${head.seq} was rewritten`,
        });
      }
      return;
    }
    if (!events.some((e) => e.hash?.startsWith(hash))) {
      this.loose.push({
        verdict: VERDICTS.headNotFound,
        turn: null,
        seqs: [],
        detail: `no event of the log has the recorded head hash ${named}: the log was rewritten or cut`,
      });
    }
  }

  take(event: AuditEvent): void {
    try {
      for (const check of this.checks) check.before(event, this.state);
    } catch (error) {
      this.report(this.book.current, {
        verdict: VERDICTS.unfit,
        seqs: [event.seq],
        detail: `${event.type} (seq ${event.seq}) cannot be audited: ${(error as Error).message}`,
      });
    }
    this.book.activation = null;
    if (this.book.current) this.book.current.lastSeq = event.seq;
    try {
      this.state = evolve(this.state, event);
      for (const check of this.checks) check.after?.(event, this.state);
    } catch (error) {
      this.report(null, {
        verdict: VERDICTS.unfit,
        seqs: [event.seq],
        detail: `${event.type} (seq ${event.seq}) cannot be folded into the campaign as it stood: ${(error as Error).message}`,
      });
    }
  }

  /** Adds a finding to a turn's section, or to the campaign-wide ones. */
  private report(turn: TurnWork | null, finding: Omit<Finding, "turn">): void {
    if (turn) turn.findings.push({ ...finding, turn: turn.turn });
    else this.loose.push({ ...finding, turn: null });
  }

  finish(chain: VerifyResult, count: number): AuditReport {
    this.signatures.finish();
    const turns = [...this.book.turns.values()].map((turn) => this.finishTurn(turn));
    const chainAudit: ChainAudit = chain.ok
      ? { ok: true, events: chain.events, headHash: chain.headHash, verdict: "ok" }
      : {
          ok: false,
          seq: chain.seq,
          problem: chain.problem,
          message: chain.message,
          verdict: `chain broken at seq ${chain.seq}`,
        };
    const loose = [...this.loose];
    if (!chain.ok)
      loose.unshift({
        verdict: VERDICTS.chainBroken,
        turn: null,
        seqs: [chain.seq],
        detail: `${chain.problem}: ${chain.message}`,
      });
    this.derived.file(turns, loose);
    for (const finding of this.signed) {
      const turn = turns.find((t) => t.turn === finding.turn);
      (turn ? turn.findings : loose).push(turn ? finding : { ...finding, turn: null });
    }
    for (const turn of turns) turn.findings.sort((a, b) => (a.seqs[0] ?? 0) - (b.seqs[0] ?? 0));
    const findings = [...loose, ...turns.flatMap((t) => t.findings)].sort(
      (a, b) => (a.seqs[0] ?? 0) - (b.seqs[0] ?? 0),
    );
    return {
      campaign: this.book.campaign ?? this.stream,
      stream: this.stream,
      events: count,
      chain: chainAudit,
      turnFilter: null,
      turns,
      findings,
      signatures: this.signatures.summary,
      pending: countPending(turns),
      ok: findings.length === 0,
    };
  }

  /** A turn's section: each check judges the turn's armies, then the turn; the scouting rolls join its rolls. */
  private finishTurn(turn: TurnWork): TurnAudit {
    const closing = turn.actionEnded?.seq ?? turn.ended?.seq ?? turn.abandonedAt;
    const seed = turnSeed(turn);
    const armies = [...turn.activations.values()]
      .sort((a, b) => a.seq - b.seq)
      .map((activation) => this.finishArmy(turn, activation, closing));
    const section: TurnSection = { seed, hostSeedStatus: "pending", hostSeedVerdict: "", rolls: [], armies, closing };
    for (const check of this.basic) check.finishTurn?.(turn, section, this.state);
    const scouting = this.scouting.finishTurn({
      campaign: this.book.campaign ?? "",
      turn: turn.turn,
      revealedSeed: turn.ended?.hostSeed ?? null,
      seed,
      ...(turn.reseeded ? { reseededSeq: turn.reseeded.seq } : {}),
    });
    for (const finding of scouting.findings) this.report(turn, finding);

    turn.findings.sort((a, b) => (a.seqs[0] ?? 0) - (b.seqs[0] ?? 0));
    const closed = turn.ended !== null || turn.abandonedAt !== null;
    return {
      turn: turn.turn,
      state: turn.ended ? "ended" : closed ? "abandoned" : "under way",
      firstSeq: turn.firstSeq,
      lastSeq: turn.lastSeq,
      commitments: turn.starts,
      hostSeed: turn.ended ? { seq: turn.ended.seq, seed: turn.ended.hostSeed } : null,
      hostSeedStatus: section.hostSeedStatus,
      hostSeedVerdict: section.hostSeedVerdict,
      playerSeeds: turn.seeds,
      rolls: [...section.rolls, ...scouting.rolls].sort((a, b) => a.seq - b.seq),
      armies,
      findings: turn.findings,
    };
  }

  private finishArmy(turn: TurnWork, activation: ActivationWork, closing: number | null): ArmyAudit {
    const judgement: ArmyJudgement = { failures: [...activation.failures], closing, allowed: null, pending: false };
    for (const check of this.basic) check.finishArmy?.(turn, activation, judgement, this.state);
    const unique = [...new Set(judgement.failures)];
    const status: Status = unique.length > 0 ? "failed" : judgement.pending ? "pending" : "ok";
    return {
      army: activation.army,
      player: activation.player,
      activation: {
        seq: activation.seq,
        commitment: activation.commitment,
        rate: activation.rate,
        derivedRate: activation.derivedRate,
        engaged: activation.engaged,
        stacked: activation.stacked,
      },
      reveal: activation.reveal
        ? { seq: activation.reveal.seq, order: activation.reveal.order, salt: activation.reveal.salt }
        : null,
      badReveals: activation.badReveals,
      moves: activation.moves,
      squares: activation.moves.reduce((sum, move) => sum + move.path.length, 0),
      allowed: judgement.allowed,
      status,
      verdicts: status === "failed" ? unique : [judgement.pending ? PENDING_REVEAL : VERDICTS.ok],
    };
  }
}
