import { Type } from "@sinclair/typebox";
import { Id, Reattached, RosterFormation, UnitCounts } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A wiped-out formation was replaced by a different full-strength one from the Reserves (E6c). */
export const FormationReplaced = defineEvent(
  "FormationReplaced",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      army: Id,
      player: Id,
      replaced: Id,
      formation: RosterFormation,
      units: UnitCounts,
      reattached: Type.Optional(Reattached),
    },
    { additionalProperties: false },
  ),
);
export type FormationReplaced = DataOf<typeof FormationReplaced>;
