import { Type } from "@sinclair/typebox";
import { Sha256 } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/**
 * D1 on a branch: the host committed to a fresh dice seed for the turn the fork voided the seeds of, once every player
 * had committed to a fresh one; the turn's dice from `fromDie` on are drawn from these seeds, and TurnEnded reveals it.
 */
export const TurnReseeded = defineEvent(
  "TurnReseeded",
  1,
  Type.Object(
    { turn: Type.Integer({ minimum: 1 }), hostSeedHash: Sha256, fromDie: Type.Integer({ minimum: 0 }) },
    { additionalProperties: false },
  ),
);
export type TurnReseeded = DataOf<typeof TurnReseeded>;
