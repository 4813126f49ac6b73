import { Type } from "@sinclair/typebox";
import { Catalogue, Force, Id, MapDefinition, Options, Player } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A campaign was set up: its map, its two players, M and N, options and formation catalogue (S1, S2, S8). */
export const CampaignCreated = defineEvent(
  "CampaignCreated",
  1,
  Type.Object(
    {
      campaign: Id,
      name: Type.String({ minLength: 1, maxLength: 120 }),
      map: MapDefinition,
      players: Type.Array(Player, { minItems: 2, maxItems: 2 }),
      force: Force,
      options: Options,
      catalogue: Catalogue,
    },
    { additionalProperties: false },
  ),
);
export type CampaignCreated = DataOf<typeof CampaignCreated>;
