import { useId, useState } from "preact/hooks";
import type { Order, Square } from "../../events/common.js";
import { squareKey } from "../../projections/grid.js";
import { renderMap } from "../map/render-map.js";
import { MAP_INSET } from "../map/scene.js";
import type { CampaignView } from "../views/view.js";
import { armiesAt, squareWords } from "./map-words.js";

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
  /** What a square of `reach` is, in words: "in reach" unless told. */
  reachWords?: string;
}

interface Props {
  view: CampaignView;
  viewer: string | undefined;
  heldOrders: Record<string, Order>;
  marks?: MapMarks;
  /** A square chosen (clicked, or Enter on it). */
  onSquare?: (square: Square) => void;
  /** One counter of a stack chosen (clicked), on its square. */
  onArmy?: (army: string, square: Square) => void;
  /** Names the map for a screen reader, and tells what Enter does on it. */
  label?: string;
}

const ZOOMS = [1, 1.5, 2, 3] as const;
const STEPS: Record<string, Square> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/**
 * The map as the engine draws it (renderMap, src/map), scaled to fit its pane and zoomed within it, with the page's
 * marks over it in the same coordinates (the squares an order reaches, the path chosen) and, over those, a grid of
 * the squares for the pointer, the keyboard and a screen reader: one tab stop, the arrows move between squares, each
 * square named in words, Enter or a click chooses it; each counter of a stack is chosen by a click on it. The words
 * of the square in focus or under the pointer are written over the map, every army's name whole.
 */
export function MapPanel({ view, viewer, heldOrders, marks = {}, onSquare, onArmy, label = "The map" }: Props) {
  const [focus, setFocus] = useState<Square>(() => marks.chosen ?? [0, 0]);
  const [zoom, setZoom] = useState(0);
  // The square the pointer is over, and whether the keyboard is on the map: its words are written under the zoom.
  const [pointed, setPointed] = useState<Square | null>(null);
  const [focused, setFocused] = useState(false);
  const id = useId();
  const svg = renderMap(view, { ...(viewer ? { viewer } : {}), squareSize: SQUARE_SIZE, heldOrders });
  const [, boxWidth, boxHeight] = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg)!.map(Number) as [number, number, number];
  const inset = MAP_INSET * SQUARE_SIZE;
  const { width, height } = view.setup!.map;
  const percent = (part: number, whole: number) => `${(100 * part) / whole}%`;
  const rect = ([x, y]: Square, cls: string) => (
    <rect
      class={cls}
      x={inset + x * SQUARE_SIZE + 2}
      y={inset + y * SQUARE_SIZE + 2}
      width={SQUARE_SIZE - 4}
      height={SQUARE_SIZE - 4}
    />
  );
  const reach = [...(marks.reach ?? [])].map((key) => key.split(",").map(Number) as Square);
  const attack = (square: Square) => marks.attacks?.has(squareKey(square)) ?? false;
  const onPath = new Set((marks.path ?? []).map(squareKey));
  const markWords = (square: Square) => {
    const key = squareKey(square);
    if (marks.chosen && squareKey(marks.chosen) === key) return "; the army chosen";
    if (onPath.has(key)) return "; on the path chosen";
    if (attack(square)) return "; in reach, to attack";
    if (marks.reach?.has(key)) return `; ${marks.reachWords ?? "in reach"}`;
    return "";
  };
  const [fx, fy] = focus;
  const keydown = (event: KeyboardEvent) => {
    const step = STEPS[event.key];
    if (step) {
      event.preventDefault();
      setFocus([Math.min(width - 1, Math.max(0, fx + step[0])), Math.min(height - 1, Math.max(0, fy + step[1]))]);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onSquare?.(focus);
    }
  };
  const cellId = ([x, y]: Square) => `${id}-square-${x}-${y}`;
  return (
    <div class="map-view" data-testid="map-view">
      <div class="map-zoom" role="group" aria-label="Zoom the map">
        <button disabled={zoom === 0} onClick={() => setZoom(zoom - 1)} aria-label="Zoom out">
          −
        </button>
        <span aria-live="polite">{ZOOMS[zoom]! * 100}%</span>
        <button disabled={zoom === ZOOMS.length - 1} onClick={() => setZoom(zoom + 1)} aria-label="Zoom in">
          +
        </button>
      </div>
      <p class="map-caption" data-testid="map-caption" aria-hidden="true">
        {pointed ? squareWords(view, pointed, viewer) : focused ? squareWords(view, focus, viewer) : "\u00a0"}
      </p>
      <div class="map-scroll" data-testid="map-scroll">
        <div class="map" data-testid="map" style={{ "--ratio": boxWidth / boxHeight, "--zoom": ZOOMS[zoom] }}>
          <div class="map-svg" aria-hidden="true" dangerouslySetInnerHTML={{ __html: svg }} />
          <svg class="map-marks" viewBox={`0 0 ${boxWidth} ${boxHeight}`} aria-hidden="true">
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
          <div
            class="map-grid"
            role="grid"
            tabIndex={0}
            aria-label={`${label}: the arrow keys move between squares, Enter chooses one`}
            aria-activedescendant={cellId(focus)}
            onKeyDown={keydown}
            onFocus={() => setFocused(true)}
            onBlur={() => setFocused(false)}
            onMouseLeave={() => setPointed(null)}
            style={{
              left: percent(inset, boxWidth),
              top: percent(inset, boxHeight),
              width: percent(width * SQUARE_SIZE, boxWidth),
              height: percent(height * SQUARE_SIZE, boxHeight),
            }}
          >
            {Array.from({ length: height }, (_, y) => (
              <div role="row" key={y} class="map-row">
                {Array.from({ length: width }, (_, x) => {
                  const square: Square = [x, y];
                  const stack = armiesAt(view, square);
                  return (
                    <div
                      key={x}
                      id={cellId(square)}
                      role="gridcell"
                      class={x === fx && y === fy ? "map-cell focus" : "map-cell"}
                      data-cell={squareKey(square)}
                      aria-label={squareWords(view, square, viewer) + markWords(square)}
                      onMouseEnter={() => setPointed(square)}
                      onClick={() => {
                        setFocus(square);
                        onSquare?.(square);
                      }}
                    >
                      {stack.length > 1 &&
                        stack.map((army, row) => (
                          <span
                            key={army.id}
                            class="map-counter"
                            data-counter={army.id}
                            aria-hidden="true"
                            style={{ top: `${30 + (row * 67) / stack.length}%`, height: `${67 / stack.length}%` }}
                            onClick={(event) => {
                              event.stopPropagation();
                              setFocus(square);
                              if (onArmy) onArmy(army.id, square);
                              else onSquare?.(square);
                            }}
                          />
                        ))}
                    </div>
                  );
                })}
              </div>
            ))}
          </div>
        </div>
      </div>
    </div>
  );
}
