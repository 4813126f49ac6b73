import { Type } from "@sinclair/typebox";
import { Id } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";
import { kitRollFields } from "./kit-common.js";

/** K5, D1 (Heresy profile): the host rolled a d10 for each model under a barrage's template; a score of toHit or more hits. */
export const BarrageRolled = defineEvent(
  "BarrageRolled",
  1,
  Type.Object(
    {
      ...kitRollFields,
      barrage: Id,
      hits: Type.Integer({ minimum: 0, maximum: 200 }),
    },
    { additionalProperties: false },
  ),
);
export type BarrageRolled = DataOf<typeof BarrageRolled>;
