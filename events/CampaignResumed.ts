import { Type } from "@sinclair/typebox";
import { defineEvent, type DataOf } from "./define.js";

/** The host resumed a paused campaign: commands are decided again (O1). */
export const CampaignResumed = defineEvent("CampaignResumed", 1, Type.Object({}, { additionalProperties: false }));
export type CampaignResumed = DataOf<typeof CampaignResumed>;
