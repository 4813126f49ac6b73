import type { TERRAIN_LETTERS, TerrainLetter } from "../../events/common.js";

/**
 * The map's colours. Terrain takes the colour code of the source rules ("Designing the war": white plains, green
 * forest, yellow hills, brown mountains, blue river, grey town, purple city; ../shared/RULES.md S1), keyed by the
 * letters the set-up file writes the map with (projections/grid.ts reads them). The names are the engine's own, checked
 * against TERRAIN_LETTERS by type only, so that a browser bundle does not carry the event schemas.
 */
export const TERRAIN = {
  p: { name: "plains", colour: "#ffffff" },
  f: { name: "forest", colour: "#4c9a4c" },
  h: { name: "hills", colour: "#ecd55a" },
  m: { name: "mountains", colour: "#8b5a2b" },
  r: { name: "river", colour: "#5b9bd5" },
  t: { name: "town", colour: "#a6a6a6" },
  c: { name: "city", colour: "#8e5bb5" },
} as const satisfies { readonly [L in TerrainLetter]: { name: (typeof TERRAIN_LETTERS)[L]; colour: string } };

/** A side's colour: the set-up's first player blue and the other red, the same on every seat's map. */
export const SIDE_COLOURS = { own: "#1f4e9c", other: "#b3261e" } as const;

/** Nobody's: an objective not yet captured. */
export const NEUTRAL = "#ffffff";
export const INK = "#1a1a1a";
export const GRID = "#5c5c5c";
export const ROAD = "#4a3b2a";
export const DEFENCES = "#5a3d1e";
export const BATTLE = "#d40000";
