import { describe, expect, it } from "vitest";
import { TERRAIN_LETTERS } from "../../events/common.js";
import { terrainGuide } from "../../src/words/terrain-guide.js";

describe("K1 the battle sheet's terrain guide", () => {
  it("K1 names each terrain with what it asks of the table, and the road where the square has one", () => {
    expect(terrainGuide("forest", false)).toBe("forest: mostly woods");
    expect(terrainGuide("river", true)).toBe("river: a river through the table, with a road across the table");
    expect(terrainGuide("city", false)).toBe("city: every building a city holds");
    const guides = Object.values(TERRAIN_LETTERS).map((terrain) => terrainGuide(terrain, false));
    expect(new Set(guides).size).toBe(guides.length);
  });
});
