import { describe, expect, it } from "vitest";
import {
  asCommander,
  asDeadline,
  asEntries,
  asEntry,
  asNumber,
  asSquare,
  asWeapons,
  FieldError,
} from "../../src/web/fields.js";

/** The field a mistake is reported on, and its sentence. */
function refusalOf(read: () => unknown): { field: string; message: string } {
  try {
    read();
  } catch (error) {
    if (error instanceof FieldError) return { field: error.field, message: error.message };
    throw error;
  }
  throw new Error("read without a mistake");
}

describe("the web page's forms read their fields as the commands' members, each mistake naming its field", () => {
  it("S6 E6a reads a square as x,y, and names the field otherwise", () => {
    expect(asSquare({ at: " 3, 14 " }, "at")).toEqual([3, 14]);
    expect(refusalOf(() => asSquare({ at: "3;4" }, "at"))).toEqual({
      field: "at",
      message: 'write the square as x,y (as 3,4), not "3;4"',
    });
  });

  it("A3 A8 reads a whole number; empty or fractional text is a mistake of its field", () => {
    expect(asNumber({ points: "4000" }, "points")).toBe(4000);
    expect(refusalOf(() => asNumber({ points: "" }, "points")).field).toBe("points");
    expect(refusalOf(() => asNumber({ shields: "1.5" }, "shields")).message).toBe('write a whole number, not "1.5"');
  });

  it("E5 E6 A8 reads formations as id:formation with an optional @company, and one where the command takes one", () => {
    expect(asEntries({ f: "a:tac, b:support@a" }, "f")).toEqual([
      { id: "a", formation: "tac" },
      { id: "b", formation: "support", attachedTo: "a" },
    ]);
    expect(asEntry({ with: "n1:tac" }, "with")).toEqual({ id: "n1", formation: "tac" });
    expect(refusalOf(() => asEntry({ with: "a:tac, b:tac" }, "with")).field).toBe("with");
    expect(refusalOf(() => asEntries({ f: "a tac" }, "f")).message).toContain('not "a tac"');
  });

  it("E6a A6 reads a commander as formation:unitType, leaving a wrong one for the engine to refuse", () => {
    expect(asCommander({ c: "hq: warlord" }, "c")).toEqual({ formation: "hq", unitType: "warlord" });
    expect(asCommander({}, "c")).toEqual({ formation: "", unitType: "" });
  });

  it("A8 reads a titan's weapons as like for like, or name=replacement:points", () => {
    expect(asWeapons({ w: "volcano cannon, gatling blaster=plasma blastgun:150" }, "w")).toEqual([
      { destroyed: "volcano cannon" },
      { destroyed: "gatling blaster", replacement: { name: "plasma blastgun", points: 150 } },
    ]);
    expect(asWeapons({ w: "" }, "w")).toEqual([]);
    expect(refusalOf(() => asWeapons({ w: "gatling blaster=plasma" }, "w")).field).toBe("w");
  });

  it("O2 reads the browser's local date and time as the UTC instant the organiser sees", () => {
    const at = asDeadline({ at: "2026-12-01T20:30" }, "at");
    expect(at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(new Date(at).getTime()).toBe(new Date(2026, 11, 1, 20, 30).getTime());
    expect(refusalOf(() => asDeadline({ at: "2026-02-30T10:00" }, "at")).field).toBe("at");
    expect(refusalOf(() => asDeadline({ at: "" }, "at")).message).toContain("choose a date and time");
  });
});
