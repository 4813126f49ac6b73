import { Type } from "@sinclair/typebox";
import { Id } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A8: one destroyed titan weapon replaced: like for like at half its cost, or another weapon at its full cost. */
export const RepairedWeapon = Type.Object(
  {
    destroyed: Type.String({ minLength: 1, maxLength: 80 }),
    replacement: Type.String({ minLength: 1, maxLength: 80 }),
    points: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

/** A8: titan repairs paid from the war chest: shields/fields restored and destroyed weapons replaced. */
export const TitanRepaired = defineEvent(
  "TitanRepaired",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      player: Id,
      army: Id,
      formation: Id,
      /** Shields/fields restored, 100 points each. */
      shields: Type.Integer({ minimum: 0, maximum: 100 }),
      /** Destroyed weapons replaced: like for like at half their cost, or another weapon at its full cost. */
      weapons: Type.Array(RepairedWeapon, { maxItems: 50 }),
      cost: Type.Integer({ minimum: 0 }),
    },
    { additionalProperties: false },
  ),
);
export type TitanRepaired = DataOf<typeof TitanRepaired>;
