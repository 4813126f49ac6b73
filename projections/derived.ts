import type { Catalogue, Edge, MapDefinition, RosterFormation, Square, Terrain, TerrainLetter } from "../events/common.js";
import { TERRAIN_LETTERS } from "../events/common.js";

/** Values the rules derive from the set-up and rosters; shared by reducers and rules, so both agree. */

/**
 * S8/E6: an army is worth the catalogue points of every formation that still has a unit left; a formation that took
 * losses keeps its full value until it is wiped out (the seed's 5,000 -> 4,850 example).
 */
export function armyPoints(formations: readonly RosterFormation[], catalogue: Catalogue): number {
  let points = 0;
  for (const formation of formations) {
    const alive = Object.values(formation.units).some((count) => count > 0);
    if (alive) points += catalogue.formations[formation.formation]?.points ?? 0;
  }
  return points;
}

/** S5: move rate by army points. */
export function moveRate(points: number): number {
  if (points <= 3000) return 3;
  if (points < 6000) return 2;
  return 1;
}

/** S2: F = M x N. */
export function campaignForce(maxArmyPoints: number, armies: number): number {
  return maxArmyPoints * armies;
}

/** S3: the CVPs a side needs to win. */
export function cvpTarget(force: number): number {
  return Math.round(force / 100);
}

export interface AwardTable {
  /** k = F / 10,000 */
  k: number;
  objective: number;
  homeBase: number;
  draw: number;
  win: number;
  overwhelming: number;
}

/** S4: the k-based CVP awards, each rounded half up to a whole CVP. */
export function awardTable(force: number): AwardTable {
  const k = force / 10000;
  const award = (multiple: number) => Math.floor(multiple * k + 0.5);
  return { k, objective: award(5), homeBase: award(10), draw: award(1), win: award(2), overwhelming: award(3) };
}

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
