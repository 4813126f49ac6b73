import type { Order } from "../../events/common.js";
import type { ViewedEntry } from "../views/view.js";
import { ORDER_NAMES } from "../words/orders.js";
import { NEUTRAL } from "./palette.js";
import { byReadingOrder, cornerOf, sideOf, sortedBy, squareLabel, type Scene } from "./scene.js";
import { clip, element, group, thousands, title, wrap, xml } from "./svg.js";

type Army = ViewedEntry<"armies">;

/** Short forms of the orders for a counter; the title gives the full name. */
const ORDER_SHORT = { firstFire: "FF", advance: "ADV", charge: "CHG", fortify: "FORT" } as const satisfies Record<
  Order,
  string
>;

/** What a counter may say of an army's order this turn: the order, or only that it was given. */
type OrderKnown = { order: Order; how: string } | { order: undefined; how: string } | undefined;

/**
 * The army counters: one per army on the map, in its side's colour, with its name, its points and its order this turn
 * where the view knows them. Armies sharing a square (a battle, a stack) share it in rows, in order of their ids.
 *
 * A counter never shows a hidden value, nor anything that would change with one: an enemy's fogged points read "?" and
 * its unrevealed order "?" as well, whatever they are.
 */
export function counterLayer(scene: Scene, heldOrders: Readonly<Record<string, Order>>): string {
  const onMap = sortedBy(
    Object.values(scene.view.armies).filter((army) => army.status === "active" && army.at !== null),
    (army) => army.id,
  );
  const bySquare = new Map<string, Army[]>();
  for (const army of onMap) {
    const key = `${army.at![0]},${army.at![1]}`;
    bySquare.set(key, [...(bySquare.get(key) ?? []), army]);
  }
  const counters = [...bySquare.values()]
    .sort((a, b) => byReadingOrder(a[0]!.at!, b[0]!.at!))
    .flatMap((armies) => armies.map((army, row) => counter(scene, army, row, armies.length, heldOrders)));
  return group({ class: "armies" }, counters);
}

function counter(scene: Scene, army: Army, row: number, rows: number, heldOrders: Readonly<Record<string, Order>>) {
  const { size } = scene;
  const side = sideOf(scene, army.player);
  const corner = cornerOf(scene, army.at!);
  // The top 0.3 of the square is the markers' strip (markers.ts).
  const top = corner.y + size * 0.3;
  const rowHeight = (size * 0.67) / rows;
  const width = size * 0.9;
  const x = corner.x + size * 0.05;
  const y = top + row * rowHeight;
  const order = knownOrder(scene, army, heldOrders);
  const stated = statedPoints(scene, army.id);
  const pointsText =
    typeof army.points === "number" ? thousands(army.points) : stated !== undefined ? `~${thousands(stated)}` : "?";
  const orderText = order === undefined ? "" : ` \u00b7 ${order.order ? ORDER_SHORT[order.order] : "?"}`;
  const height = rowHeight - size * 0.03;
  const label = counterLabel(
    army.name,
    `${pointsText}${orderText}`,
    width,
    height,
    Math.min(size * 0.16, rowHeight * 0.38),
  );
  const textX = x + label.fontSize * 0.3;
  const baseline = y + (height - label.fontSize * (1.25 + LINE * (label.lines.length - 1))) / 2 + label.fontSize;
  return group({ class: `army ${side.own ? "own" : "enemy"}`, "data-army": army.id }, [
    title(counterWords(scene, army, order, stated)),
    element("rect", {
      x,
      y,
      width,
      height,
      rx: size * 0.04,
      fill: side.colour,
      stroke: NEUTRAL,
      "stroke-width": size * 0.02,
    }),
    ...label.lines.map((line, index) =>
      element(
        "text",
        {
          x: textX,
          y: baseline + index * LINE * label.fontSize,
          "font-size": label.fontSize,
          ...(index < label.lines.length - 1 ? { "font-weight": "bold" } : {}),
          fill: NEUTRAL,
        },
        xml(line),
      ),
    ),
  ]);
}

/** A counter's line height, in font sizes. */
const LINE = 1.1;
/** The font sizes a counter's name is tried at, as parts of its largest, before it is cut short. */
const SCALES = [1, 0.9, 0.8, 0.7, 0.6] as const;

/**
 * A counter's text: its name in full, broken between words over the lines the counter has room for (in a smaller
 * font where it must be), then its points and order. A name that fits no way is cut short at the smallest font (the
 * counter's title, and the web page's square in words, still give it whole).
 */
function counterLabel(name: string, last: string, width: number, height: number, largest: number) {
  const fit = (fontSize: number) => {
    const chars = Math.max(Math.floor((width - fontSize * 0.6) / (fontSize * 0.5)), 1);
    const lines = Math.max(Math.floor(height / (fontSize * (LINE + 0.05))), 2);
    return { fontSize, chars, nameLines: wrap(name, chars, lines - 1) };
  };
  for (const scale of SCALES) {
    const { fontSize, chars, nameLines } = fit(largest * scale);
    if (nameLines && Array.from(last).length <= chars) return { fontSize, lines: [...nameLines, clip(last, chars)] };
  }
  const { fontSize, chars } = fit(largest * SCALES.at(-1)!);
  return { fontSize, lines: [clip(name, chars), clip(last, chars)] };
}

/**
 * The army's order this turn as the view knows it: revealed (T5), made public by a scouting (A3) while its activation
 * is the one pledged, the viewer's own held order (only for the viewer's own armies), or only that it was given.
 * Undefined for an army not activated this turn and with no order made public.
 */
function knownOrder(scene: Scene, army: Army, heldOrders: Readonly<Record<string, Order>>): OrderKnown {
  const turn = scene.view.turnState;
  const activation = turn?.activations[army.id];
  const pledged = turn?.scouting?.pledges[army.id];
  const held = scene.looking && army.player === scene.looking.id ? heldOrders[army.id] : undefined;
  if (activation?.order) return { order: activation.order, how: "revealed" };
  if (pledged && (!activation || activation.commitment === pledged.commitment))
    return { order: pledged.order, how: "made public by scouting" };
  if (activation && held) return { order: held, how: "hidden from the opponent" };
  return activation ? { order: undefined, how: "activated, order hidden" } : undefined;
}

/** A3: the size the army's player last stated to a scout this turn, public as stated. */
function statedPoints(scene: Scene, army: string): number | undefined {
  const scoutings = Object.values(scene.view.turnState?.scouting?.scoutings ?? {})
    .filter((s) => s.target === army && s.statedPoints !== null)
    .sort((a, b) => a.seq - b.seq);
  return scoutings.at(-1)?.statedPoints ?? undefined;
}

function counterWords(scene: Scene, army: Army, order: OrderKnown, stated: number | undefined): string {
  const points =
    typeof army.points === "number"
      ? `${thousands(army.points)} points`
      : stated !== undefined
        ? `points hidden, stated to a scout as ${thousands(stated)}`
        : "points hidden";
  const orderWords =
    order === undefined ? "" : order.order ? `; order ${ORDER_NAMES[order.order]} (${order.how})` : `; ${order.how}`;
  return `${army.name} (${sideOf(scene, army.player).name}) at ${squareLabel(army.at!)}: ${points}, move rate ${army.moveRate}${orderWords}`;
}
