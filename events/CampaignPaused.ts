import { Type } from "@sinclair/typebox";
import { defineEvent, type DataOf } from "./define.js";

/** Why the organiser paused a campaign, in its own words, for the players to read. */
export const PauseReason = Type.String({ minLength: 1, maxLength: 200 });

/** The host paused the campaign: until it resumes, every command but ResumeCampaign is refused (O1). */
export const CampaignPaused = defineEvent(
  "CampaignPaused",
  1,
  Type.Object({ reason: Type.Optional(PauseReason) }, { additionalProperties: false }),
);
export type CampaignPaused = DataOf<typeof CampaignPaused>;
