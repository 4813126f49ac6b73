import type { Order, Square } from "../events/common.js";
import type { EventData } from "../events/index.js";
import { evolve } from "../projections/campaign.js";
import { initialState, type CampaignState } from "../projections/state.js";
import { orderCommitment } from "../src/commitments.js";
import { rollInitiative } from "../src/dice.js";
import { sha256Hex } from "../src/log/hash.js";
import type { VerifyResult } from "../src/log/verify.js";
import { squaresPaid, stepPricing, type StepPricing } from "../src/rules/terrain-costs.js";
import type { AdvancedCheck, AdvancedFinding } from "./audit-advanced.js";
import { CommandersAudit } from "./audit-commanders.js";
import { DerivedAudit } from "./audit-derived.js";
import {
  PENDING_REVEAL,
  PENDING_SEED,
  VERDICTS,
  type ArmyAudit,
  type AuditEvent,
  type AuditInput,
  type AuditOptions,
  type AuditReport,
  type ChainAudit,
  type Finding,
  type InitiativeRollAudit,
  type RecordedHead,
  type Status,
  type TurnAudit,
  type TurnSeed,
  type UnreadableEvent,
  type Verdict,
} from "./audit-report.js";
import { ScoutingAudit } from "./audit-scouting.js";
import { PlayerSeedAudit } from "./audit-seeds.js";
import { SupportUseAudit } from "./audit-support.js";
import { TitanDamageAudit } from "./audit-titans.js";
import { WarChestAudit } from "./audit-war-chest.js";

export * from "./audit-report.js";

/**
 * The audit (D1, T3-T5, docs/fair-dice.md): a pure function over a campaign's events and the result of verifying its
 * chain. It re-derives everything from the events' data: every commitment is recomputed from the revealed order and
 * salt, every move is measured against the revealed order and the army's move rate, the T3 alternation is replayed,
 * every roll is recomputed from the seeds once the host has revealed its own, and the host's seed is checked against
 * its commitment. The engine's own verdict events (RevealRejected, OrderViolated, ActionPhaseEnded.withheld) are only
 * cross-checked, never trusted. The projection (projections/) is used for what the log means (where armies stand,
 * their move rates). Of the rules (src/rules) only the advanced ones' prices and tables are used: A4's terrain costs,
 * A8's income table, A6's command limits; the advanced checks live in
 * replays/audit-{scouting,war-chest,support,titans,commanders}.ts.
 */

// ---------------------------------------------------------------------------------------------------------------

const ORDER_WORDS: Record<Order, string> = { firstFire: "First Fire", advance: "Advance", charge: "Charge", fortify: "Fortify" };
const short = (hex: string) => hex.slice(0, 12);
const sq = ([x, y]: Square) => `(${x},${y})`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

interface ActivationWork {
  seq: number;
  army: string;
  player: string;
  commitment: string;
  rate: number;
  derivedRate: number | null;
  engaged: boolean;
  stacked: boolean;
  reveal: { seq: number; order: Order; salt: string; late: boolean } | null;
  badReveals: Array<{ seq: number; type: "RevealRejected" | "OrderRevealed"; order: Order }>;
  moves: Array<{ seq: number; from: Square; path: Square[] }>;
  failures: Verdict[];
}

interface RollWork {
  seq: number;
  firstDie: number;
  diceBefore: number;
  rounds: Array<Record<string, number>>;
  winner: string;
  /** The seeds in force when the roll was made, per player. */
  seeds: Map<string, { seed: string; seq: number }>;
  /** The TurnStarted whose commitment was in force. */
  commitmentSeq: number | null;
  formProblem: string | null;
}

interface EngineViolation {
  seq: number;
  army: string;
  rule: string;
  order: Order;
  evidenceSeq: number;
}

interface TurnWork {
  turn: number;
  firstSeq: number;
  lastSeq: number;
  starts: Array<{ seq: number; hostSeedHash: string }>;
  seeds: Array<{ player: string; seed: string; seq: number }>;
  rolls: RollWork[];
  diceUsed: number;
  first: { seq: number; first: string } | null;
  lastActivator: string | null;
  /** The armies that must be activated this turn (T3), by id, with their owners. */
  acting: Map<string, string>;
  activations: Map<string, ActivationWork>;
  battles: Array<{ seq: number; attacker: string; defender: string }>;
  actionEnded: { seq: number; withheld: string[]; notActivated: string[] } | null;
  /** The seq of the first stall claim of the turn (T5 stall ruling), if any. */
  stallClaimed: number | null;
  ended: { seq: number; hostSeed: string } | null;
  /** The seq of the event that closed the turn without a TurnEnded (a later turn's TurnStarted). */
  abandonedAt: number | null;
  engineViolations: EngineViolation[];
  findings: Finding[];
}

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
    pending += turn.armies.filter((a) => a.status === "pending").length + turn.rolls.filter((r) => r.status === "pending").length;
    if (turn.hostSeedStatus === "pending") pending++;
  }
  return pending;
}

class Auditor {
  private state: CampaignState = initialState;
  private campaign: string | null = null;
  private players: string[] = [];
  private readonly turns = new Map<number, TurnWork>();
  private current: TurnWork | null = null;
  private readonly loose: Finding[] = [];
  private readonly commitments = new Map<string, { seq: number; turn: number; army: string }>();
  private readonly hostCommitments = new Map<string, { seq: number; turn: number }>();
  private readonly playerSeeds = new PlayerSeedAudit((turn, finding) => this.report(this.turns.get(turn) ?? null, finding));
  private readonly reportAdvanced = (finding: AdvancedFinding) => this.report(this.current, finding);
  private readonly scouting = new ScoutingAudit(this.reportAdvanced);
  /** Everything the rules derive, recomputed by replaying the decisions that wrote it (replays/audit-derived.ts). */
  private readonly derived = new DerivedAudit();
  /** The advanced rules' checks (A3, A5-A8): each sees every event with the campaign before it, and after it. */
  private readonly advanced: readonly AdvancedCheck[] = [
    this.scouting,
    new WarChestAudit(this.reportAdvanced),
    new SupportUseAudit(this.reportAdvanced),
    new TitanDamageAudit(this.reportAdvanced),
    new CommandersAudit(this.reportAdvanced),
    this.derived,
  ];

  constructor(private readonly stream: string) {}

  unreadable(problem: UnreadableEvent): void {
    this.loose.push({ verdict: VERDICTS.unreadable, turn: null, seqs: [problem.seq], detail: `event ${problem.seq}: ${problem.reason}` });
  }

  /** A head a player recorded must still be in the log, at its seq when the seq is known. */
  checkHead(head: RecordedHead, events: readonly AuditEvent[]): void {
    const hash = head.hash.toLowerCase();
    const named = hash.length === 64 ? hash : `${hash}...`;
    if (head.seq !== undefined) {
      const event = events.find((e) => e.seq === head.seq);
      if (!event) {
        this.loose.push({ verdict: VERDICTS.headNotFound, turn: null, seqs: [head.seq], detail: `the recorded head ${named} was event ${head.seq}, but the log has no event ${head.seq}: it was cut` });
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
      this.loose.push({ verdict: VERDICTS.headNotFound, turn: null, seqs: [], detail: `no event of the log has the recorded head hash ${named}: the log was rewritten or cut` });
    }
  }

  take(event: AuditEvent): void {
    try {
      this.inspect(event);
      for (const check of this.advanced) check.before(event, this.state);
    } catch (error) {
      this.report(this.current, { verdict: VERDICTS.unfit, seqs: [event.seq], detail: `${event.type} (seq ${event.seq}) cannot be audited: ${(error as Error).message}` });
    }
    if (this.current) this.current.lastSeq = event.seq;
    try {
      this.state = evolve(this.state, event);
      for (const check of this.advanced) check.after?.(event, this.state);
    } catch (error) {
      this.report(null, {
        verdict: VERDICTS.unfit,
        seqs: [event.seq],
        detail: `${event.type} (seq ${event.seq}) cannot be folded into the campaign as it stood: ${(error as Error).message}`,
      });
    }
  }

  /** Adds a finding to the current turn's section, or to the campaign-wide ones. */
  private report(turn: TurnWork | null, finding: Omit<Finding, "turn">): void {
    if (turn) turn.findings.push({ ...finding, turn: turn.turn });
    else this.loose.push({ ...finding, turn: null });
  }

  private inspect(event: AuditEvent): void {
    switch (event.type) {
      case "CampaignCreated":
        this.campaign = event.data.campaign;
        this.players = event.data.players.map((p) => p.id);
        return;
      case "PlayerSeedCommitted":
        return this.playerSeeds.committed(event.seq, event.data, this.current && !this.current.ended ? this.current.turn : null);
      case "TurnStarted":
        this.turnStarted(event.seq, event.data);
        return this.playerSeeds.turnStarted(event.seq, event.data.turn, this.players);
      case "PlayerSeedGiven":
        this.playerSeeds.seedGiven(event.seq, event.data);
        return this.seedGiven(event.seq, event.data);
      case "InitiativeRolled":
        return this.initiativeRolled(event.seq, event.data);
      case "FirstPlayerChosen":
        return this.firstChosen(event.seq, event.data);
      case "ArmyActivated":
        return this.activated(event.seq, event.actor, event.data);
      case "ArmyMoved":
        return this.moved(event.seq, event.data);
      case "BattleStarted":
        this.current?.battles.push({ seq: event.seq, attacker: event.data.attacker, defender: event.data.defender });
        return;
      case "OrderRevealed":
        return this.revealed(event.seq, event.data);
      case "RevealRejected":
        return this.rejected(event.seq, event.data);
      case "OrderViolated":
        this.current?.engineViolations.push({ seq: event.seq, ...event.data });
        return;
      case "ActionPhaseEnded":
        if (this.current && !this.current.actionEnded) {
          this.current.actionEnded = { seq: event.seq, withheld: event.data.withheld, notActivated: event.data.notActivated ?? [] };
        }
        return;
      case "StallClaimed":
        if (this.current) this.current.stallClaimed ??= event.seq;
        return;
      case "TurnEnded":
        return this.turnEnded(event.seq, event.data);
      case "ScoutingRolled":
        return this.scoutingRolled(event.seq, event.data);
      default:
        return;
    }
  }

  // ---------- the host's seed and the players' seeds (D1) ----------

  private turnStarted(seq: number, data: { turn: number; hostSeedHash: string }): void {
    this.openTurn(seq, data);
    const earlier = this.hostCommitments.get(data.hostSeedHash);
    if (earlier && earlier.turn !== data.turn) {
      const revealed = this.turns.get(earlier.turn)?.ended;
      this.report(this.current, {
        verdict: VERDICTS.hostSeedReused,
        seqs: [seq, earlier.seq, ...(revealed ? [revealed.seq] : [])],
        detail:
          `turn ${data.turn} (seq ${seq}) commits to the seed turn ${earlier.turn} committed to (seq ${earlier.seq})` +
          (revealed ? `, which was revealed at seq ${revealed.seq}: the players knew the host seed before giving theirs, and the last could choose its own to suit it` : ""),
      });
    }
    if (!earlier) this.hostCommitments.set(data.hostSeedHash, { seq, turn: data.turn });
  }

  private openTurn(seq: number, data: { turn: number; hostSeedHash: string }): void {
    const previous = this.current;
    if (previous && !previous.ended && previous.turn !== data.turn) {
      previous.abandonedAt = seq;
      this.report(previous, {
        verdict: VERDICTS.hostSeedNeverRevealed,
        seqs: [previous.starts[previous.starts.length - 1]!.seq, seq],
        detail: `turn ${previous.turn} never ended: turn ${data.turn} started (seq ${seq}) without the host revealing the seed it committed to, so its rolls cannot be checked`,
      });
    }
    const existing = this.turns.get(data.turn);
    if (existing) {
      const seen = existing.seeds.filter((s) => s.seq < seq);
      const before = existing.starts[existing.starts.length - 1]!;
      this.report(existing, {
        verdict: VERDICTS.hostRecommitted,
        seqs: [seq, before.seq, ...seen.map((s) => s.seq)],
        detail:
          `a second TurnStarted for turn ${data.turn} (seq ${seq}) replaces the commitment of seq ${before.seq}` +
          (seen.length > 0 ? ` after the players' seeds were given (${seen.map((s) => `${s.player} seq ${s.seq}`).join(", ")})` : "") +
          (existing.ended ? `, after the turn had ended (seq ${existing.ended.seq})` : ""),
      });
      existing.starts.push({ seq, hostSeedHash: data.hostSeedHash });
      this.current = existing;
      return;
    }
    const turn: TurnWork = {
      turn: data.turn,
      firstSeq: seq,
      lastSeq: seq,
      starts: [{ seq, hostSeedHash: data.hostSeedHash }],
      seeds: [],
      rolls: [],
      diceUsed: 0,
      first: null,
      lastActivator: null,
      acting: new Map(),
      activations: new Map(),
      battles: [],
      actionEnded: null,
      stallClaimed: null,
      ended: null,
      abandonedAt: null,
      engineViolations: [],
      findings: [],
    };
    // T3: the armies standing on the map when the turn begins are the ones to activate (armies raised in an End phase
    // act from the next turn; nothing leaves the map during the Action phase).
    for (const army of Object.values(this.state.armies)) {
      if (army.status === "active" && army.at !== null && army.sinceTurn <= data.turn) turn.acting.set(army.id, army.player);
    }
    this.turns.set(data.turn, turn);
    this.current = turn;
  }

  private seedGiven(seq: number, data: { turn: number; player: string; seed: string }): void {
    const turn = this.current;
    if (!turn || turn.turn !== data.turn || turn.ended) {
      this.report(turn && turn.turn === data.turn ? turn : null, {
        verdict: VERDICTS.seedBeforeCommit,
        player: data.player,
        seqs: [seq],
        detail: `${data.player} gave a seed for turn ${data.turn} (seq ${seq}) when the host had no commitment for that turn in force`,
      });
      return;
    }
    turn.seeds.push({ player: data.player, seed: data.seed, seq });
  }

  /** The latest seed of each player given so far in the turn. */
  private seedsNow(turn: TurnWork): Map<string, { seed: string; seq: number }> {
    const seeds = new Map<string, { seed: string; seq: number }>();
    for (const given of turn.seeds) seeds.set(given.player, { seed: given.seed, seq: given.seq });
    return seeds;
  }

  private initiativeRolled(seq: number, data: { turn: number; firstDie: number; rounds: Array<Record<string, number>>; winner: string }): void {
    const turn = this.current;
    if (!turn || turn.ended) {
      this.report(null, { verdict: VERDICTS.rollMismatch, seqs: [seq], detail: `initiative for turn ${data.turn} rolled (seq ${seq}) outside a turn under way` });
      return;
    }
    const earlier = turn.rolls[0];
    if (earlier) {
      this.report(turn, {
        verdict: VERDICTS.rolledTwice,
        seqs: [seq, earlier.seq],
        detail: `initiative for turn ${turn.turn} was rolled again (seq ${seq}) after seq ${earlier.seq}: a roll is made once`,
      });
    }
    const commitment = turn.starts[turn.starts.length - 1]!;
    turn.rolls.push({
      seq,
      firstDie: data.firstDie,
      diceBefore: turn.diceUsed,
      rounds: data.rounds,
      winner: data.winner,
      seeds: this.seedsNow(turn),
      commitmentSeq: commitment.seq,
      formProblem: data.turn === turn.turn ? this.initiativeForm(data.rounds, data.winner) : `it names turn ${data.turn} in turn ${turn.turn}`,
    });
    turn.diceUsed += data.rounds.length * this.players.length;
  }

  /** A3, D1: a scouting roll draws the turn's next dice, four a round; the scouting check recomputes them. */
  private scoutingRolled(seq: number, data: EventData<"ScoutingRolled">): void {
    const turn = this.current;
    if (!turn || turn.ended || turn.turn !== data.turn) {
      this.report(turn ?? null, { verdict: VERDICTS.scoutingMismatch, rule: "A3", seqs: [seq], detail: `scouting ${data.scouting} rolled (seq ${seq}) outside turn ${data.turn} under way` });
      return;
    }
    const seeds = this.seedsNow(turn);
    const playerSeeds = this.players.map((player) => ({ player, seed: seeds.get(player)?.seed ?? null, seq: seeds.get(player)?.seq ?? null }));
    this.scouting.rolled(seq, data, { diceBefore: turn.diceUsed, playerSeeds });
    turn.diceUsed = Math.max(turn.diceUsed, data.firstDie + 4 * data.rounds.length);
  }

  /** T2: what makes recorded rounds impossible whatever the seeds: a missing die, a reroll after a win, a tie last. */
  private initiativeForm(rounds: ReadonlyArray<Record<string, number>>, winner: string): string | null {
    for (const [i, round] of rounds.entries()) {
      const keys = Object.keys(round);
      if (keys.length !== this.players.length || !this.players.every((p) => Number.isInteger(round[p]))) {
        return `round ${i + 1} does not give exactly one die to each player`;
      }
      const values = this.players.map((p) => round[p]!);
      const tie = new Set(values).size !== values.length;
      if (i < rounds.length - 1 && !tie) return `round ${i + 1} is not a tie, yet it was rerolled`;
      if (i === rounds.length - 1 && tie) return "the last round is a tie, yet nobody rerolled";
    }
    const last = rounds[rounds.length - 1];
    if (!last) return "it has no rounds";
    const best = this.players.reduce((a, b) => (last[b]! > last[a]! ? b : a));
    return best === winner ? null : `it names ${winner} the winner, but ${best} rolled highest`;
  }

  private firstChosen(seq: number, data: { chosenBy: string; first: string }): void {
    const turn = this.current;
    if (!turn || turn.ended) return;
    const roll = turn.rolls[0];
    const problem = !roll
      ? "before initiative was rolled"
      : data.chosenBy !== roll.winner
        ? `by ${data.chosenBy}, but ${roll.winner} won the initiative (seq ${roll.seq})`
        : turn.first
          ? `a second time (first chosen at seq ${turn.first.seq})`
          : !this.players.includes(data.first)
            ? `naming ${data.first}, who is not a player`
            : null;
    if (problem) {
      this.report(turn, { verdict: VERDICTS.firstChosenWrongly, player: data.chosenBy, seqs: [seq, ...(roll ? [roll.seq] : [])], detail: `who activates first was chosen ${problem}` });
    }
    if (!turn.first) turn.first = { seq, first: data.first };
  }

  // ---------- activations and moves (T3, T4, M1) ----------

  private activated(seq: number, actor: string, data: EventData<"ArmyActivated">): void {
    const turn = this.current;
    const army = this.state.armies[data.army];
    const home = army ? this.state.homeBases[army.player] : undefined;
    const stacked =
      army?.at != null &&
      home !== undefined &&
      home.at[0] === army.at[0] &&
      home.at[1] === army.at[1] &&
      Object.values(this.state.armies).some(
        (other) => other.id !== army.id && other.player === army.player && other.status === "active" && other.at !== null && other.at[0] === army.at![0] && other.at[1] === army.at![1],
      );
    const work: ActivationWork = {
      seq,
      army: data.army,
      player: data.player,
      commitment: data.commitment,
      rate: data.rate,
      derivedRate: army ? army.moveRate : null,
      engaged: data.engaged,
      stacked,
      reveal: null,
      badReveals: [],
      moves: [],
      failures: [],
    };
    const outOfTurn = (why: string, seqs: number[] = []) => {
      work.failures.push(VERDICTS.outOfTurn);
      this.report(turn ?? null, { verdict: VERDICTS.outOfTurn, army: data.army, player: data.player, seqs: [seq, ...seqs], detail: `${data.army} (${data.player}) was activated at seq ${seq} ${why}` });
    };

    const reused = this.commitments.get(data.commitment);
    if (reused) {
      work.failures.push(VERDICTS.commitmentReused);
      this.report(turn ?? null, {
        verdict: VERDICTS.commitmentReused,
        army: data.army,
        player: data.player,
        seqs: [seq, reused.seq],
        detail: `${data.army}'s commitment ${short(data.commitment)} (seq ${seq}) is the one ${reused.army} gave in turn ${reused.turn} (seq ${reused.seq}): a commitment binds one army in one turn, so no honest reveal can match it`,
      });
    } else {
      this.commitments.set(data.commitment, { seq, turn: turn?.turn ?? data.turn, army: data.army });
    }

    if (!turn || turn.ended || turn.actionEnded) {
      outOfTurn(turn?.actionEnded ? `after the Action phase of turn ${turn.turn} ended (seq ${turn.actionEnded.seq})` : "outside a turn's Action phase");
      if (turn && !turn.activations.has(data.army)) turn.activations.set(data.army, work);
      return;
    }
    const before = turn.activations.get(data.army);
    if (before) {
      outOfTurn(`a second time this turn (first at seq ${before.seq}): each army is activated once a turn`, [before.seq]);
      before.failures.push(VERDICTS.outOfTurn);
      return;
    }
    turn.activations.set(data.army, work);

    if (data.turn !== turn.turn) return outOfTurn(`naming turn ${data.turn} during turn ${turn.turn}`);
    if (!army || army.player !== data.player) return outOfTurn(army ? `by ${data.player}, but it belongs to ${army.player}` : "but no such army is on the roster");
    if (actor !== data.player) return outOfTurn(`by ${actor}, on behalf of its owner ${data.player}`);
    if (!turn.acting.has(data.army)) return outOfTurn(`but it was not on the map when turn ${turn.turn} began`);
    if (!turn.first) return outOfTurn("before the initiative winner chose who activates first");

    // Engaged-activation ruling: the defender of a battle started this turn gives its order out of sequence.
    const battle = turn.battles.find((b) => b.defender === data.army);
    if (battle) {
      work.engaged = true;
      return;
    }
    if (data.engaged) return outOfTurn("as an engaged defender, but no battle this turn was started against it");

    const remaining = new Map<string, number>();
    for (const [id, owner] of turn.acting) if (!turn.activations.has(id) || id === data.army) remaining.set(owner, (remaining.get(owner) ?? 0) + 1);
    const expected = alternate(this.players, turn.first.first, turn.lastActivator, remaining);
    if (expected !== data.player) {
      const why = turn.lastActivator === null ? `${turn.first.first} opens (chosen at seq ${turn.first.seq})` : `${turn.lastActivator} activated last and players alternate`;
      outOfTurn(`when it was ${expected ?? "nobody"}'s turn to activate: ${why}`, [turn.first.seq]);
    }
    // A forged activation still happened: the alternation goes on from it.
    turn.lastActivator = data.player;
  }

  private moved(seq: number, data: EventData<"ArmyMoved">): void {
    const turn = this.current;
    const activation = turn?.activations.get(data.army);
    const army = this.state.armies[data.army];
    if (!turn || !activation || turn.ended) {
      this.report(turn ?? null, {
        verdict: VERDICTS.movedUnactivated,
        army: data.army,
        ...(army ? { player: army.player } : {}),
        seqs: [seq],
        detail: `${data.army} moved ${plural(data.path.length, "square")} (seq ${seq}) without an activation this turn`,
      });
      return;
    }
    activation.moves.push({ seq, from: data.from, path: data.path });
    const map = this.state.setup?.map;
    let previous = army?.at ?? null;
    const problems: string[] = [];
    if (!previous || previous[0] !== data.from[0] || previous[1] !== data.from[1]) {
      problems.push(`it starts from ${sq(data.from)} but the army stood at ${previous ? sq(previous) : "no square"}`);
    }
    previous = data.from;
    for (const [i, step] of data.path.entries()) {
      if (map && (step[0] >= map.width || step[1] >= map.height)) problems.push(`step ${i + 1} ${sq(step)} is off the map`);
      if (Math.abs(step[0] - previous[0]) + Math.abs(step[1] - previous[1]) !== 1) problems.push(`step ${i + 1} ${sq(previous)}->${sq(step)} is not orthogonal`);
      previous = step;
    }
    if (problems.length > 0) {
      activation.failures.push(VERDICTS.illegalPath);
      this.report(turn, { verdict: VERDICTS.illegalPath, army: data.army, player: activation.player, seqs: [seq, activation.seq], detail: `${data.army}'s move (seq ${seq}): ${problems.join("; ")}` });
    }
  }

  // ---------- reveals (T5) ----------

  private revealed(seq: number, data: { turn: number; army: string; order: Order; salt: string }): void {
    const turn = this.current;
    const activation = turn?.activations.get(data.army);
    if (!turn || !activation) {
      this.report(turn ?? null, {
        verdict: VERDICTS.revealMismatch,
        army: data.army,
        seqs: [seq],
        detail: `${data.army}'s order was revealed as ${ORDER_WORDS[data.order]} (seq ${seq}) but it has no activation this turn to match`,
      });
      return;
    }
    const recomputed = orderCommitment({ campaign: this.campaign ?? "", turn: data.turn, army: data.army, order: data.order, salt: data.salt });
    if (recomputed !== activation.commitment) {
      activation.badReveals.push({ seq, type: "OrderRevealed", order: data.order });
      activation.failures.push(VERDICTS.revealMismatch);
      this.report(turn, {
        verdict: VERDICTS.revealMismatch,
        army: data.army,
        player: activation.player,
        seqs: [seq, activation.seq],
        detail: `the log accepts ${ORDER_WORDS[data.order]} for ${data.army} (OrderRevealed seq ${seq}), but order and salt hash to ${short(recomputed)}, not the commitment ${short(activation.commitment)} of seq ${activation.seq}`,
      });
      return;
    }
    if (activation.reveal) return; // the same order again: nothing new
    activation.reveal = { seq, order: data.order, salt: data.salt, late: turn.actionEnded !== null || turn.ended !== null };
  }

  private rejected(seq: number, data: { army: string; player: string; order: Order; salt: string }): void {
    const turn = this.current;
    const activation = turn?.activations.get(data.army);
    if (!turn || !activation) {
      this.report(turn ?? null, { verdict: VERDICTS.revealMismatch, army: data.army, player: data.player, seqs: [seq], detail: `a reveal of ${data.army} was rejected (seq ${seq}) but it has no activation this turn` });
      return;
    }
    const recomputed = orderCommitment({ campaign: this.campaign ?? "", turn: turn.turn, army: data.army, order: data.order, salt: data.salt });
    if (recomputed === activation.commitment) {
      this.report(turn, {
        verdict: VERDICTS.unconfirmedBreach,
        army: data.army,
        player: data.player,
        seqs: [seq, activation.seq],
        detail: `RevealRejected (seq ${seq}) says ${data.player}'s reveal of ${ORDER_WORDS[data.order]} for ${data.army} does not match, but it recomputes to the commitment of seq ${activation.seq}`,
      });
      return;
    }
    activation.badReveals.push({ seq, type: "RevealRejected", order: data.order });
    activation.failures.push(VERDICTS.revealMismatch);
    this.report(turn, {
      verdict: VERDICTS.revealMismatch,
      army: data.army,
      player: data.player,
      seqs: [seq, activation.seq],
      detail: `${data.player} revealed ${ORDER_WORDS[data.order]} for ${data.army} (seq ${seq}); order and salt hash to ${short(recomputed)}, not the commitment ${short(activation.commitment)} of seq ${activation.seq}`,
    });
  }

  private turnEnded(seq: number, data: { turn: number; hostSeed: string }): void {
    const turn = this.current;
    if (!turn || turn.ended || turn.turn !== data.turn) {
      this.report(null, { verdict: VERDICTS.hostSeedMismatch, seqs: [seq], detail: `turn ${data.turn} ended (seq ${seq}) with no commitment of that turn in force` });
      return;
    }
    turn.ended = { seq, hostSeed: data.hostSeed };
    const commitment = turn.starts[turn.starts.length - 1]!;
    const hash = sha256Hex(data.hostSeed);
    if (hash !== commitment.hostSeedHash) {
      this.report(turn, {
        verdict: VERDICTS.hostSeedMismatch,
        seqs: [seq, commitment.seq],
        detail: `the seed revealed in TurnEnded (seq ${seq}) hashes to ${short(hash)}, not the ${short(commitment.hostSeedHash)} committed in TurnStarted (seq ${commitment.seq})`,
      });
    }
  }

  // ---------- the report ----------

  finish(chain: VerifyResult, count: number): AuditReport {
    const turns = [...this.turns.values()].map((turn) => this.finishTurn(turn));
    const chainAudit: ChainAudit = chain.ok
      ? { ok: true, events: chain.events, headHash: chain.headHash, verdict: "ok" }
      : { ok: false, seq: chain.seq, problem: chain.problem, message: chain.message, verdict: `chain broken at seq ${chain.seq}` };
    const loose = [...this.loose];
    if (!chain.ok) loose.unshift({ verdict: VERDICTS.chainBroken, turn: null, seqs: [chain.seq], detail: `${chain.problem}: ${chain.message}` });
    this.derived.file(turns, loose);
    const findings = [...loose, ...turns.flatMap((t) => t.findings)].sort((a, b) => (a.seqs[0] ?? 0) - (b.seqs[0] ?? 0));
    return {
      campaign: this.campaign ?? this.stream,
      stream: this.stream,
      events: count,
      chain: chainAudit,
      turnFilter: null,
      turns,
      findings,
      pending: countPending(turns),
      ok: findings.length === 0,
    };
  }

  private finishTurn(turn: TurnWork): TurnAudit {
    const closed = turn.ended !== null || turn.abandonedAt !== null;
    const commitment = turn.starts[turn.starts.length - 1]!;
    const seedMatches = turn.ended !== null && sha256Hex(turn.ended.hostSeed) === commitment.hostSeedHash;

    // Host seed
    let hostSeedStatus: Status = "pending";
    let hostSeedVerdict: string = PENDING_SEED;
    if (turn.ended) {
      hostSeedStatus = seedMatches ? "ok" : "failed";
      hostSeedVerdict = seedMatches ? VERDICTS.ok : VERDICTS.hostSeedMismatch;
    } else if (turn.abandonedAt !== null) {
      hostSeedStatus = "failed";
      hostSeedVerdict = VERDICTS.hostSeedNeverRevealed;
    }
    if (turn.starts.length > 1 && hostSeedStatus !== "failed") {
      hostSeedStatus = "failed";
      hostSeedVerdict = VERDICTS.hostRecommitted;
    }
    if (turn.findings.some((f) => f.verdict === VERDICTS.hostSeedReused) && hostSeedStatus !== "failed") {
      hostSeedStatus = "failed";
      hostSeedVerdict = VERDICTS.hostSeedReused;
    }

    // Player seeds in force: the latest of each player before the roll (or now), given after the commitment in force.
    const seed = turnSeed(turn, seedMatches);
    const rolls = turn.rolls.map((roll) => this.finishRoll(turn, roll, seed));
    const seedsUsed = turn.rolls[0]?.seeds ?? this.seedsNow(turn);
    const inForce = turn.rolls[0]?.commitmentSeq ?? commitment.seq;
    for (const [player, given] of seedsUsed) {
      if (given.seq < inForce) {
        this.report(turn, {
          verdict: VERDICTS.seedBeforeCommit,
          player,
          seqs: [given.seq, inForce],
          detail: `${player}'s seed in use (seq ${given.seq}) was given before the host's commitment in force (TurnStarted seq ${inForce}): the host chose its seed knowing it`,
        });
      }
    }

    // Armies
    const closing = turn.actionEnded?.seq ?? turn.ended?.seq ?? turn.abandonedAt;
    const armies = [...turn.activations.values()].sort((a, b) => a.seq - b.seq).map((activation) => this.finishArmy(turn, activation, closing ?? null));
    if (closing !== null && closing !== undefined) {
      for (const [army, player] of turn.acting) {
        if (turn.activations.has(army)) continue;
        // Stall ruling: an army the host's close of a claimed stall lists as not activated was kept from it.
        const keptByStall = turn.stallClaimed !== null && turn.stallClaimed < closing && turn.actionEnded?.notActivated.includes(army);
        if (keptByStall) continue;
        this.report(turn, {
          verdict: VERDICTS.neverActivated,
          army,
          player,
          seqs: [closing],
          detail: `${army} (${player}) stood on the map but was not activated before the Action phase of turn ${turn.turn} ended (seq ${closing}): each army is activated once a turn`,
        });
      }
    }
    this.crossCheck(turn, armies);
    const scouting = this.scouting.finishTurn({ campaign: this.campaign ?? "", turn: turn.turn, revealedSeed: turn.ended?.hostSeed ?? null, seed });
    for (const finding of scouting.findings) this.report(turn, finding);

    turn.findings.sort((a, b) => (a.seqs[0] ?? 0) - (b.seqs[0] ?? 0));
    return {
      turn: turn.turn,
      state: turn.ended ? "ended" : closed ? "abandoned" : "under way",
      firstSeq: turn.firstSeq,
      lastSeq: turn.lastSeq,
      commitments: turn.starts,
      hostSeed: turn.ended ? { seq: turn.ended.seq, seed: turn.ended.hostSeed } : null,
      hostSeedStatus,
      hostSeedVerdict,
      playerSeeds: turn.seeds,
      rolls: [...rolls, ...scouting.rolls].sort((a, b) => a.seq - b.seq),
      armies,
      findings: turn.findings,
    };
  }

  private finishRoll(turn: TurnWork, roll: RollWork, seed: TurnSeed): InitiativeRollAudit {
    const campaign = this.campaign ?? "";
    const playerSeeds = this.players.map((player) => {
      const given = roll.seeds.get(player);
      return { player, seed: given?.seed ?? null, seq: given?.seq ?? null };
    });
    const base = {
      kind: "initiative" as const,
      seq: roll.seq,
      firstDie: roll.firstDie,
      lastDie: roll.firstDie + roll.rounds.length * this.players.length - 1,
      rounds: roll.rounds,
      winner: roll.winner,
      inputs: { campaign, turn: turn.turn, hostSeed: turn.ended?.hostSeed ?? null, playerSeeds },
    };
    const fail = (verdict: Verdict, detail: string | null, recomputed: InitiativeRollAudit["recomputed"] = null): InitiativeRollAudit => {
      if (detail) this.report(turn, { verdict, seqs: [roll.seq, ...(turn.ended ? [turn.ended.seq] : [])], detail });
      return { ...base, recomputed, status: "failed", verdict };
    };
    const where = `initiative (seq ${roll.seq})`;
    if (roll.formProblem) return fail(VERDICTS.rollMismatch, `${where} is not a possible roll: ${roll.formProblem}`);
    if (roll.firstDie !== roll.diceBefore) {
      return fail(VERDICTS.rollMismatch, `${where} uses dice from index ${roll.firstDie}, but ${roll.diceBefore} dice of turn ${turn.turn} had been drawn before it: the host may not pick which dice to use`);
    }
    const missing = playerSeeds.filter((s) => s.seed === null).map((s) => s.player);
    if (missing.length > 0) return fail(VERDICTS.rollMismatch, `${where} was made before ${missing.join(" and ")} gave a seed`);
    if (seed.hostSeed === null) return seed.status === "pending" ? { ...base, recomputed: null, status: "pending", verdict: seed.verdict } : fail(seed.verdict, null);
    const seeds = { campaign, turn: turn.turn, hostSeed: seed.hostSeed, playerSeeds: playerSeeds.map((s) => s.seed!) };
    const recomputed = rollInitiative(seeds, this.players, roll.firstDie);
    const same =
      recomputed.length === roll.rounds.length &&
      recomputed.every((round, i) => this.players.every((p) => round[p] === roll.rounds[i]![p])) &&
      this.players.reduce((a, b) => (recomputed[recomputed.length - 1]![b]! > recomputed[recomputed.length - 1]![a]! ? b : a)) === roll.winner;
    if (!same) {
      return fail(VERDICTS.rollMismatch, `${where} records ${describeRounds(this.players, roll.rounds)} but the seeds give ${describeRounds(this.players, recomputed)} (host seed revealed at seq ${seed.endedSeq})`, recomputed);
    }
    return { ...base, recomputed, status: "ok", verdict: VERDICTS.ok };
  }

  private finishArmy(turn: TurnWork, activation: ActivationWork, closing: number | null): ArmyAudit {
    const { army, player, reveal } = activation;
    const rate = activation.derivedRate ?? activation.rate;
    const squares = activation.moves.reduce((sum, move) => sum + move.path.length, 0);
    const moveSeqs = activation.moves.map((m) => m.seq);
    const failures = [...activation.failures];
    const fail = (verdict: Verdict, seqs: number[], detail: string) => {
      failures.push(verdict);
      this.report(turn, { verdict, army, player, seqs, detail });
    };
    const revealSeqs = reveal ? [reveal.seq] : [];
    const rateNote = activation.derivedRate !== null && activation.derivedRate !== activation.rate ? ` (the activation recorded rate ${activation.rate}, the roster gives ${rate})` : "";

    const pricing = this.state.setup ? stepPricing(this.state.setup) : null;
    const path = activation.moves.flatMap((move) => move.path);
    let allowed: number | null = null;
    if (activation.engaged) allowed = 0;
    else if (reveal) allowed = pricedAllowance(pricing, reveal.order, rate, path);
    const chargeAllows = pricedAllowance(pricing, "charge", rate, path);
    const terms = pricing?.byTerrain ? " at terrain costs (A4)" : "";

    if (squares > 0 && reveal && (reveal.order === "firstFire" || reveal.order === "fortify")) {
      fail(VERDICTS.movedStationary, [...moveSeqs, ...revealSeqs, activation.seq], `${army} moved ${plural(squares, "square")} (seq ${moveSeqs.join(", ")}) on ${ORDER_WORDS[reveal.order]}, which may not move (revealed seq ${reveal.seq})`);
    } else if (activation.engaged && squares > 0) {
      fail(VERDICTS.movedTooFar, [...moveSeqs, activation.seq], `${army} moved ${plural(squares, "square")} (seq ${moveSeqs.join(", ")}) although it was attacked before its activation and is pinned`);
    } else if (allowed !== null && squares > allowed) {
      fail(VERDICTS.movedTooFar, [...moveSeqs, ...revealSeqs, activation.seq], `${army} moved ${plural(squares, "square")} (seq ${moveSeqs.join(", ")}) on ${ORDER_WORDS[reveal!.order]}, which allows ${allowed}${terms} at move rate ${rate}${rateNote} (revealed seq ${reveal!.seq})`);
    } else if (allowed === null && squares > chargeAllows) {
      fail(VERDICTS.movedTooFar, [...moveSeqs, activation.seq], `${army} moved ${plural(squares, "square")} (seq ${moveSeqs.join(", ")}): no order allows more than ${chargeAllows}${terms} at move rate ${rate}${rateNote}`);
    }
    if (activation.stacked && reveal && (reveal.order === "firstFire" || reveal.order === "fortify")) {
      fail(VERDICTS.stackedStayed, [activation.seq, reveal.seq], `${army} began its activation (seq ${activation.seq}) stacked on its home base and took ${ORDER_WORDS[reveal.order]} (revealed seq ${reveal.seq}): a stacked army must take Advance or Charge`);
    }

    const inTime = reveal !== null && !reveal.late;
    let pending = false;
    // Stall ruling: an attacker whose defender never gave its order, when the host closed a claimed stall, could not
    // reveal its own (T5).
    const stalledClose = turn.stallClaimed !== null && closing !== null && turn.stallClaimed < closing;
    const couldNotReveal =
      stalledClose && turn.battles.some((battle) => battle.attacker === army && !turn.activations.has(battle.defender));
    if (!inTime && !couldNotReveal) {
      if (closing !== null) {
        const recorded = turn.actionEnded?.withheld.includes(army) ?? false;
        fail(
          VERDICTS.neverRevealed,
          [activation.seq, closing, ...revealSeqs],
          `${army}'s order (activated seq ${activation.seq}) had no matching reveal when the Action phase ended (seq ${closing})` +
            (reveal ? `; it was revealed only afterwards (seq ${reveal.seq})` : "") +
            (recorded ? "" : "; the log's ActionPhaseEnded does not list it as withheld"),
        );
      } else {
        pending = true;
      }
    }

    const unique = [...new Set(failures)];
    const status: Status = unique.length > 0 ? "failed" : pending ? "pending" : "ok";
    return {
      army,
      player,
      activation: { seq: activation.seq, commitment: activation.commitment, rate: activation.rate, derivedRate: activation.derivedRate, engaged: activation.engaged, stacked: activation.stacked },
      reveal: reveal ? { seq: reveal.seq, order: reveal.order, salt: reveal.salt } : null,
      badReveals: activation.badReveals,
      moves: activation.moves,
      squares,
      allowed,
      status,
      verdicts: status === "failed" ? unique : [pending ? PENDING_REVEAL : VERDICTS.ok],
    };
  }

  /** The engine's own verdict events, checked against what the audit found: a recorded breach must be a real one. */
  private crossCheck(turn: TurnWork, armies: readonly ArmyAudit[]): void {
    const byArmy = new Map(armies.map((a) => [a.army, a]));
    for (const violation of turn.engineViolations) {
      const audited = byArmy.get(violation.army);
      const confirmed =
        audited !== undefined &&
        (violation.rule === "S7"
          ? audited.verdicts.includes(VERDICTS.stackedStayed)
          : audited.verdicts.includes(VERDICTS.movedStationary) || audited.verdicts.includes(VERDICTS.movedTooFar));
      if (!confirmed) {
        this.report(turn, {
          verdict: VERDICTS.unconfirmedBreach,
          army: violation.army,
          ...(audited ? { player: audited.player } : {}),
          seqs: [violation.seq, violation.evidenceSeq],
          detail: `OrderViolated (seq ${violation.seq}, ${violation.rule}) accuses ${violation.army}, but its move and revealed order recompute as allowed`,
        });
      }
    }
    if (turn.actionEnded) {
      for (const army of turn.actionEnded.withheld) {
        const audited = byArmy.get(army);
        if (audited && audited.reveal !== null && !audited.verdicts.includes(VERDICTS.neverRevealed)) {
          this.report(turn, {
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
}


/** The turn's host seed as its rolls are judged on: revealed and matching, still secret, or never (rightly) revealed. */
function turnSeed(turn: TurnWork, seedMatches: boolean): TurnSeed {
  if (!turn.ended) {
    return turn.abandonedAt !== null ? { hostSeed: null, status: "failed", verdict: VERDICTS.hostSeedNeverRevealed } : { hostSeed: null, status: "pending", verdict: PENDING_SEED };
  }
  return seedMatches ? { hostSeed: turn.ended.hostSeed, endedSeq: turn.ended.seq } : { hostSeed: null, status: "failed", verdict: VERDICTS.hostSeedMismatch };
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

/** T3 with the run-out ruling, restated: first opens, then the other player, unless it has no army left to activate. */
function alternate(players: readonly string[], first: string, last: string | null, remaining: ReadonlyMap<string, number>): string | null {
  const left = (player: string) => (remaining.get(player) ?? 0) > 0;
  const candidate = last === null ? first : players.find((p) => p !== last) ?? first;
  if (left(candidate)) return candidate;
  const other = players.find((p) => p !== candidate);
  return other !== undefined && left(other) ? other : null;
}

function describeRounds(players: readonly string[], rounds: ReadonlyArray<Record<string, number>>): string {
  return rounds.map((round) => players.map((p) => `${p} ${round[p] ?? "-"}`).join(" v ")).join(", reroll ");
}

export { describeRounds, ORDER_WORDS };
