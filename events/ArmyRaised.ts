import { Type } from "@sinclair/typebox";
import { newArmyFields, UnitCounts } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A new army from full-strength formations out of the Reserves (E6a). */
export const ArmyRaised = defineEvent(
  "ArmyRaised",
  1,
  Type.Object(
    {
      ...newArmyFields,
      /** Units taken from the Reserves. */
      units: UnitCounts,
    },
    { additionalProperties: false },
  ),
);
export type ArmyRaised = DataOf<typeof ArmyRaised>;
