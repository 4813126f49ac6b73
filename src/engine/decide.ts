import type { DomainEvent } from "../../events/index.js";
import type { CampaignState } from "../../projections/state.js";
import type { Command } from "./command-schemas.js";
import { decideActivateArmy } from "../rules/activation.js";
import {
  decideConfirmBattleResult,
  decideRejectBattleResult,
  decideReportBattleResult,
  decideResolveBattleByModel,
} from "../rules/battle.js";
import { decideAppointCommander } from "../rules/commanders.js";
import {
  decideBreakDown,
  decideDisbandArmy,
  decideEndTurn,
  decideFinishEndPhase,
  decideRaiseArmy,
  decideReinforceFormation,
  decideReplaceFormation,
  decideTradeFormations,
} from "../rules/end-phase.js";
import { Refused, type Refusal } from "../rules/refusal.js";
import { decideRevealOrder } from "../rules/reveal.js";
import {
  decideCreateCampaign,
  decideDeployArmy,
  decidePlaceHomeBase,
  decidePlaceObjective,
  decideRegisterArmy,
  decideStartCampaign,
} from "../rules/setup.js";
import { decideClaimStall } from "../rules/stall.js";
import {
  decidePauseCampaign,
  decideResumeCampaign,
  decideSetActionDeadline,
  pausedRefusal,
} from "../rules/organiser.js";
import {
  decideChooseFirst,
  decideCloseActionPhase,
  decideCommitSeed,
  decideGiveSeed,
  decideRollInitiative,
  decideStartTurn,
} from "../rules/turn.js";
import { decideBuySupport } from "../rules/support.js";
import { decideBuyArmy, decideBuyDefences, decideBuyFormations } from "../rules/war-chest.js";
import { decideRepairReserveTitan, decideRepairTitan } from "../rules/titan-repairs.js";
import {
  decideAgreeEnclosed,
  decideAllocateHits,
  decideAnswerScenario,
  decideCallBarrage,
  decideChooseScenario,
  decideEndBattleTurn,
  decideProposeScenario,
  decideRollBarrage,
  decideRollBattleConditions,
  decideRollGravityFlux,
  decideRollSaves,
  decideRollWhiteOut,
  decideRollScenario,
} from "../rules/battle-kit.js";
import { decideRegisterSeatKey } from "../rules/seat-keys.js";
import { decideForkLine, decideRecommitOrder, decideReseedTurn } from "../rules/line-fork.js";
import { decideAnswerScouting, decideRollScouting, decideScoutArmy, decideStateArmySize } from "../rules/scouting.js";

export type Decision = { ok: true; events: DomainEvent[] } | { ok: false; refusal: Refusal };

/** A decider reads the command's recorded time `at` only where a rule compares times (O2's deadline). */
type Deciders = {
  [T in Command["type"]]: (state: CampaignState, command: Extract<Command, { type: T }>, at: string) => DomainEvent[];
};

const deciders: Deciders = {
  CreateCampaign: decideCreateCampaign,
  RegisterArmy: decideRegisterArmy,
  PlaceHomeBase: decidePlaceHomeBase,
  PlaceObjective: decidePlaceObjective,
  DeployArmy: decideDeployArmy,
  StartCampaign: decideStartCampaign,
  CommitSeed: decideCommitSeed,
  StartTurn: decideStartTurn,
  GiveSeed: decideGiveSeed,
  RollInitiative: decideRollInitiative,
  ChooseFirst: decideChooseFirst,
  ActivateArmy: decideActivateArmy,
  RevealOrder: decideRevealOrder,
  CloseActionPhase: decideCloseActionPhase,
  ClaimStall: decideClaimStall,
  ScoutArmy: decideScoutArmy,
  AnswerScouting: decideAnswerScouting,
  RollScouting: decideRollScouting,
  StateArmySize: decideStateArmySize,
  ReportBattleResult: decideReportBattleResult,
  ConfirmBattleResult: decideConfirmBattleResult,
  ResolveBattleByModel: decideResolveBattleByModel,
  RejectBattleResult: decideRejectBattleResult,
  BreakDown: decideBreakDown,
  DisbandArmy: decideDisbandArmy,
  RaiseArmy: decideRaiseArmy,
  ReinforceFormation: decideReinforceFormation,
  ReplaceFormation: decideReplaceFormation,
  TradeFormations: decideTradeFormations,
  BuyFormations: decideBuyFormations,
  BuyArmy: decideBuyArmy,
  BuyDefences: decideBuyDefences,
  RepairTitan: decideRepairTitan,
  RepairReserveTitan: decideRepairReserveTitan,
  AppointCommander: decideAppointCommander,
  FinishEndPhase: decideFinishEndPhase,
  EndTurn: decideEndTurn,
  BuySupport: decideBuySupport,
  PauseCampaign: decidePauseCampaign,
  ResumeCampaign: decideResumeCampaign,
  SetActionDeadline: decideSetActionDeadline,
  ProposeScenario: decideProposeScenario,
  AnswerScenario: decideAnswerScenario,
  ChooseScenario: decideChooseScenario,
  RollScenario: decideRollScenario,
  RollBattleConditions: decideRollBattleConditions,
  AgreeEnclosed: decideAgreeEnclosed,
  EndBattleTurn: decideEndBattleTurn,
  RollGravityFlux: decideRollGravityFlux,
  RollWhiteOut: decideRollWhiteOut,
  AllocateHits: decideAllocateHits,
  RollSaves: decideRollSaves,
  CallBarrage: decideCallBarrage,
  RollBarrage: decideRollBarrage,
  RegisterSeatKey: decideRegisterSeatKey,
  ForkLine: decideForkLine,
  ReseedTurn: decideReseedTurn,
  RecommitOrder: decideRecommitOrder,
};

/**
 * The rules: a schema-checked command against the current state gives events or a refusal. Pure: `at` is the time the
 * command is recorded at (ISO date-time, the command handler's clock, which stamps its events; the audit passes the
 * event's own), so that a decision replayed later gives the same events.
 */
export function decide(state: CampaignState, command: Command, at: string): Decision {
  if (state.status === "finished") {
    return {
      ok: false,
      refusal: { kind: "rule", rule: "E2", message: "the campaign is over and accepts no more commands" },
    };
  }
  const paused = pausedRefusal(state, command);
  if (paused) return { ok: false, refusal: paused };
  try {
    const decider = deciders[command.type] as (state: CampaignState, command: Command, at: string) => DomainEvent[];
    return { ok: true, events: decider(state, command, at) };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, refusal: error.refusal };
    throw error;
  }
}
