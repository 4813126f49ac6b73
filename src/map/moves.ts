import type { Square } from "../../events/common.js";
import { centreOf, playerName, sideOf, squareLabel, type Scene } from "./scene.js";
import { element, group, num, title } from "./svg.js";

/**
 * The moves of this turn: for each army that moved (T4, an ArmyMoved folded into its activation), a line in its side's
 * colour from where it stood when activated through every square of its path, ending in an arrow at the edge of the
 * square it reached, so that the counter standing there does not hide the arrow's head. Moves are public: the path is
 * in the log the moment it is walked, the order behind it only when revealed.
 */
export function moveLayer(scene: Scene): string {
  const activations = Object.values(scene.view.turnState?.activations ?? {});
  const moved = activations.filter((a) => a.from !== null && a.path.length > 0).sort((a, b) => a.seq - b.seq);
  return group(
    { class: "moves" },
    moved.map((activation) => {
      const squares: Square[] = [activation.from!, ...activation.path];
      const centres = squares.map((square) => centreOf(scene, square));
      // Steps are king moves between squares side by side: half-way between the last two centres is their edge.
      const last = centres.at(-1)!;
      const before = centres.at(-2)!;
      centres[centres.length - 1] = { x: (last.x + before.x) / 2, y: (last.y + before.y) / 2 };
      const side = sideOf(scene, activation.player);
      const name = scene.view.armies[activation.army]?.name ?? activation.army;
      return group({ class: "move" }, [
        title(
          `${name} (${playerName(scene, activation.player)}) moved ${squares.map(squareLabel).join(" \u2192 ")} this turn`,
        ),
        element("polyline", {
          points: centres.map(({ x, y }) => `${num(x)},${num(y)}`).join(" "),
          fill: "none",
          stroke: side.colour,
          "stroke-width": scene.size * 0.06,
          "stroke-linejoin": "round",
          "stroke-opacity": 0.85,
          "marker-end": `url(#${arrowId(side.colour)})`,
        }),
      ]);
    }),
  );
}

/** The arrow heads, one per side colour, for the moves' lines. */
export function arrowDefs(scene: Scene): string {
  const colours = [...new Set([...scene.sides.values()].map((side) => side.colour))].sort();
  return colours
    .map((colour) =>
      element(
        "marker",
        {
          id: arrowId(colour),
          viewBox: "0 0 10 10",
          refX: 6,
          refY: 5,
          markerWidth: 3,
          markerHeight: 3,
          orient: "auto",
        },
        element("path", { d: "M0 0L10 5L0 10Z", fill: colour }),
      ),
    )
    .join("");
}

/** A fixed id per colour: the same SVG text every time, and no clash between the two sides. */
const arrowId = (colour: string) => `epicwar-arrow-${colour.replace(/[^0-9a-z]/gi, "")}`;
