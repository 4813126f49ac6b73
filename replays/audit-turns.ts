import type { Order, Square } from "../events/common.js";
import type { CampaignState } from "../projections/state.js";
import type { AdvancedCheck, CheckedEvent } from "./audit-advanced.js";
import { PARENT_LINE_ROLL } from "./audit-report.js";
import type { ArmyAudit, Finding, RollAudit, RollAuditBase, Status, TurnSeed, Verdict } from "./audit-report.js";

/**
 * What the basic checks of the audit (D1, T2-T5, M1, S7) share: the record of each turn as the log tells it (TurnBook),
 * and the shape of a check. A basic check has the advanced checks' shape (`before`/`after` each event); when the report
 * is made it also judges each army's activation (`finishArmy`) and then the turn as a whole (`finishTurn`).
 */

export interface ActivationWork {
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

export interface RollWork {
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

export interface EngineViolation {
  seq: number;
  army: string;
  rule: string;
  order: Order;
  evidenceSeq: number;
}

export interface TurnWork {
  turn: number;
  firstSeq: number;
  lastSeq: number;
  /** The host's commitments to the turn's seed: its TurnStarted's, and on a branch its TurnReseeded's (`reseed`). */
  starts: Array<{ seq: number; hostSeedHash: string; reseed?: true }>;
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
  /**
   * The seq of the first stall claim of the turn (T5 stall ruling), or of the close at the Action phase's deadline
   * (O2), which the ruling treats alike, if any. Whether the deadline had passed is the derived audit's to check: it
   * decides that close again at its recorded time.
   */
  stallClaimed: number | null;
  ended: { seq: number; hostSeed: string } | null;
  /**
   * On a branch forked in this turn (D1): where the host committed to the turn's fresh seed (TurnReseeded), and the
   * die its dice start from. The rolls before it were drawn on the parent line, from the parent's seeds.
   */
  reseeded: { seq: number; fromDie: number } | null;
  /** The seq of the event that closed the turn without a TurnEnded (a later turn's TurnStarted). */
  abandonedAt: number | null;
  engineViolations: EngineViolation[];
  findings: Finding[];
}

/** Files a finding under a turn's section, or among the campaign-wide ones (null). */
export type ReportFinding = (turn: TurnWork | null, finding: Omit<Finding, "turn">) => void;

/** What the checks find of one army's activation when the report is made. */
export interface ArmyJudgement {
  /** The failure verdicts so far, in the order found (the activation's own first). */
  failures: Verdict[];
  /** The seq that closed the turn's Action phase, or null while it is open. */
  closing: number | null;
  /** Squares the revealed order allows (ArmyAudit.allowed). */
  allowed: number | null;
  /** Still waiting for a reveal. */
  pending: boolean;
}

/** A turn's section of the report as the checks fill it in, once its armies are judged. */
export interface TurnSection {
  /** The host seed the turn's rolls are judged on. */
  seed: TurnSeed;
  hostSeedStatus: Status;
  hostSeedVerdict: string;
  rolls: RollAudit[];
  /** The armies' audits, by their activations' seqs. */
  armies: ArmyAudit[];
  closing: number | null;
}

/** A basic check: it sees every event as the advanced checks do, then judges each army and each turn. */
export interface BasicCheck extends AdvancedCheck {
  finishArmy?(turn: TurnWork, activation: ActivationWork, judgement: ArmyJudgement, state: CampaignState): void;
  finishTurn?(turn: TurnWork, section: TurnSection, state: CampaignState): void;
}

/**
 * The record of the campaign's turns that the basic checks fill in and read: the campaign and its players, each turn
 * from its TurnStarted, and the facts no check judges by themselves (battles started, the engine's own verdicts, the
 * close of the Action phase, stall claims). It sees each event before the checks do.
 */
export class TurnBook implements AdvancedCheck {
  campaign: string | null = null;
  players: string[] = [];
  readonly turns = new Map<number, TurnWork>();
  /** The turn the log is in: the latest started. */
  current: TurnWork | null = null;
  /** The activation an ArmyActivated being audited makes, before the checks judge it (the T3 check files it). */
  activation: ActivationWork | null = null;

  constructor(readonly report: ReportFinding) {}

  before(event: CheckedEvent, state: CampaignState): void {
    const turn = this.current;
    switch (event.type) {
      case "CampaignCreated":
        this.campaign = event.data.campaign;
        this.players = event.data.players.map((p) => p.id);
        return;
      case "ArmyActivated":
        this.activation = newActivation(event.seq, event.data, state);
        return;
      case "BattleStarted":
        turn?.battles.push({ seq: event.seq, attacker: event.data.attacker, defender: event.data.defender });
        return;
      case "OrderViolated":
        turn?.engineViolations.push({ seq: event.seq, ...event.data });
        return;
      case "ActionPhaseEnded":
        if (turn && !turn.actionEnded)
          turn.actionEnded = {
            seq: event.seq,
            withheld: event.data.withheld,
            notActivated: event.data.notActivated ?? [],
          };
        return;
      case "StallClaimed":
      case "ActionDeadlineEnforced":
        if (turn) turn.stallClaimed ??= event.seq;
        return;
      case "TurnReseeded":
        // D1 on a branch: the seeds given on the parent line are void; the players give fresh ones.
        if (turn && !turn.ended && turn.turn === event.data.turn) {
          turn.reseeded = { seq: event.seq, fromDie: event.data.fromDie };
          turn.seeds = [];
        }
        return;
      case "OrderRecommitted": {
        // T5 on a branch: the order's reveal must match the fresh commitment, not the parent line's.
        const activation = turn?.activations.get(event.data.army);
        if (activation) activation.commitment = event.data.commitment;
        return;
      }
      default:
        return;
    }
  }

  /** The latest seed of each player given so far in the turn. */
  seedsNow(turn: TurnWork): Map<string, { seed: string; seq: number }> {
    const seeds = new Map<string, { seed: string; seq: number }>();
    for (const given of turn.seeds) seeds.set(given.player, { seed: given.seed, seq: given.seq });
    return seeds;
  }

  /** A roll's player seeds as the audit reports them: each player of the campaign in order, null where none was given. */
  playerSeeds(seeds: Map<string, { seed: string; seq: number }>): RollAuditBase["inputs"]["playerSeeds"] {
    return this.players.map((player) => {
      const given = seeds.get(player);
      return { player, seed: given?.seed ?? null, seq: given?.seq ?? null };
    });
  }

  /** Opens a turn's record: T3, the armies standing on the map when it begins are the ones to activate. */
  open(seq: number, data: { turn: number; hostSeedHash: string }, state: CampaignState): TurnWork {
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
      reseeded: null,
      abandonedAt: null,
      engineViolations: [],
      findings: [],
    };
    // Armies raised in an End phase act from the next turn; nothing leaves the map during the Action phase.
    for (const army of Object.values(state.armies)) {
      if (army.status === "active" && army.at !== null && army.sinceTurn <= data.turn)
        turn.acting.set(army.id, army.player);
    }
    this.turns.set(data.turn, turn);
    this.current = turn;
    return turn;
  }
}

function newActivation(
  seq: number,
  data: { army: string; player: string; commitment: string; rate: number; engaged: boolean },
  state: CampaignState,
): ActivationWork {
  const army = state.armies[data.army];
  const home = army ? state.homeBases[army.player] : undefined;
  const stacked =
    army?.at != null &&
    home !== undefined &&
    home.at[0] === army.at[0] &&
    home.at[1] === army.at[1] &&
    Object.values(state.armies).some(
      (other) =>
        other.id !== army.id &&
        other.player === army.player &&
        other.status === "active" &&
        other.at !== null &&
        other.at[0] === army.at![0] &&
        other.at[1] === army.at![1],
    );
  return {
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
}

export const ORDER_WORDS: Record<Order, string> = {
  firstFire: "First Fire",
  advance: "Advance",
  charge: "Charge",
  fortify: "Fortify",
};
export const short = (hex: string) => hex.slice(0, 12);
export const sq = ([x, y]: Square) => `(${x},${y})`;
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function describeRounds(players: readonly string[], rounds: ReadonlyArray<Record<string, number>>): string {
  return rounds.map((round) => players.map((p) => `${p} ${round[p] ?? "-"}`).join(" v ")).join(", reroll ");
}

/**
 * The seed a roll is judged on: the turn's, or for a roll a branch's turn made before its reseed (D1), none: that
 * roll was drawn from the parent line's seeds, which the branch never holds, and is not judged here.
 */
export function seedOfRoll(reseededSeq: number | undefined, seq: number, seed: TurnSeed): TurnSeed {
  return reseededSeq !== undefined && seq < reseededSeq
    ? { hostSeed: null, status: "pending", verdict: PARENT_LINE_ROLL }
    : seed;
}

/**
 * D1: what makes a roll wrong whatever the seeds give: dice other than the turn's next ones, or a player's seed not yet
 * given. Null when neither.
 */
export function rollOrderProblem(
  where: string,
  roll: { firstDie: number; diceBefore: number },
  turn: number,
  playerSeeds: ReadonlyArray<{ player: string; seed: string | null }>,
): string | null {
  if (roll.firstDie !== roll.diceBefore)
    return `${where} uses dice from index ${roll.firstDie}, but ${roll.diceBefore} dice of turn ${turn} had been drawn before it: the host may not pick which dice to use`;
  const missing = playerSeeds.filter((s) => s.seed === null).map((s) => s.player);
  return missing.length > 0 ? `${where} was made before ${missing.join(" and ")} gave a seed` : null;
}
