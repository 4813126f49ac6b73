import type { Terrain } from "../../events/common.js";

/**
 * K1: what a battle square's terrain asks of the tabletop, for the battle sheet. It imports nothing but a type, so
 * that a browser bundle (the web page) takes it alone.
 */
export const TERRAIN_GUIDE = {
  plains: "mixed terrain",
  forest: "mostly woods",
  hills: "mostly hills",
  mountains: "mountains",
  river: "a river through the table",
  town: "buildings",
  city: "every building a city holds",
} as const satisfies Record<Terrain, string>;

/** The terrain guide of a battle's square (K1): its terrain, what the table needs, and a road where there is one. */
export function terrainGuide(terrain: Terrain, road: boolean): string {
  return `${terrain}: ${TERRAIN_GUIDE[terrain]}${road ? ", with a road across the table" : ""}`;
}
