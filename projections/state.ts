import type {
  BattleResult,
  Catalogue,
  Commander,
  Edge,
  Force,
  MapDefinition,
  Options,
  Order,
  RosterFormation,
  Square,
  SupportKind,
  TitanDamage,
  UnitCounts,
} from "../events/common.js";
import type { Static } from "@sinclair/typebox";
import type { OwedItem as OwedItemSchema } from "../events/StallClaimed.js";
import type { AwardTable } from "./formulas.js";
import type { ScoutingBandName, TurnScouting } from "./scouting.js";
import type { BattleKitState } from "./battle-kit.js";

export interface PlayerState {
  id: string;
  name: string;
  baseLine: Edge;
}

export interface ArmyState {
  id: string;
  player: string;
  name: string;
  formations: RosterFormation[];
  commander: Commander;
  /** S8/E6: points of the formations that still have units. */
  points: number;
  /** S5 */
  moveRate: number;
  /** Its square on the map, or null while not deployed or once routed or disbanded. */
  at: Square | null;
  /** On the map and fighting; routed and disbanded armies stay on the roster as history. */
  status: "active" | "routed" | "disbanded";
  /** Battles it has fought (E5: only an army that has fought may be broken down). */
  battles: number;
  /** The turn it joined the campaign (armies raised in an End phase first act the next turn). */
  sinceTurn: number;
  /** A8: unrepaired damage its titans carry between battles, by titan formation id; absent when there is none. */
  titanDamage?: Record<string, TitanDamage>;
  /** A6: its commander's level (1-5); null while it has none (killed, or stood down); absent unless A6 is in play. */
  commanderLevel?: number | null;
}

/** One army's activation in the current turn (T3-T5). */
export interface ActivationState {
  army: string;
  player: string;
  /** Seq of the ArmyActivated event. */
  seq: number;
  commitment: string;
  rate: number;
  engaged: boolean;
  stacked: boolean;
  from: Square | null;
  path: Square[];
  /** Seq of the ArmyMoved event, if it moved. */
  moveSeq: number | null;
  /** Once revealed (T5). */
  order: Order | null;
  /** On a branch: its order was committed on the parent line and is void here until its player recommits (T5). */
  voided?: true;
}

export interface BattleSideState {
  army: string;
  player: string;
  /** Army points when the battle started (B3). */
  points: number;
  /** The army's order once revealed; null while hidden. */
  order: Order | null;
}

export interface BattleState {
  id: string;
  turn: number;
  /** Index in the order battles started (B1). */
  index: number;
  at: Square;
  attacker: BattleSideState & { from: Square };
  defender: BattleSideState;
  /** B3 */
  averagePoints: number;
  vpTarget: number;
  /**
   * Defences the defender fights with (E3): those standing on the square when the battle started, plus what its
   * Fortify order builds this turn once that order is revealed (E3 ruling); the defender holds the square.
   */
  defences: number;
  /** E3 ruling: the part of `defences` the defender's Fortify order built this turn; absent when none. */
  builtThisTurn?: number;
  status: "pending" | "reported" | "resolved";
  /** A reported result awaiting the opponent's confirmation. */
  report: { by: string; result: BattleResult } | null;
  result: BattleResult | null;
  winner: string | null;
  overwhelming: boolean;
  /** B4: set when the battle model drew the result (`options.battles: "model"`); absent when the players agreed it. */
  resolvedBy?: "model";
  /** A3: the band of the attacker's scouting of the defender this turn, whose effects the battle sheet shows. */
  scouting?: ScoutingBandName;
  /** K2, K3, K5: the battle kit's record of the battle; absent when the campaign plays no battle kit. */
  kit?: BattleKitState;
}

/** The per-turn record: dice seeds, initiative, activations. */
export interface TurnState {
  hostSeedHash: string;
  /** Revealed when the turn ends. */
  hostSeed: string | null;
  /** D1: each player's seed commitment, made before the host's; the seed it gives must hash to it. */
  playerSeedHashes: Record<string, string>;
  playerSeeds: Record<string, string>;
  /** Dice drawn so far this turn (D1 roll index). */
  diceUsed: number;
  initiativeWinner: string | null;
  first: string | null;
  /** The player who made the last activation in the alternation (engaged activations do not count). */
  lastActivator: string | null;
  activations: Record<string, ActivationState>;
  /** Players done with the End phase. */
  endPhaseDone: string[];
  /** A3: this turn's scoutings and the orders they made public; absent in a turn without scouting. */
  scouting?: TurnScouting;
  /** T5 stall ruling: the last stall claimed this turn (absent if none): who claimed it, and what was owed then. */
  stallClaim?: StallClaim;
  /** O2: the Action phase's deadline (UTC date-time) the host set this turn, absent if none. */
  actionDeadline?: string;
  /**
   * D1 on a branch forked in this turn (LineForked): its seeds are made afresh, the dice from `fromDie` on drawn from
   * them; `reseeded` once the host has committed to its fresh seed. Absent in a turn no fork voided.
   */
  forked?: { fromDie: number; reseeded: boolean };
}

export type OwedItem = Static<typeof OwedItemSchema>;

export interface StallClaim {
  seq: number;
  by: string;
  owed: OwedItem[];
}

export interface TransitBatch {
  /** The turn the units went In Transit (E4: they join the Reserves in the End phase of the next turn). */
  turn: number;
  units: UnitCounts;
  /** A8: the batch's titans that carry damage, by unit type; absent when none does. */
  damagedTitans?: DamagedTitans;
}

/** A8: damaged titans off the map, by unit type, each list the most damaged first (damageWeight). */
export type DamagedTitans = Record<string, TitanDamage[]>;

/** A recorded breach of the rules: cheating shown by the log (T5). */
export interface ViolationState {
  /** Seq of the event that records the breach. */
  seq: number;
  /** Seq of the event that shows it (the move, the activation), where another event does. */
  evidenceSeq: number | null;
  turn: number;
  army: string;
  player: string;
  rule: string;
  detail: string;
}

export interface ObjectiveState {
  id: string;
  placedBy: string;
  at: Square;
  /** The side holding it (E1), or null while nobody has captured it. */
  heldBy: string | null;
}

export interface HomeBaseState {
  player: string;
  at: Square;
  /** The side holding it: its owner until an enemy seizes it (E1). */
  heldBy: string;
}

/** A7: one off-table support item on a side's artillery roster. */
export interface SupportItemState {
  id: string;
  /** The kind of barrage or missile (A7 price list). */
  kind: SupportKind;
  /** The turn it was bought; it may be used from the next turn on. */
  boughtTurn: number;
}

export interface PlayerLedger {
  /** CVPs won in battles: VPs one for one plus the S4 awards (E2). */
  battleCvps: number;
  reserves: UnitCounts;
  inTransit: TransitBatch[];
  /** A8: war chest balance, never below 0. */
  warChest: number;
  /** A8: war chest income over the whole campaign, capped at 20% of F. */
  warChestEarned: number;
  /** A7: the extra 10% of F that buys off-table support only. */
  supportFund: number;
  /** A7: off-table support bought and not yet used up. */
  artillery: SupportItemState[];
  /** A6: commanders whose armies left the map while they lived, free to lead a new army; absent until there is one. */
  spareCommanders?: SpareCommander[];
  /** A8: the Reserves' titans that carry damage (a subset of `reserves`), by unit type; absent when none does. */
  damagedTitans?: DamagedTitans;
}

/** A6: a commander without an army. */
export interface SpareCommander {
  /** The army it led. */
  army: string;
  /** What kind of unit it is: a new army names one of this type as its commander. */
  unitType: string;
  level: number;
}

export function emptyLedger(): PlayerLedger {
  return { battleCvps: 0, reserves: {}, inTransit: [], warChest: 0, warChestEarned: 0, supportFund: 0, artillery: [] };
}

export type CampaignStatus = "new" | "setup" | "active" | "finished";
export type Phase = "setup" | "action" | "battle" | "end";

export interface CampaignSetup {
  name: string;
  map: MapDefinition;
  players: PlayerState[];
  /** M and N (S2) and F = M x N. */
  force: Force & { total: number };
  options: Options;
  catalogue: Catalogue;
  /** S3 */
  cvpTarget: number;
  /** S4 */
  awards: AwardTable;
}

export interface CampaignState {
  campaign: string | null;
  status: CampaignStatus;
  /** Seq of the last event folded in. */
  seq: number;
  setup: CampaignSetup | null;
  turn: number;
  phase: Phase;
  armies: Record<string, ArmyState>;
  objectives: Record<string, ObjectiveState>;
  homeBases: Record<string, HomeBaseState>;
  /** Per player: battle CVPs, Reserves, In Transit. */
  ledgers: Record<string, PlayerLedger>;
  /**
   * D1: the print (seedPrint) of every turn's host seed commitment, in turn order, run together in one string, so that
   * none is used twice. Prints, not whole hashes, in one string, not a list: it is in every snapshot.
   */
  hostSeedPrints: string;
  /** D1: the players' seed commitments for the turn about to start, by player; moved into its record when it starts. */
  seedCommitments: Record<string, string>;
  /** The current turn's record; null before turn 1's TurnStarted. */
  turnState: TurnState | null;
  /**
   * The battles of the current turn, by id, kit and all. When the next turn starts they are settled: the state lets go
   * of them, so that it stays the size of what is current however long the campaign (projections/settled-battles.ts
   * keeps them for the reads that show past battles).
   */
  battles: Record<string, BattleState>;
  /** The last turn in which a battle started, 0 before the first: what is left in the state of the settled battles. */
  lastBattleTurn: number;
  /** Defences standing on squares, by "x,y" (E3). */
  defences: Record<string, number>;
  /** A8 ruling: the side holding each captured city square, by "x,y" (held like an objective, E1). */
  cities: Record<string, string>;
  violations: ViolationState[];
  /** Set when the campaign is over (E2): the winner, or null for a draw. */
  result: { winner: string | null; turn: number } | null;
  /** O1: present while the host has the campaign paused: since which event, and why if it said. */
  paused?: { seq: number; reason?: string };
  /** D2: each party's key in force, by party; absent until a party registers one (logs from before keys have none). */
  seatKeys?: Record<string, SeatKeyState>;
}

/** D2: a party's public key in force, and every replacement of its key so far (each a warning to every seat). */
export interface SeatKeyState {
  publicKey: string;
  /** The SeatKeyRegistered that put it in force. */
  seq: number;
  /** Each SeatKeyRegistered that replaced a key of this party, oldest first: when (seq and turn) it happened. */
  replacements: Array<{ seq: number; turn: number }>;
}

export const initialState: CampaignState = {
  campaign: null,
  status: "new",
  seq: 0,
  setup: null,
  turn: 0,
  phase: "setup",
  armies: {},
  objectives: {},
  homeBases: {},
  ledgers: {},
  hostSeedPrints: "",
  seedCommitments: {},
  turnState: null,
  battles: {},
  lastBattleTurn: 0,
  defences: {},
  cities: {},
  violations: [],
  result: null,
};
