import { Type } from "@sinclair/typebox";
import { Sha256 } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** The host began a turn and committed to its secret dice seed for the turn (D1): only the seed's SHA-256 is shown. */
export const TurnStarted = defineEvent(
  "TurnStarted",
  1,
  Type.Object({ turn: Type.Integer({ minimum: 1 }), hostSeedHash: Sha256 }, { additionalProperties: false }),
);
export type TurnStarted = DataOf<typeof TurnStarted>;
