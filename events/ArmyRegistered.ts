import { Type } from "@sinclair/typebox";
import { Commander, Id, RosterFormation } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A player put an army on its campaign roster (S2, S8), every formation at full strength. */
export const ArmyRegistered = defineEvent(
  "ArmyRegistered",
  1,
  Type.Object(
    {
      army: Id,
      player: Id,
      name: Type.String({ minLength: 1, maxLength: 80 }),
      formations: Type.Array(RosterFormation, { minItems: 1, maxItems: 200 }),
      commander: Commander,
    },
    { additionalProperties: false },
  ),
);
export type ArmyRegistered = DataOf<typeof ArmyRegistered>;
