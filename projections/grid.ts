import type { Edge, MapDefinition, Square, Terrain, TerrainLetter } from "../events/common.js";
import { TERRAIN_LETTERS } from "../events/common.js";

/** Grid geometry: squares, distances, edges and halves of the campaign map. */

export function terrainAt(map: MapDefinition, [x, y]: Square): Terrain {
  const letter = map.terrain[y]?.[x] as TerrainLetter | undefined;
  if (!letter) throw new RangeError(`square (${x},${y}) is off the map`);
  return TERRAIN_LETTERS[letter];
}

export function onMap(map: Pick<MapDefinition, "width" | "height">, [x, y]: Square): boolean {
  return x >= 0 && y >= 0 && x < map.width && y < map.height;
}

export function sameSquare(a: Square, b: Square): boolean {
  return a[0] === b[0] && a[1] === b[1];
}

/** King-move distance between two squares (S6). */
export function chebyshev(a: Square, b: Square): number {
  return Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]));
}

/** How many rows (or columns) a square lies in from a base-line edge: 0 on the base line itself. */
export function rowsFromEdge(map: Pick<MapDefinition, "width" | "height">, edge: Edge, [x, y]: Square): number {
  switch (edge) {
    case "north":
      return y;
    case "south":
      return map.height - 1 - y;
    case "west":
      return x;
    case "east":
      return map.width - 1 - x;
  }
}

/** S1: the half of the map nearer a base line; the middle row of an odd map belongs to neither half. */
export function inHalf(map: Pick<MapDefinition, "width" | "height">, edge: Edge, square: Square): boolean {
  const depth = edge === "north" || edge === "south" ? map.height : map.width;
  return rowsFromEdge(map, edge, square) < Math.floor(depth / 2);
}

export const OPPOSITE_EDGE: Record<Edge, Edge> = { north: "south", south: "north", east: "west", west: "east" };

export const squareKey = ([x, y]: Square): string => `${x},${y}`;
