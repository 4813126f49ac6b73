import { Type } from "@sinclair/typebox";
import { Catalogue, campaignTerms, Options } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/**
 * A campaign was set up: its map, its two players, M and N, options and formation catalogue (S1, S2, S8).
 *
 * Version 2 added `options.fortifyBuilds` (E3 timing), whose default is the ruling that Fortify builds from its
 * activation. A campaign created at version 1 was played with defences built only when the turn ended, so it is read
 * with `fortifyBuilds: "atEndPhase"`: it replays, and is audited, as it was played.
 */
export const CampaignCreated = defineEvent(
  "CampaignCreated",
  2,
  Type.Object(
    {
      ...campaignTerms,
      options: Options,
      catalogue: Catalogue,
    },
    { additionalProperties: false },
  ),
  {
    1: (data) => {
      const v1 = data as { options: Record<string, unknown> };
      return { ...v1, options: { ...v1.options, fortifyBuilds: "atEndPhase" } };
    },
  },
);
export type CampaignCreated = DataOf<typeof CampaignCreated>;
