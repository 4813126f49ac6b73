import { Type } from "@sinclair/typebox";
import { Id, Nonce, Sha256 } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/**
 * A3: the scouted player answered a scouting: either it revealed a First Fire order for the +2 (its commitment and
 * salt; for an army not yet activated, the commitment its activation must then carry), or it took no bonus.
 */
export const ScoutingAnswered = defineEvent(
  "ScoutingAnswered",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      scouting: Id,
      army: Id,
      player: Id,
      firstFire: Type.Optional(Type.Object({ commitment: Sha256, salt: Nonce }, { additionalProperties: false })),
      /** +2 when it revealed First Fire. */
      bonus: Type.Union([Type.Literal(0), Type.Literal(2)]),
    },
    { additionalProperties: false },
  ),
);
export type ScoutingAnswered = DataOf<typeof ScoutingAnswered>;
