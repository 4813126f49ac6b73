import type { DomainEvent } from "../../events/index.js";
import type { CampaignState } from "../../projections/state.js";
import type { CommandOf } from "../commands/schemas.js";
import { refuseRule } from "./refusal.js";

const pending = (): never => refuseRule("E6", "not available yet");
export const decideBreakDown = (_s: CampaignState, _c: CommandOf<"BreakDown">): DomainEvent[] => pending();
export const decideDisbandArmy = (_s: CampaignState, _c: CommandOf<"DisbandArmy">): DomainEvent[] => pending();
export const decideRaiseArmy = (_s: CampaignState, _c: CommandOf<"RaiseArmy">): DomainEvent[] => pending();
export const decideReinforceFormation = (_s: CampaignState, _c: CommandOf<"ReinforceFormation">): DomainEvent[] => pending();
export const decideReplaceFormation = (_s: CampaignState, _c: CommandOf<"ReplaceFormation">): DomainEvent[] => pending();
export const decideTradeFormations = (_s: CampaignState, _c: CommandOf<"TradeFormations">): DomainEvent[] => pending();
export const decideFinishEndPhase = (_s: CampaignState, _c: CommandOf<"FinishEndPhase">): DomainEvent[] => pending();
export const decideEndTurn = (_s: CampaignState, _c: CommandOf<"EndTurn">): DomainEvent[] => pending();
