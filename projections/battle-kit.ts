import type {
  AllocatedHit,
  AssassinationTarget,
  BattleConditions,
  GravityLevel,
  HitKind,
  Scenario,
  TargetUnit,
} from "../events/kit-common.js";

/** K2: how a battle's scenario stands. */
export interface ScenarioState {
  name: Scenario | null;
  /** How it was settled: agreed on the attacker's proposal, chosen by the side the campaign names, or rolled. */
  settled: "agreed" | "chosen" | "rolled" | null;
  /** Who proposed or chose it (null when rolled). */
  by: string | null;
  /** K2: the leader an Assassination targets; for a rolled one, the defending army's commander (ruling). */
  target: AssassinationTarget | "defenderCommander" | null;
  /** The attacker's proposal awaiting the defender's answer. */
  proposal: { player: string; scenario: Scenario; target: AssassinationTarget | null } | null;
  /** The defender declined the proposal: the host rolls the scenario. */
  declined: boolean;
}

/** K5: one volley of hits allocated on a formation, and its saves once rolled. */
export interface VolleyState {
  id: string;
  player: string;
  units: TargetUnit[];
  hits: HitKind[];
  /**
   * Each allocated hit's unit, in the order scored: known once the saves are rolled, as the dice decide it (K5: a TK
   * hit's damage counts as hits); null before. A volley allocated before the dice (HitsAllocated v1) has it from the
   * start.
   */
  allocation: AllocatedHit[] | null;
  unallocated: number[];
  saves: Array<{ hit: number; unit: string; roll: number; saved: boolean; damage?: number }> | null;
  destroyed: string[] | null;
}

/** K5 (Heresy): one barrage called, and its hits once rolled. */
export interface BarrageState {
  id: string;
  player: string;
  barragePoints: number;
  models: number;
  toHit: number;
  rolls: number[] | null;
  hits: number | null;
}

/** The battle kit's record of one battle (K2, K3, K5); present when the campaign plays the kit. */
export interface BattleKitState {
  scenario: ScenarioState;
  /** K3: the conditions rolled, null until they are (or when the campaign rolls none). */
  conditions: BattleConditions | null;
  /** K3: Gravity Flux: the level after each battle turn's End phase, in order. */
  gravityFlux: Array<{ battleTurn: number; level: GravityLevel; changed: boolean }>;
  /** K3: each battle turn's white-out roll under a blizzard, in order. */
  whiteOuts: Array<{ battleTurn: number; die: number; whiteOut: boolean }>;
  /** K3: the last battle turn the players recorded as ended. */
  battleTurnsEnded: number;
  /** K3: a city battle fought enclosed, and who agreed to it. */
  enclosed: boolean;
  enclosedAgreedBy: string[];
  volleys: Record<string, VolleyState>;
  barrages: Record<string, BarrageState>;
}

export function newBattleKit(enclosed: boolean): BattleKitState {
  return {
    scenario: { name: null, settled: null, by: null, target: null, proposal: null, declined: false },
    conditions: null,
    gravityFlux: [],
    whiteOuts: [],
    battleTurnsEnded: 0,
    enclosed,
    enclosedAgreedBy: [],
    volleys: {},
    barrages: {},
  };
}

/** The current gravity of a battle under flux: the last End phase's roll, else the starting level. */
export function currentGravity(kit: BattleKitState): GravityLevel | null {
  return kit.gravityFlux[kit.gravityFlux.length - 1]?.level ?? kit.conditions?.gravity?.level ?? null;
}
