import { Type } from "@sinclair/typebox";
import { defineEvent, type DataOf } from "./define.js";
import { scenarioSettingFields } from "./kit-common.js";

/** K2: the side the campaign lets choose sets the battle's scenario (and, for an Assassination, the leader it targets). */
export const ScenarioChosen = defineEvent(
  "ScenarioChosen",
  1,
  Type.Object(scenarioSettingFields, { additionalProperties: false }),
);
export type ScenarioChosen = DataOf<typeof ScenarioChosen>;
