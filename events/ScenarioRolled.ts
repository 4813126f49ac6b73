import { Type } from "@sinclair/typebox";
import { defineEvent, type DataOf } from "./define.js";
import { kitRollFields, Scenario } from "./kit-common.js";

/** K2, D1: the host rolled the battle's scenario: one die of seven sides, the scenarios in seed 001's order. */
export const ScenarioRolled = defineEvent(
  "ScenarioRolled",
  1,
  Type.Object(
    {
      ...kitRollFields,
      scenario: Scenario,
    },
    { additionalProperties: false },
  ),
);
export type ScenarioRolled = DataOf<typeof ScenarioRolled>;
