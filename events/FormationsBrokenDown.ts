import { Type } from "@sinclair/typebox";
import { Id, Reattached, UnitCounts } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A player broke formations of an army that has fought down into In Transit (E5). */
export const FormationsBrokenDown = defineEvent(
  "FormationsBrokenDown",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      army: Id,
      player: Id,
      formations: Type.Array(Id, { minItems: 1 }),
      units: UnitCounts,
      reattached: Type.Optional(Reattached),
    },
    { additionalProperties: false },
  ),
);
export type FormationsBrokenDown = DataOf<typeof FormationsBrokenDown>;
