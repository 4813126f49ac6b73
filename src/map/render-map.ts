/**
 * The map as SVG: one pure function of a seat's view of the campaign (viewState), used by `epicwar map`, the campaign
 * server and the web page. Given the same view and options it writes the same text, byte for byte: everything is
 * drawn in a fixed order (squares north to south and west to east, armies by id, battles by start, moves by event),
 * with fixed ids and rounded numbers.
 *
 * It draws only what the view holds: where the view has "hidden" (fog of war, S8 commanders) it draws nothing that
 * depends on the hidden value, and it never draws a commitment, so that a player's map is the same whatever the
 * enemy's hidden orders and strengths are. It imports no Node module and no package, so that a browser bundle takes it
 * whole (test/map/render-map.test.ts bundles it with esbuild).
 */
import type { Order } from "../../events/common.js";
import type { CampaignView } from "../views/view.js";
import { counterLayer } from "./counters.js";
import { battleLayer, markerLayer } from "./markers.js";
import { arrowDefs, moveLayer } from "./moves.js";
import { INK, NEUTRAL, TERRAIN } from "./palette.js";
import { MAP_INSET, sidesOf, type Scene } from "./scene.js";
import { element, group, num, xml } from "./svg.js";
import { gridLayer, roadLayer, terrainLayer } from "./terrain.js";

export interface MapOptions {
  /** Whose view it is: a player id draws that side as its own (blue); the host, or none, sees the set-up's order. */
  viewer?: string;
  /** Pixels per square, 8 to 512 (default 64). */
  squareSize?: number;
  /**
   * The viewer's own orders not yet revealed, from its secrets (ownHeldOrders): drawn on its own counters only, never
   * on another side's.
   */
  heldOrders?: Readonly<Record<string, Order>>;
}

export const DEFAULT_SQUARE_SIZE = 64;

/** The map of a campaign as a viewer may see it, as a standalone SVG document. */
export function renderMap(view: CampaignView, options: MapOptions = {}): string {
  const { setup } = view;
  if (setup === null) throw new TypeError("there is no map before the campaign is set up: this view has no set-up");
  const size = options.squareSize ?? DEFAULT_SQUARE_SIZE;
  if (!Number.isFinite(size) || size < 8 || size > 512)
    throw new RangeError(`a square is 8 to 512 pixels, not ${size}`);
  const sides = sidesOf({ ...view, setup }, options.viewer);
  const scene: Scene = {
    view: { ...view, setup },
    looking: options.viewer === undefined ? undefined : sides.get(options.viewer),
    sides,
    size,
    left: size * MAP_INSET,
    top: size * MAP_INSET,
  };
  const width = scene.left + setup.map.width * size + size * 0.25;
  const mapBottom = scene.top + setup.map.height * size;
  const height = mapBottom + size * 1.5;
  const heading = headingOf(scene);
  return (
    [
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${num(width)} ${num(height)}" width="${num(width)}" height="${num(height)}"` +
        ` role="img" aria-labelledby="epicwar-map-title epicwar-map-desc" font-family="sans-serif">`,
      `<title id="epicwar-map-title">${xml(heading)}</title>`,
      `<desc id="epicwar-map-desc">${xml(summaryOf(scene))}</desc>`,
      `<defs>${arrowDefs(scene)}</defs>`,
      element("rect", { x: 0, y: 0, width, height, fill: NEUTRAL }),
      terrainLayer(scene),
      roadLayer(scene),
      gridLayer(scene),
      markerLayer(scene),
      moveLayer(scene),
      battleLayer(scene),
      counterLayer(scene, options.heldOrders ?? {}),
      legend(scene, mapBottom, heading),
    ].join("\n") + "\n</svg>\n"
  );
}

/** The map's name: the campaign, the moment, and whose view. */
function headingOf(scene: Scene): string {
  const { view } = scene;
  const moment =
    view.status === "new" || view.status === "setup" || view.turn === 0
      ? "set-up"
      : view.status === "finished"
        ? `turn ${view.turn}, campaign over`
        : `turn ${view.turn}, ${view.phase} phase`;
  const whose = scene.looking ? `as seen by ${scene.looking.name}` : "as the log shows it";
  return `${view.setup.name}: ${moment}, ${whose}`;
}

/** What the map shows, in one sentence, for a reader that does not see it. */
function summaryOf(scene: Scene): string {
  const { view } = scene;
  const armies = Object.values(view.armies).filter((army) => army.status === "active" && army.at !== null).length;
  const battles = Object.values(view.battles).filter((b) => b.turn === view.turn && b.status !== "resolved").length;
  const moves = Object.values(view.turnState?.activations ?? {}).filter((a) => a.path.length > 0).length;
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return (
    `A map of ${view.setup.map.width} by ${view.setup.map.height} squares: ${count(armies, "army", "armies")} on the map, ` +
    `${count(battles, "battle", "battles")} to fight, ${count(moves, "move", "moves")} this turn.`
  );
}

/** Under the map: its heading, the sides' colours, and the terrain's. */
function legend(scene: Scene, mapBottom: number, heading: string): string {
  const { size, left } = scene;
  const fontSize = size * 0.22;
  const swatch = size * 0.22;
  /** A row of swatches with their words, each after the one before it (text widths estimated from their length). */
  const row = (y: number, items: ReadonlyArray<{ colour: string; words: string }>) => {
    let x = left;
    return items.map(({ colour, words }) => {
      const item = [
        element("rect", {
          x,
          y: y - swatch * 0.85,
          width: swatch,
          height: swatch,
          fill: colour,
          stroke: INK,
          "stroke-width": size / 64,
        }),
        element("text", { x: x + swatch * 1.4, y }, xml(words)),
      ].join("");
      x += swatch * 2.4 + words.length * fontSize * 0.56;
      return item;
    });
  };
  const sides = [...scene.sides.values()].map((side) => ({
    colour: side.colour,
    words: side.own ? `${side.name} (you)` : side.name,
  }));
  const terrain = Object.values(TERRAIN).map(({ name, colour }) => ({ colour, words: name }));
  return group({ class: "legend", "font-size": fontSize, fill: INK }, [
    element("text", { x: left, y: mapBottom + size * 0.45, "font-weight": "bold" }, xml(heading)),
    ...row(mapBottom + size * 0.85, sides),
    ...row(mapBottom + size * 1.25, terrain),
  ]);
}
