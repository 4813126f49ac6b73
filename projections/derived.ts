import type { AdvancedRule, Catalogue, Edge, MapDefinition, Order, RosterFormation, Square, Terrain, TerrainLetter, VpTableRow } from "../events/common.js";
import { TERRAIN_LETTERS } from "../events/common.js";
import { afterScouting, type ScoutingBandName } from "./scouting.js";

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

/** Whether the campaign plays an advanced rule (A1-A8): each is off unless chosen at set-up. */
export function advancedRule(options: { advanced?: Partial<Record<AdvancedRule, boolean>> }, rule: AdvancedRule): boolean {
  return options.advanced?.[rule] === true;
}

/**
 * D1: the first 64 bits of a host seed commitment. A reused commitment has the same print; a fresh one shares an earlier
 * print by chance with odds below one in 10^13 over a thousand turns.
 */
const SEED_PRINT_LENGTH = 16;
export const seedPrint = (hostSeedHash: string): string => hostSeedHash.slice(0, SEED_PRINT_LENGTH);

/** D1: the turn whose host seed commitment had this one's print, in prints run together (CampaignState), or null. */
export function turnOfSeedPrint(prints: string, hostSeedHash: string): number | null {
  const print = seedPrint(hostSeedHash);
  for (let at = prints.indexOf(print); at >= 0; at = prints.indexOf(print, at + 1)) {
    if (at % SEED_PRINT_LENGTH === 0) return at / SEED_PRINT_LENGTH + 1;
  }
  return null;
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

export const squareKey = ([x, y]: Square): string => `${x},${y}`;

/** B3: the VPs needed to win a battle of this average size: the campaign's table, or 10 x ceil(average / 1,000) + 5. */
export function vpTarget(averagePoints: number, table?: readonly VpTableRow[]): number {
  if (table && table.length > 0) return (table.find((row) => averagePoints <= row.upTo) ?? table[table.length - 1]!).vp;
  return 10 * Math.ceil(averagePoints / 1000) + 5;
}

/** S4: a win is overwhelming when the winner's VPs are at least 1.5 x the loser's (or the loser has none and the winner some). */
export function isOverwhelming(winnerVp: number, loserVp: number): boolean {
  if (loserVp === 0) return winnerVp > 0;
  return winnerVp * 2 >= loserVp * 3;
}

export interface Engagement {
  /** Who has the initiative in battle turn 1 (and 2), or null for the standard roll. */
  initiative: { side: "attacker" | "defender"; turns: number[] } | null;
  /** Extra deployment distance forward, in cm. */
  forwardCm: { attacker: number; defender: number };
  /** Which side deploys first, or null for the standard order. */
  deploysFirst: "attacker" | "defender" | null;
  /** The sentence of the B2 table. */
  effect: string;
  /** A3: the defender's units may start the battle dug in. */
  dugIn?: boolean;
}

/**
 * B2: the engagement effects of the attacker's order against the defender's; A3: changed by the band of the attacker's
 * scouting of the defender this turn, if any.
 */
export function engagement(attacker: Order, defender: Order, scouting?: ScoutingBandName): Engagement {
  const standard: Engagement = { initiative: null, forwardCm: { attacker: 0, defender: 0 }, deploysFirst: null, effect: "standard battle" };
  const row = (attackerOrder: Order, defenderOrder: Order): Engagement => {
    const key = `${attackerOrder}/${defenderOrder}`;
    switch (key) {
      case "advance/firstFire":
        return { initiative: { side: "defender", turns: [1] }, forwardCm: { attacker: 0, defender: 15 }, deploysFirst: null, effect: "defender has initiative turn 1; defender deploys 15 cm further forward" };
      case "advance/charge":
        return { ...standard, initiative: { side: "attacker", turns: [1] }, effect: "standard deployment; attacker has initiative turn 1" };
      case "advance/fortify":
        return { ...standard, initiative: { side: "attacker", turns: [1] }, deploysFirst: "defender", effect: "defender sets up army and fortifications first; attacker has initiative turn 1" };
      case "charge/firstFire":
        return { initiative: { side: "defender", turns: [1, 2] }, forwardCm: { attacker: 0, defender: 25 }, deploysFirst: "attacker", effect: "defender has initiative turns 1 and 2; defender deploys 25 cm further forward and deploys after the attacker" };
      case "charge/advance":
        return { ...standard, initiative: { side: "defender", turns: [1] }, deploysFirst: "attacker", effect: "attacker deploys first; defender has initiative turn 1" };
      case "charge/fortify":
        return { initiative: { side: "attacker", turns: [1] }, forwardCm: { attacker: 15, defender: 0 }, deploysFirst: null, effect: "attacker deploys 15 cm further forward; defender places defences anywhere, army in the standard zone; attacker has initiative turn 1" };
      default:
        return standard;
    }
  };
  return scouting ? afterScouting(row(attacker, defender), defender, scouting) : row(attacker, defender);
}

/** E2: a side's CVPs now: battle CVPs plus the value of every objective and enemy home base it holds. */
export function cvpTotals(state: {
  setup: { players: { id: string }[]; awards: AwardTable } | null;
  ledgers: Record<string, { battleCvps: number }>;
  objectives: Record<string, { heldBy: string | null }>;
  homeBases: Record<string, { player: string; heldBy: string }>;
}): Record<string, number> {
  const totals: Record<string, number> = {};
  if (!state.setup) return totals;
  for (const { id } of state.setup.players) {
    let total = state.ledgers[id]?.battleCvps ?? 0;
    for (const objective of Object.values(state.objectives)) if (objective.heldBy === id) total += state.setup.awards.objective;
    for (const home of Object.values(state.homeBases)) if (home.heldBy === id && home.player !== id) total += state.setup.awards.homeBase;
    totals[id] = total;
  }
  return totals;
}

/** Adds unit counts into a pool, in place. */
export function addUnits(pool: Record<string, number>, units: Readonly<Record<string, number>>): void {
  for (const [type, count] of Object.entries(units)) if (count > 0) pool[type] = (pool[type] ?? 0) + count;
}

/** Takes unit counts out of a pool, in place, dropping types that reach zero. */
export function removeUnits(pool: Record<string, number>, units: Readonly<Record<string, number>>): void {
  for (const [type, count] of Object.entries(units)) {
    const left = (pool[type] ?? 0) - count;
    if (left > 0) pool[type] = left;
    else delete pool[type];
  }
}

/** The surviving units of an army's roster, summed by unit type. */
export function rosterUnits(formations: readonly RosterFormation[]): Record<string, number> {
  const units: Record<string, number> = {};
  for (const formation of formations) addUnits(units, formation.units);
  return units;
}
