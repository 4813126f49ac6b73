import type { Draft } from "immer";
import type { EventData } from "../events/index.js";
import type {
  AllocatedHit,
  AssassinationTarget,
  BattleConditions,
  GravityLevel,
  HitKind,
  Scenario,
  TargetUnit,
} from "../events/kit-common.js";
import type { CampaignState } from "./state.js";

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

type KitDraft = Draft<BattleKitState>;
const kitOf = (state: Draft<CampaignState>, battle: string): KitDraft => state.battles[battle]!.kit!;

/** D1: every kit roll draws the turn's next dice. */
function drew(state: Draft<CampaignState>, data: { firstDie: number; dice: readonly unknown[] }): void {
  state.turnState!.diceUsed = data.firstDie + data.dice.length;
}

export const battleKitHandlers = {
  ScenarioProposed(state: Draft<CampaignState>, data: EventData<"ScenarioProposed">) {
    kitOf(state, data.battle).scenario.proposal = {
      player: data.player,
      scenario: data.scenario,
      target: data.target ?? null,
    };
  },
  ScenarioAnswered(state: Draft<CampaignState>, data: EventData<"ScenarioAnswered">) {
    const scenario = kitOf(state, data.battle).scenario;
    const proposal = scenario.proposal!;
    if (data.accepted)
      Object.assign(scenario, {
        name: proposal.scenario,
        settled: "agreed",
        by: proposal.player,
        target: proposal.target,
      });
    else scenario.declined = true;
    scenario.proposal = null;
  },
  ScenarioChosen(state: Draft<CampaignState>, data: EventData<"ScenarioChosen">) {
    Object.assign(kitOf(state, data.battle).scenario, {
      name: data.scenario,
      settled: "chosen",
      by: data.player,
      target: data.target ?? null,
    });
  },
  ScenarioRolled(state: Draft<CampaignState>, data: EventData<"ScenarioRolled">) {
    Object.assign(kitOf(state, data.battle).scenario, {
      name: data.scenario,
      settled: "rolled",
      by: null,
      target: data.scenario === "assassination" ? "defenderCommander" : null,
    });
    drew(state, data);
  },
  BattleConditionsRolled(state: Draft<CampaignState>, data: EventData<"BattleConditionsRolled">) {
    kitOf(state, data.battle).conditions = data.conditions;
    drew(state, data);
  },
  EnclosedAgreed(state: Draft<CampaignState>, data: EventData<"EnclosedAgreed">) {
    const kit = kitOf(state, data.battle);
    kit.enclosedAgreedBy.push(data.player);
    kit.enclosed = kit.enclosedAgreedBy.length === 2;
  },
  BattleTurnEnded(state: Draft<CampaignState>, data: EventData<"BattleTurnEnded">) {
    kitOf(state, data.battle).battleTurnsEnded = data.battleTurn;
  },
  GravityFluxRolled(state: Draft<CampaignState>, data: EventData<"GravityFluxRolled">) {
    kitOf(state, data.battle).gravityFlux.push({
      battleTurn: data.battleTurn,
      level: data.level,
      changed: data.changed,
    });
    drew(state, data);
  },
  WhiteOutRolled(state: Draft<CampaignState>, data: EventData<"WhiteOutRolled">) {
    kitOf(state, data.battle).whiteOuts.push({
      battleTurn: data.battleTurn,
      die: data.dice[0]!.face,
      whiteOut: data.whiteOut,
    });
    drew(state, data);
  },
  HitsAllocated(state: Draft<CampaignState>, data: EventData<"HitsAllocated">) {
    kitOf(state, data.battle).volleys[data.volley] = {
      id: data.volley,
      player: data.player,
      units: data.units,
      hits: data.hits,
      allocation: data.allocation ?? null,
      unallocated: data.unallocated,
      saves: null,
      destroyed: null,
    };
  },
  SavesRolled(state: Draft<CampaignState>, data: EventData<"SavesRolled">) {
    const volley = kitOf(state, data.battle).volleys[data.volley]!;
    volley.saves = data.saves;
    volley.destroyed = data.destroyed;
    volley.allocation = data.saves.map(({ hit, unit }) => ({ hit, kind: volley.hits[hit]!, unit }));
    drew(state, data);
  },
  BarrageCalled(state: Draft<CampaignState>, data: EventData<"BarrageCalled">) {
    kitOf(state, data.battle).barrages[data.barrage] = {
      id: data.barrage,
      player: data.player,
      barragePoints: data.barragePoints,
      models: data.models,
      toHit: data.toHit,
      rolls: null,
      hits: null,
    };
  },
  BarrageRolled(state: Draft<CampaignState>, data: EventData<"BarrageRolled">) {
    const barrage = kitOf(state, data.battle).barrages[data.barrage]!;
    barrage.rolls = data.dice.map((die) => die.face);
    barrage.hits = data.hits;
    drew(state, data);
  },
};

/** The current gravity of a battle under flux: the last End phase's roll, else the starting level. */
export function currentGravity(kit: BattleKitState): GravityLevel | null {
  return kit.gravityFlux[kit.gravityFlux.length - 1]?.level ?? kit.conditions?.gravity?.level ?? null;
}
