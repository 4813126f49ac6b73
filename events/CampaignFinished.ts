import { Type } from "@sinclair/typebox";
import { Id, IdRecord } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A side reached the CVP target at the end of a turn, or both did: a draw (E2). */
export const CampaignFinished = defineEvent(
  "CampaignFinished",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      winner: Type.Union([Id, Type.Null()]),
      cvps: IdRecord(Type.Integer({ minimum: 0 })),
    },
    { additionalProperties: false },
  ),
);
export type CampaignFinished = DataOf<typeof CampaignFinished>;
