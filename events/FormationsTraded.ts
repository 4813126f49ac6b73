import { Type } from "@sinclair/typebox";
import { Id, UnitCounts } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** Full-strength formations in the Reserves were traded in for their points and others bought with them (E6d). */
export const FormationsTraded = defineEvent(
  "FormationsTraded",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      player: Id,
      tradedIn: Type.Array(Id, { minItems: 1 }),
      bought: Type.Array(Id),
      /** Units that left the Reserves and units that joined them. */
      unitsOut: UnitCounts,
      unitsIn: UnitCounts,
      points: Type.Integer({ minimum: 0 }),
    },
    { additionalProperties: false },
  ),
);
export type FormationsTraded = DataOf<typeof FormationsTraded>;
