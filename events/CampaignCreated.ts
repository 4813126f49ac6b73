import { Type } from "@sinclair/typebox";
import { Catalogue, campaignTerms, Formation, IdRecord, Options } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/**
 * A campaign was set up: its map, its two players, M and N, options and formation catalogue (S1, S2, S8).
 *
 * Version 2 added `options.fortifyBuilds` (E3 timing), whose default is the ruling that Fortify builds from its
 * activation. A campaign created at version 1 was played with defences built only when the turn ended, so it is read
 * with `fortifyBuilds: "atEndPhase"`: it replays, and is audited, as it was played.
 *
 * Version 3 added `options.allies` (K4), `options.battleKit` (K2, K3, K5) and a formation's `faction`. A campaign
 * created at version 2 played none of them: it is read with neither option, so no scenario, condition or ally limit
 * appears in its replay or audit.
 *
 * `options.battles` (B4: battles resolved by the battle model) came at version 3 with no new version: its absence is
 * the table, as every campaign before it was played.
 */
/** Before K4 a formation named no army list. */
const catalogueBeforeAllies = Type.Object(
  {
    ...Catalogue.properties,
    formations: IdRecord(Type.Omit(Formation, ["faction"], { additionalProperties: false })),
  },
  { additionalProperties: false },
);
const before = (options: Array<keyof typeof Options.properties>) =>
  Type.Object(
    {
      ...campaignTerms,
      options: Type.Omit(Options, options, { additionalProperties: false }),
      catalogue: catalogueBeforeAllies,
    },
    { additionalProperties: false },
  );

export const CampaignCreated = defineEvent(
  "CampaignCreated",
  3,
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
    // Version 2 had neither option, and neither one's absence changes how its campaign was played.
    2: (data) => data,
  },
  {
    1: before(["fortifyBuilds", "allies", "battleKit", "battles"]),
    2: before(["allies", "battleKit", "battles"]),
  },
);
export type CampaignCreated = DataOf<typeof CampaignCreated>;
