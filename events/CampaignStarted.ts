import { Type } from "@sinclair/typebox";
import { defineEvent, type DataOf } from "./define.js";

/** Set-up is complete and checked; the campaign's first turn begins. */
export const CampaignStarted = defineEvent(
  "CampaignStarted",
  1,
  Type.Object({ turn: Type.Literal(1) }, { additionalProperties: false }),
);
export type CampaignStarted = DataOf<typeof CampaignStarted>;
