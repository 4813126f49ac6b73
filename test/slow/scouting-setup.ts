import type { Square } from "../../events/common.js";

interface Setup {
  campaign: string;
  name: string;
  map: { width: number; height: number; terrain: string[]; roads: Square[] };
  options: Record<string, unknown>;
  homeBases: Record<string, Square>;
  objectives: Array<{ placedBy: string; at: Square }>;
  armies: Array<{ id: string; player: string; at: Square }>;
}

/**
 * Ashfall's north and south edges, three rows each, pushed together into a 20 x 6 map with A3 scouting and the A8
 * war chest played: the
 * Concord's Border Watch (c6) on its home base (9,1) reaches the Horde's Ashfoot Throng (h5), alone on its home base
 * (9,4), on Advance in turn 1, so a scouting can be played at once. The objectives the middle rows held are placed
 * again on terrain of note in the right halves, three squares apart.
 */
export function scoutingSetup(ashfall: Setup): Setup {
  const rows = [0, 1, 2, 9, 10, 11];
  const row = (y: number) => rows.indexOf(y);
  const terrain = rows.map((y) => ashfall.map.terrain[y]!);
  return {
    ...ashfall,
    campaign: "scoutfall",
    name: "Scoutfall: Ashfall's edges pushed together",
    map: {
      ...ashfall.map,
      height: rows.length,
      terrain,
      roads: ashfall.map.roads.filter(([, y]) => row(y) >= 0).map(([x, y]) => [x, row(y)] as Square),
    },
    options: { advanced: { scouting: true, warChest: true } },
    homeBases: { concord: [9, 1], horde: [9, 4] },
    objectives: OBJECTIVES,
    armies: ashfall.armies.map((army) => ({
      ...army,
      at:
        army.id === "c6" ? [9, 1] : army.id === "h5" ? [9, 4] : [Number(army.at[0]), army.player === "concord" ? 0 : 5],
    })),
  };
}

/** Four a side, each in the other's half on terrain of note, none within two squares of another or of a home base (S6). */
const OBJECTIVES: Array<{ placedBy: string; at: Square }> = [
  ...(
    [
      [2, 0],
      [15, 0],
      [18, 0],
      [6, 1],
    ] as Square[]
  ).map((at) => ({ placedBy: "horde", at })),
  ...(
    [
      [2, 3],
      [13, 3],
      [16, 3],
      [6, 4],
    ] as Square[]
  ).map((at) => ({ placedBy: "concord", at })),
];
