import { Type } from "@sinclair/typebox";
import { Id, UnitCounts } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A depleted formation was brought back to exactly full strength from the Reserves (E6b). */
export const FormationReinforced = defineEvent(
  "FormationReinforced",
  1,
  Type.Object(
    { turn: Type.Integer({ minimum: 1 }), army: Id, player: Id, formation: Id, units: UnitCounts },
    { additionalProperties: false },
  ),
);
export type FormationReinforced = DataOf<typeof FormationReinforced>;
