import { Type } from "@sinclair/typebox";
import { Catalogue, campaignTerms, Options } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A campaign was set up: its map, its two players, M and N, options and formation catalogue (S1, S2, S8). */
export const CampaignCreated = defineEvent(
  "CampaignCreated",
  1,
  Type.Object(
    {
      ...campaignTerms,
      options: Options,
      catalogue: Catalogue,
    },
    { additionalProperties: false },
  ),
);
export type CampaignCreated = DataOf<typeof CampaignCreated>;
