import { Type } from "@sinclair/typebox";
import { defineEvent, type DataOf } from "./define.js";
import { kitRollFields } from "./kit-common.js";

/**
 * K3, D1: at the start of a battle turn with a blizzard on the battlefield the host rolled a d6: on a 1 the battlefield
 * suffers a white-out that turn (seed 002).
 */
export const WhiteOutRolled = defineEvent(
  "WhiteOutRolled",
  1,
  Type.Object(
    {
      ...kitRollFields,
      battleTurn: Type.Integer({ minimum: 1, maximum: 99 }),
      whiteOut: Type.Boolean(),
    },
    { additionalProperties: false },
  ),
);
export type WhiteOutRolled = DataOf<typeof WhiteOutRolled>;
