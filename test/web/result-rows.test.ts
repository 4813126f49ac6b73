import { describe, expect, it } from "vitest";
import { rowOfRefusal, type ResultRow } from "../../src/web/result-rows.js";

const rows: ResultRow[] = [
  { role: "attacker", formation: "howlers1", unit: "horde-clan-chief" },
  { role: "attacker", formation: "howlers1", unit: "horde-howler" },
  { role: "defender", formation: "howlers1", unit: "horde-howler" },
  { role: "defender", formation: "lancers", unit: "lancer" },
];
const b4 = (message: string) => ({ kind: "rule" as const, rule: "B4", message });

describe("B4 a refused battle result is shown beside the row of the formation it names", () => {
  it("B4 places a refusal on the row of the side, formation and unit type its sentence names", () => {
    expect(
      rowOfRefusal(b4('formation "howlers1" of the attacker\'s army "h5" lost 2 "horde-howler" but has only 1'), rows),
    ).toEqual(rows[1]);
    expect(
      rowOfRefusal(
        b4(
          'formation "howlers1" of the defender\'s army "h2" has 1 "horde-howler" left after losing 3: 2 cannot have routed (routed units are survivors)',
        ),
        rows,
      ),
    ).toEqual(rows[2]);
  });

  it("B4 places a refusal that names a formation but no unit on the formation's first row", () => {
    expect(
      rowOfRefusal(b4('formation "lancers" of the defender\'s army "c1" is a tank formation, not a titan'), rows),
    ).toEqual(rows[3]);
  });

  it("B4 leaves under the form a refusal that names no row the form lists", () => {
    expect(rowOfRefusal(b4('the attacker\'s army "h5" has no formation "ghosts"'), rows)).toBeUndefined();
    expect(
      rowOfRefusal({ kind: "field", field: "result", message: 'formation "lancers" of the defender\'s army' }, rows),
    ).toBeUndefined();
    expect(rowOfRefusal(null, rows)).toBeUndefined();
  });
});
