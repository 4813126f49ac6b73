import type { DomainEvent } from "../../events/index.js";
import type { CampaignState } from "../../projections/state.js";
import type { CommandOf } from "../commands/schemas.js";
import { refuseRule } from "./refusal.js";

export const decideRevealOrder = (_s: CampaignState, _c: CommandOf<"RevealOrder">): DomainEvent[] => refuseRule("T5", "not available yet");
