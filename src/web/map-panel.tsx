import type { Square } from "../../events/common.js";
import { squareKey } from "../../projections/grid.js";
import { renderMap } from "../map/render-map.js";
import { MAP_INSET } from "../map/scene.js";
import type { Order } from "../../events/common.js";
import type { CampaignView } from "../views.js";

export const SQUARE_SIZE = 48;

export interface MapMarks {
  /** Squares to highlight (an order's reach), by square key. */
  reach?: ReadonlySet<string>;
  /** Those of them that hold an enemy to attack. */
  attacks?: ReadonlySet<string>;
  /** A path to draw, square by square. */
  path?: readonly Square[];
  /** The square of the army chosen. */
  chosen?: Square;
}

interface Props {
  view: CampaignView;
  viewer: string | undefined;
  heldOrders: Record<string, Order>;
  marks?: MapMarks;
  onSquare?: (square: Square) => void;
}

/**
 * The map as the engine draws it (renderMap, src/map), with the page's marks over it in the same coordinates: the
 * squares an order reaches, the path chosen. A click names the square under it.
 */
export function MapPanel({ view, viewer, heldOrders, marks = {}, onSquare }: Props) {
  const svg = renderMap(view, { ...(viewer ? { viewer } : {}), squareSize: SQUARE_SIZE, heldOrders });
  const inset = MAP_INSET * SQUARE_SIZE;
  const { width, height } = view.setup!.map;
  const rect = ([x, y]: Square, cls: string) => (
    <rect
      class={cls}
      x={inset + x * SQUARE_SIZE + 2}
      y={inset + y * SQUARE_SIZE + 2}
      width={SQUARE_SIZE - 4}
      height={SQUARE_SIZE - 4}
    />
  );
  const click = (event: MouseEvent) => {
    const box = (event.currentTarget as HTMLElement).getBoundingClientRect();
    const x = Math.floor((event.clientX - box.left - inset) / SQUARE_SIZE);
    const y = Math.floor((event.clientY - box.top - inset) / SQUARE_SIZE);
    if (x >= 0 && y >= 0 && x < width && y < height) onSquare?.([x, y]);
  };
  const reach = [...(marks.reach ?? [])].map((key) => key.split(",").map(Number) as Square);
  const attack = (square: Square) => marks.attacks?.has(squareKey(square)) ?? false;
  return (
    <div class="map" onClick={click} data-testid="map">
      <div class="map-svg" dangerouslySetInnerHTML={{ __html: svg }} />
      <svg class="map-marks" width={inset * 2 + width * SQUARE_SIZE} height={inset * 2 + height * SQUARE_SIZE}>
        {reach.map((square) => (
          <g key={squareKey(square)} data-square={squareKey(square)} data-attack={attack(square) || undefined}>
            {rect(square, attack(square) ? "reach attack" : "reach")}
          </g>
        ))}
        {(marks.path ?? []).map((square, index) => (
          <g key={`p${index}`} data-path-step={index}>
            {rect(square, "path")}
          </g>
        ))}
        {marks.chosen && rect(marks.chosen, "chosen")}
      </svg>
    </div>
  );
}
