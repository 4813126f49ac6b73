import { Type } from "@sinclair/typebox";
import { defineEvent, type DataOf } from "./define.js";
import { kitRollFields, BattleConditions } from "./kit-common.js";

/**
 * K3, D1: the host rolled the battle's conditions on seed 002's d6 tables, in this order: light, rain, blizzard (and a
 * d4 for its edge on a 1), atmosphere, gravity (a 6 rerolled for the starting level), each only when the campaign rolls it.
 */
export const BattleConditionsRolled = defineEvent(
  "BattleConditionsRolled",
  1,
  Type.Object(
    {
      ...kitRollFields,
      conditions: BattleConditions,
    },
    { additionalProperties: false },
  ),
);
export type BattleConditionsRolled = DataOf<typeof BattleConditionsRolled>;
