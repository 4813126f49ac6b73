import { Type } from "@sinclair/typebox";
import { Commander, Id, RosterFormation, Square, UnitCounts } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A new army from full-strength formations out of the Reserves (E6a). */
export const ArmyRaised = defineEvent("ArmyRaised", 1, Type.Object({
      turn: Type.Integer({ minimum: 1 }),
      army: Id,
      player: Id,
      name: Type.String({ minLength: 1, maxLength: 80 }),
      formations: Type.Array(RosterFormation, { minItems: 1, maxItems: 200 }),
      commander: Commander,
      at: Square,
      /** Units taken from the Reserves. */
      units: UnitCounts,
    }, { additionalProperties: false }));
export type ArmyRaised = DataOf<typeof ArmyRaised>;
