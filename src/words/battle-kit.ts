import type { BattleConditions, Scenario } from "../../events/kit-common.js";
import {
  ATMOSPHERE_TABLE,
  BLIZZARD_TABLE,
  EDGE_NAMES,
  GRAVITY_NAMES,
  LIGHT_TABLE,
  RAIN_TABLE,
  scenarioText,
} from "../../projections/battle-kit-tables.js";

/** The battle kit's names in players' words (K2, K3), for log lines, sheets and the demo. */

export const scenarioName = (scenario: Scenario): string => scenarioText(scenario, 0).name;

/** K3: a conditions roll in one line: each table's band by name. */
export function conditionsSummary(conditions: BattleConditions): string {
  const parts: string[] = [];
  if (conditions.light) parts.push(`light ${LIGHT_TABLE[conditions.light.band].name}`);
  if (conditions.rain) parts.push(`rain ${RAIN_TABLE[conditions.rain.band].name}`);
  if (conditions.blizzard)
    parts.push(
      `blizzard ${BLIZZARD_TABLE[conditions.blizzard.band].name}${conditions.blizzard.edge ? ` from ${EDGE_NAMES[conditions.blizzard.edge]}` : ""}`,
    );
  if (conditions.atmosphere) parts.push(`atmosphere ${ATMOSPHERE_TABLE[conditions.atmosphere.band].name}`);
  if (conditions.gravity)
    parts.push(
      `${conditions.gravity.flux ? "Gravity Flux!, starting at " : ""}${GRAVITY_NAMES[conditions.gravity.level]}`,
    );
  return parts.join("; ") || "none rolled";
}
