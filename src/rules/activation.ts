import type { DomainEvent } from "../../events/index.js";
import type { CampaignState } from "../../projections/state.js";
import type { CommandOf } from "../commands/schemas.js";
import { refuseRule } from "./refusal.js";

export const decideActivateArmy = (_s: CampaignState, _c: CommandOf<"ActivateArmy">): DomainEvent[] => refuseRule("T3", "not available yet");
