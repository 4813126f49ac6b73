import type { Square } from "../../events/common.js";
import type { CampaignView } from "../views/view.js";
import { SIDE_COLOURS } from "./palette.js";

/** A player as the map draws it: its colour, and whether it is the viewer's own side. */
export interface Side {
  readonly id: string;
  readonly name: string;
  readonly colour: string;
  readonly own: boolean;
}

/** What every layer of the map draws from: the view, the sides, and where the squares lie in pixels. */
export interface Scene {
  readonly view: CampaignView & { setup: NonNullable<CampaignView["setup"]> };
  /** The player looking, if a player is: whose secrets the view holds, and whose held orders may be drawn. */
  readonly looking: Side | undefined;
  readonly sides: ReadonlyMap<string, Side>;
  /** Pixels per square. */
  readonly size: number;
  /** The top-left corner of square (0,0): right of the row numbers, below the column numbers. */
  readonly left: number;
  readonly top: number;
}

/**
 * The sides of the campaign: the set-up's first player blue, the other red, whoever looks, so that a side has the same
 * colour on every seat's map; the viewer's own side is marked as such (the legend says "you").
 */
export function sidesOf(view: Scene["view"], viewer: string | undefined): Map<string, Side> {
  const players = view.setup.players;
  const first = players[0]?.id;
  return new Map(
    players.map((p) => [
      p.id,
      { id: p.id, name: p.name, colour: p.id === first ? SIDE_COLOURS.own : SIDE_COLOURS.other, own: p.id === viewer },
    ]),
  );
}

/** A player's side, or a stand-in for an id the set-up does not list (a view is drawn, never refused). */
export function sideOf(scene: Scene, player: string): Side {
  return scene.sides.get(player) ?? { id: player, name: player, colour: SIDE_COLOURS.other, own: false };
}

/** The margin left of column 0 and above row 0, in squares: room for the grid's numbers. */
export const MAP_INSET = 0.5;

/** The top-left corner of a square, in pixels. */
export function cornerOf(scene: Scene, [x, y]: Square): { x: number; y: number } {
  return { x: scene.left + x * scene.size, y: scene.top + y * scene.size };
}

/** The centre of a square, in pixels. */
export function centreOf(scene: Scene, square: Square): { x: number; y: number } {
  const { x, y } = cornerOf(scene, square);
  return { x: x + scene.size / 2, y: y + scene.size / 2 };
}

/** A square as the engine's messages write it: (x,y), x from the west edge, y from the north edge, both from 0. */
export const squareLabel = ([x, y]: Square): string => `(${x},${y})`;

/** Squares in reading order, north to south, west to east: the one order every layer draws in. */
export const byReadingOrder = (a: Square, b: Square): number => a[1] - b[1] || a[0] - b[0];

/** The name of a player in the words of a title: its name from the set-up, or its id. */
export const playerName = (scene: Scene, player: string): string => sideOf(scene, player).name;

/** A copy sorted by a text key, in code-unit order: the same order in every locale. */
export function sortedBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  return [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
