import { Type } from "@sinclair/typebox";
import { Id, RosterFormation } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A8: full-strength catalogue formations bought from the war chest into an army on the map. */
export const FormationsPurchased = defineEvent(
  "FormationsPurchased",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      player: Id,
      army: Id,
      formations: Type.Array(RosterFormation, { minItems: 1, maxItems: 200 }),
      /** War chest points paid: the formations' catalogue points. */
      cost: Type.Integer({ minimum: 1 }),
    },
    { additionalProperties: false },
  ),
);
export type FormationsPurchased = DataOf<typeof FormationsPurchased>;
