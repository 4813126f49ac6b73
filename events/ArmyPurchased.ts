import { Type } from "@sinclair/typebox";
import { newArmyFields } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A8: a new army of full-strength catalogue formations bought from the war chest, placed at its home base. */
export const ArmyPurchased = defineEvent(
  "ArmyPurchased",
  1,
  Type.Object(
    {
      ...newArmyFields,
      /** War chest points paid: the formations' catalogue points. */
      cost: Type.Integer({ minimum: 1 }),
    },
    { additionalProperties: false },
  ),
);
export type ArmyPurchased = DataOf<typeof ArmyPurchased>;
