import { describe, expect, it } from "vitest";
import { rowOfRefusal, type ResultRow } from "../../src/web/result-rows.js";

const rows: ResultRow[] = [
  { role: "attacker", formation: "howlers1", unit: "horde-clan-chief" },
  { role: "attacker", formation: "howlers1", unit: "horde-howler" },
  { role: "defender", formation: "howlers1", unit: "horde-howler" },
  { role: "defender", formation: "lancers", unit: "lancer" },
];
const b4 = (field?: string) => ({ kind: "rule" as const, rule: "B4", message: "refused", ...(field ? { field } : {}) });

describe("B4 a refused battle result is shown beside the row of the field its rule names", () => {
  it("B4 places a refusal on the row of the side, formation and unit type of its field", () => {
    expect(rowOfRefusal(b4("result.attacker.losses.howlers1.horde-howler"), rows)).toEqual(rows[1]);
    expect(rowOfRefusal(b4("result.defender.routed.howlers1.horde-howler"), rows)).toEqual(rows[2]);
  });

  it("B4 places a refusal of a whole formation (a titan's damage, a formation the army lacks) on its first row", () => {
    expect(rowOfRefusal(b4("result.defender.titanDamage.lancers"), rows)).toEqual(rows[3]);
    expect(rowOfRefusal(b4("result.attacker.losses.howlers1"), rows)).toEqual(rows[0]);
  });

  it("B4 leaves under the form a refusal that names no row the form lists, or no field", () => {
    expect(rowOfRefusal(b4("result.attacker.losses.ghosts"), rows)).toBeUndefined();
    expect(rowOfRefusal(b4("result.attacker.losses.howlers1.grots"), rows)).toBeUndefined();
    expect(rowOfRefusal(b4(), rows)).toBeUndefined();
    expect(rowOfRefusal({ kind: "field", field: "result", message: "is required" }, rows)).toBeUndefined();
    expect(rowOfRefusal(null, rows)).toBeUndefined();
  });
});
