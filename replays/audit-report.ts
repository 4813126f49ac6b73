import type { Order, Square } from "../events/common.js";
import type { DomainEvent, StoredEvent } from "../events/index.js";
import type { ScoutingBandName } from "../projections/scouting.js";
import type { ScoutingRound } from "../src/crypto/dice.js";
import type { VerifyResult } from "../src/log/verify.js";
import { ADVANCED_VERDICTS } from "./audit-advanced.js";

/** The audit's report: its verdicts and its shape, which every check of the audit files its findings into. */

/** D1: what the check of the players' seed commitments can find (replays/audit-d1-player-seeds.ts). */
export const SEED_VERDICTS = {
  seedUncommitted: "player seed not committed before the host committed",
  seedCommitMismatch: "player seed does not match its commitment",
  seedCommittedOutOfTurn: "player seed committed while a turn was under way",
} as const;

/** What the recomputation of the rules' derived events (replays/audit-derived.ts) can find. */
export const DERIVED_VERDICTS = {
  derivedMismatch: "derived event does not recompute",
  derivedMissing: "derived event missing",
  derivedUnexpected: "event the rules do not derive",
  derivedRefused: "event the rules refuse",
  afterFinish: "event after the campaign finished",
} as const;
/** D2: what the check of signatures, envelopes and recorded times can find (replays/audit-d2-signatures.ts). */
export const SIGNATURE_VERDICTS = {
  forged: "signed command does not verify",
  unsigned: "unsigned event of a party with a key in force",
  notDecided: "event does not follow from its signed command",
  envelope: "envelope has undocumented members",
  timeBack: "recorded time goes back",
} as const;

/** D2: what the log shows of its signatures, whatever was found wrong. */
export interface SignatureSummary {
  /** Signed commands checked, each against its party's key in force. */
  signed: number;
  /** Events that follow from a signed command, decided again. */
  derived: number;
  /** By party: events of a party with no key in force (every event of a log from before keys): unsigned, not forged. */
  unsigned: Record<string, number>;
  /** Every replacement of a party's key: a warning to every seat, naming whose and when. */
  replacements: Array<{ party: string; seq: number; at: string }>;
  /**
   * Who signed each of the organiser's commands (O1, O2, the T5 close, its key's registration), by its first event:
   * the organiser's own key, the host's (a server signed them before the organiser had a key of its own), or none.
   */
  organiser: Array<{ seq: number; type: string; signedBy: "organiser" | "host" | null }>;
}

/** What the audit can say about an army, a roll or the log. Everything but `ok` and the pending ones is a failure. */
export const VERDICTS = {
  ok: "ok",
  revealMismatch: "reveal does not match commitment",
  movedStationary: "moved although First Fire or Fortify",
  movedTooFar: "moved further than the order allows",
  stackedStayed: "took First Fire or Fortify while stacked on its home base",
  neverRevealed: "never revealed",
  outOfTurn: "activated out of turn or twice",
  neverActivated: "never activated",
  movedUnactivated: "moved without being activated",
  illegalPath: "move is not a path of orthogonal steps from where the army stood",
  firstChosenWrongly: "first player not chosen by the initiative winner",
  rollMismatch: "roll does not recompute",
  rolledTwice: "initiative rolled more than once",
  hostSeedMismatch: "host seed does not match its commitment",
  hostSeedNeverRevealed: "host seed never revealed",
  hostRecommitted: "host re-committed its seed during the turn",
  hostSeedReused: "host seed reused from an earlier turn",
  seedBeforeCommit: "player seed given before the host committed",
  ...SEED_VERDICTS,
  commitmentReused: "commitment reused",
  unconfirmedBreach: "the log records a breach the audit does not confirm",
  unreadable: "event cannot be read",
  unfit: "event does not fit the campaign",
  headNotFound: "recorded head not in the log",
  chainBroken: "chain broken",
  ...ADVANCED_VERDICTS,
  ...DERIVED_VERDICTS,
  ...SIGNATURE_VERDICTS,
} as const;
export type Verdict = (typeof VERDICTS)[keyof typeof VERDICTS];

export const PENDING_REVEAL = "pending: order not yet revealed";
export const PENDING_SEED = "pending: host seed not yet revealed";
/** A roll of a turn a branch reseeded, made before the reseed: its dice are the parent line's (D1). */
export const PARENT_LINE_ROLL = "drawn on the parent line before the fork: checked by the parent line's audit";

export type Status = "ok" | "pending" | "failed";

/** One thing found wrong, with the events that show it (the main one first). */
export interface Finding {
  verdict: Verdict;
  /** The advanced rule the log breaks (A3-A8), for the advanced checks' findings. */
  rule?: string;
  turn: number | null;
  army?: string;
  player?: string;
  seqs: number[];
  detail: string;
}

export interface ArmyAudit {
  army: string;
  player: string;
  activation: {
    seq: number;
    commitment: string;
    /** The move rate the activation recorded, and the one the roster gives (they differ only in a forged log). */
    rate: number;
    derivedRate: number | null;
    engaged: boolean;
    stacked: boolean;
  };
  /** The reveal that matches the commitment, once given. */
  reveal: { seq: number; order: Order; salt: string } | null;
  /** Reveals that did not match: RevealRejected, or an OrderRevealed whose order and salt do not recompute. */
  badReveals: Array<{ seq: number; type: "RevealRejected" | "OrderRevealed"; order: Order }>;
  moves: Array<{ seq: number; from: Square; path: Square[] }>;
  squares: number;
  /**
   * Squares the revealed order allows (0 for an engaged army); with terrain costs (A4), how many leading squares of the
   * path its points pay for. Null while the order is hidden.
   */
  allowed: number | null;
  status: Status;
  /** "ok", a pending note, or the failure verdicts. */
  verdicts: string[];
}

/** What every roll of a turn shows: the dice it drew, the seeds they come from, and its verdict. */
export interface RollAuditBase {
  seq: number;
  firstDie: number;
  /** Index of the last die the roll used. */
  lastDie: number;
  inputs: {
    campaign: string;
    turn: number;
    /** Null until the host reveals it at the end of the turn. */
    hostSeed: string | null;
    /** Player seeds in set-up order, with the seq that gave each. */
    playerSeeds: Array<{ player: string; seed: string | null; seq: number | null }>;
  };
  status: Status;
  verdict: string;
}

export interface InitiativeRollAudit extends RollAuditBase {
  kind: "initiative";
  rounds: Array<Record<string, number>>;
  winner: string;
  /** What the seeds give, once the host seed is known. */
  recomputed: Array<Record<string, number>> | null;
}

/** A3, D1: a scouting roll as the report lists it among its turn's rolls. */
export interface ScoutingRollAudit extends RollAuditBase {
  kind: "scouting";
  scouting: string;
  /** The scout and the army it scouted (null for a roll of a scouting never declared). */
  army: string | null;
  target: string | null;
  rounds: ScoutingRound[];
  band: ScoutingBandName;
  /** What the seeds give, once the host seed is known. */
  recomputed: ScoutingRound[] | null;
}

/** K2, K3, K5, D1: a battle kit roll as the report lists it among its turn's rolls, with its battle. */
export interface KitRollAudit extends RollAuditBase {
  kind: "kit";
  battle: string;
  /** What was rolled, in words: "conditions (K3)", "saves of volley t1b1v1 (K5)". */
  what: string;
  dice: Array<{ sides: number; face: number }>;
  /** The faces the seeds give, once the host seed is known. */
  recomputed: number[] | null;
}

/** A turn's rolls: initiative (T2), with A3 scouting, and the battle kit's. */
export type RollAudit = InitiativeRollAudit | ScoutingRollAudit | KitRollAudit;

/** Whether a turn's rolls can be recomputed: with the host seed it revealed, or why not (yet). */
export type TurnSeed =
  | { hostSeed: string; endedSeq: number }
  | { hostSeed: null; status: "pending"; verdict: typeof PENDING_SEED | typeof PARENT_LINE_ROLL }
  | { hostSeed: null; status: "failed"; verdict: Verdict };

export interface TurnAudit {
  turn: number;
  state: "under way" | "ended" | "abandoned";
  firstSeq: number;
  lastSeq: number;
  /** Each TurnStarted of the turn (more than one only in a forged log). */
  commitments: Array<{ seq: number; hostSeedHash: string }>;
  hostSeed: { seq: number; seed: string } | null;
  hostSeedStatus: Status;
  hostSeedVerdict: string;
  playerSeeds: Array<{ player: string; seed: string; seq: number }>;
  rolls: RollAudit[];
  armies: ArmyAudit[];
  findings: Finding[];
}

export type ChainAudit =
  | { ok: true; events: number; headHash: string; verdict: "ok" }
  | { ok: false; seq: number; problem: string; message: string; verdict: string };

export interface AuditReport {
  campaign: string;
  stream: string;
  events: number;
  chain: ChainAudit;
  /** Set when the report was narrowed to one turn. */
  turnFilter: number | null;
  turns: TurnAudit[];
  /** Every finding of the report (the chain's and the turns'), in seq order. */
  findings: Finding[];
  /** D2: signed commands, unsigned events and key replacements. */
  signatures: SignatureSummary;
  /** Items still open: orders not yet revealed, rolls whose host seed is still secret. Not failures. */
  pending: number;
  /** Nothing is wrong (pending items are not wrong). */
  ok: boolean;
}

/** A stored event as the audit reads it: seq, actor, recorded time, hash, and its data at the current version. */
export type AuditEvent = Pick<StoredEvent, "seq" | "actor" | "at"> &
  Partial<Pick<StoredEvent, "hash" | "command">> &
  DomainEvent;

/** A head hash a player recorded earlier (what `epicwar verify` prints), with its seq when known. */
export interface RecordedHead {
  seq?: number;
  /** The full hash, or a prefix of it (at least 16 hex characters). */
  hash: string;
}

/** An event that could not be read back (bad JSON, an unknown type or version); verify names most of these. */
export interface UnreadableEvent {
  seq: number;
  reason: string;
}

export interface AuditInput {
  stream: string;
  events: readonly AuditEvent[];
  chain: VerifyResult;
  unreadable?: readonly UnreadableEvent[];
}

export interface AuditOptions {
  /** Only this turn (and the chain and campaign-wide findings). */
  turn?: number;
  /**
   * Head hashes recorded outside the log: each must still be in it (at its seq). A log rewritten and re-hashed from
   * some event on verifies, but loses every head recorded after that event (docs/storage.md).
   */
  heads?: readonly RecordedHead[];
}
