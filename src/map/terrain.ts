import type { Square, TerrainLetter } from "../../events/common.js";
import { GRID, INK, ROAD, TERRAIN } from "./palette.js";
import { cornerOf, centreOf, byReadingOrder, type Scene } from "./scene.js";
import { element, group, num } from "./svg.js";

/**
 * The ground: terrain, roads, the grid and its coordinates. Terrain is drawn as runs of one kind along each row, which
 * keeps a large map's SVG small; the grid is drawn over it in one path.
 */
export function terrainLayer(scene: Scene): string {
  const { map } = scene.view.setup;
  const runs: string[] = [];
  map.terrain.forEach((row, y) => {
    let start = 0;
    for (let x = 1; x <= row.length; x++) {
      if (x < row.length && row[x] === row[start]) continue;
      const { x: px, y: py } = cornerOf(scene, [start, y]);
      const colour = TERRAIN[row[start] as TerrainLetter]?.colour ?? INK;
      runs.push(element("rect", { x: px, y: py, width: (x - start) * scene.size, height: scene.size, fill: colour }));
      start = x;
    }
  });
  return group({ class: "terrain" }, runs);
}

/**
 * Roads, from the set-up's road squares: a segment joins each two road squares side by side, and two diagonal ones
 * where no road square beside both already joins them (so that a road turning a corner is not drawn as a triangle).
 * A road square with no road next to it is a dot.
 */
export function roadLayer(scene: Scene): string {
  const key = (x: number, y: number) => `${x},${y}`;
  const roads = [...new Map(scene.view.setup.map.roads.map((s) => [key(...s), s])).values()].sort(byReadingOrder);
  if (roads.length === 0) return "";
  const isRoad = new Set(roads.map((s) => key(...s)));
  const road = (x: number, y: number) => isRoad.has(key(x, y));
  const segments: string[] = [];
  const joined = new Set<string>();
  for (const [x, y] of roads) {
    const next: Square[] = [];
    if (road(x + 1, y)) next.push([x + 1, y]);
    if (road(x, y + 1)) next.push([x, y + 1]);
    if (road(x + 1, y + 1) && !road(x + 1, y) && !road(x, y + 1)) next.push([x + 1, y + 1]);
    if (road(x - 1, y + 1) && !road(x - 1, y) && !road(x, y + 1)) next.push([x - 1, y + 1]);
    const from = centreOf(scene, [x, y]);
    for (const square of next) {
      const to = centreOf(scene, square);
      segments.push(`M${num(from.x)} ${num(from.y)}L${num(to.x)} ${num(to.y)}`);
      joined.add(key(x, y)).add(key(...square));
    }
  }
  const width = scene.size * 0.09;
  const path = segments.join("");
  const dots = roads
    .filter((s) => !joined.has(key(...s)))
    .map((square) => {
      const { x, y } = centreOf(scene, square);
      return element("circle", { cx: x, cy: y, r: width * 1.2, fill: ROAD });
    });
  const strokes = path
    ? [
        // A pale edge under the road keeps it visible on mountains and rivers.
        element("path", {
          d: path,
          fill: "none",
          stroke: "#f4efe6",
          "stroke-width": width * 2,
          "stroke-linecap": "round",
        }),
        element("path", { d: path, fill: "none", stroke: ROAD, "stroke-width": width, "stroke-linecap": "round" }),
      ]
    : [];
  return group({ class: "roads" }, [...strokes, ...dots]);
}

/** The grid's lines over the whole map, and each column's and row's number in the margins. */
export function gridLayer(scene: Scene): string {
  const { width, height } = scene.view.setup.map;
  const { size, left, top } = scene;
  const right = left + width * size;
  const bottom = top + height * size;
  const lines: string[] = [];
  for (let x = 0; x <= width; x++) lines.push(`M${num(left + x * size)} ${num(top)}V${num(bottom)}`);
  for (let y = 0; y <= height; y++) lines.push(`M${num(left)} ${num(top + y * size)}H${num(right)}`);
  const fontSize = size * 0.26;
  const columns = Array.from({ length: width }, (_, x) =>
    element("text", { x: centreOf(scene, [x, 0]).x, y: top - size * 0.15, "text-anchor": "middle" }, String(x)),
  );
  const rows = Array.from({ length: height }, (_, y) =>
    element(
      "text",
      { x: left - size * 0.15, y: centreOf(scene, [0, y]).y, dy: "0.35em", "text-anchor": "end" },
      String(y),
    ),
  );
  return group({ class: "grid" }, [
    element("path", { d: lines.join(""), fill: "none", stroke: GRID, "stroke-width": size / 64 }),
    group({ class: "coordinates", "font-size": fontSize, fill: INK }, [...columns, ...rows]),
  ]);
}
