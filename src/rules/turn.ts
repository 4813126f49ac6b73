import type { DomainEvent } from "../../events/index.js";
import type { CampaignState } from "../../projections/state.js";
import type { CommandOf } from "../commands/schemas.js";
import { refuseRule } from "./refusal.js";

const pending = (): never => refuseRule("T1", "not available yet");
export const decideStartTurn = (_s: CampaignState, _c: CommandOf<"StartTurn">): DomainEvent[] => pending();
export const decideGiveSeed = (_s: CampaignState, _c: CommandOf<"GiveSeed">): DomainEvent[] => pending();
export const decideRollInitiative = (_s: CampaignState, _c: CommandOf<"RollInitiative">): DomainEvent[] => pending();
export const decideChooseFirst = (_s: CampaignState, _c: CommandOf<"ChooseFirst">): DomainEvent[] => pending();
export const decideCloseActionPhase = (_s: CampaignState, _c: CommandOf<"CloseActionPhase">): DomainEvent[] => pending();
