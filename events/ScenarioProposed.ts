import { Type } from "@sinclair/typebox";
import { defineEvent, type DataOf } from "./define.js";
import { scenarioSettingFields } from "./kit-common.js";

/** K2: the attacker proposes the battle's scenario (and, for an Assassination, the leader it targets); the defender answers. */
export const ScenarioProposed = defineEvent(
  "ScenarioProposed",
  1,
  Type.Object(scenarioSettingFields, { additionalProperties: false }),
);
export type ScenarioProposed = DataOf<typeof ScenarioProposed>;
