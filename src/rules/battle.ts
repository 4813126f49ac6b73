import type { DomainEvent } from "../../events/index.js";
import type { CampaignState } from "../../projections/state.js";
import type { CommandOf } from "../commands/schemas.js";
import { refuseRule } from "./refusal.js";

const pending = (): never => refuseRule("B4", "not available yet");
export const decideReportBattleResult = (_s: CampaignState, _c: CommandOf<"ReportBattleResult">): DomainEvent[] => pending();
export const decideConfirmBattleResult = (_s: CampaignState, _c: CommandOf<"ConfirmBattleResult">): DomainEvent[] => pending();
export const decideRejectBattleResult = (_s: CampaignState, _c: CommandOf<"RejectBattleResult">): DomainEvent[] => pending();
