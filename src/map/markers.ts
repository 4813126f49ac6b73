import type { Square } from "../../events/common.js";
import type { ViewedEntry } from "../views/view.js";
import { ORDER_NAMES } from "../words/orders.js";
import { BATTLE, DEFENCES, INK, NEUTRAL } from "./palette.js";
import { byReadingOrder, cornerOf, playerName, sideOf, sortedBy, squareLabel, type Scene } from "./scene.js";
import { element, group, num, thousands, title } from "./svg.js";

/**
 * What stands on the squares besides armies: objectives, home bases, captured cities, defences, and the battles of
 * the turn still to be fought. Markers sit in a strip along the top of their square, left to right in that order, so
 * that the army counters below them never cover them; defences are written at the strip's right end.
 */

/** A marker drawn at a centre point, `radius` being a tenth of the square. */
type Draw = (cx: number, cy: number, radius: number) => string;

/** The part of the square's top strip a marker takes, from the left. */
const SLOT = 0.23;

export function markerLayer(scene: Scene): string {
  const { view } = scene;
  const bySquare = new Map<string, { at: Square; draws: Draw[] }>();
  const add = (at: Square, draw: Draw) => {
    const key = `${at[0]},${at[1]}`;
    const entry = bySquare.get(key) ?? { at, draws: [] };
    entry.draws.push(draw);
    bySquare.set(key, entry);
  };
  for (const objective of sortedBy(Object.values(view.objectives), (o) => o.id))
    add(objective.at, objectiveMarker(scene, objective));
  for (const home of sortedBy(Object.values(view.homeBases), (h) => h.player))
    add(home.at, homeBaseMarker(scene, home));
  for (const [key, holder] of sortedBy(Object.entries(view.cities), ([key]) => key))
    add(squareOfKey(key), cityMarker(scene, holder, squareOfKey(key)));
  const markers = [...bySquare.values()]
    .sort((a, b) => byReadingOrder(a.at, b.at))
    .flatMap(({ at, draws }) => {
      const corner = cornerOf(scene, at);
      return draws.map((draw, slot) =>
        draw(corner.x + scene.size * (0.14 + slot * SLOT), corner.y + scene.size * 0.15, scene.size * 0.1),
      );
    });
  return group({ class: "markers" }, [...markers, ...defenceMarkers(scene)]);
}

function objectiveMarker(scene: Scene, objective: ViewedEntry<"objectives">): Draw {
  const held = objective.heldBy === null ? "not yet captured" : `held by ${playerName(scene, objective.heldBy)}`;
  const words = `Objective placed by ${playerName(scene, objective.placedBy)} at ${squareLabel(objective.at)}: ${held}`;
  const fill = objective.heldBy === null ? NEUTRAL : sideOf(scene, objective.heldBy).colour;
  return (cx, cy, r) =>
    group({ class: "objective" }, [
      title(words),
      element("circle", {
        cx,
        cy,
        r,
        fill,
        stroke: sideOf(scene, objective.placedBy).colour,
        "stroke-width": r * 0.45,
      }),
      element("circle", { cx, cy, r: r * 0.3, fill: INK }),
    ]);
}

function homeBaseMarker(scene: Scene, home: ViewedEntry<"homeBases">): Draw {
  const held = home.heldBy === home.player ? "held by its owner" : `held by ${playerName(scene, home.heldBy)}`;
  const words = `Home base of ${playerName(scene, home.player)} at ${squareLabel(home.at)} (A5): ${held}`;
  return (cx, cy, r) => {
    const house = [
      [cx, cy - r * 1.15],
      [cx + r, cy - r * 0.2],
      [cx + r, cy + r],
      [cx - r, cy + r],
      [cx - r, cy - r * 0.2],
    ];
    return group({ class: "home-base" }, [
      title(words),
      element("polygon", {
        points: house.map(([x, y]) => `${num(x!)},${num(y!)}`).join(" "),
        fill: sideOf(scene, home.heldBy).colour,
        stroke: sideOf(scene, home.player).colour,
        "stroke-width": r * 0.35,
        "stroke-linejoin": "round",
      }),
    ]);
  };
}

/** A8: a captured city, held like an objective: a flag in its holder's colour. */
function cityMarker(scene: Scene, holder: string, at: Square): Draw {
  const words = `City at ${squareLabel(at)} held by ${playerName(scene, holder)} (A8)`;
  return (cx, cy, r) =>
    group({ class: "city-held" }, [
      title(words),
      element("path", {
        d: `M${num(cx - r * 0.6)} ${num(cy + r)}V${num(cy - r)}`,
        stroke: INK,
        "stroke-width": r * 0.25,
      }),
      element("path", {
        d: `M${num(cx - r * 0.6)} ${num(cy - r)}L${num(cx + r)} ${num(cy - r * 0.5)}L${num(cx - r * 0.6)} ${num(cy)}Z`,
        fill: sideOf(scene, holder).colour,
      }),
    ]);
}

/** E3: the defences standing on each square, in points, at the right end of its top strip. */
function defenceMarkers(scene: Scene): string[] {
  return sortedBy(Object.entries(scene.view.defences), ([key]) => key)
    .map(([key, points]) => ({ at: squareOfKey(key), points }))
    .filter(({ points }) => points > 0)
    .sort((a, b) => byReadingOrder(a.at, b.at))
    .map(({ at, points }) => {
      const corner = cornerOf(scene, at);
      return group({ class: "defences" }, [
        title(`Defences at ${squareLabel(at)}: ${thousands(points)} points (E3)`),
        element(
          "text",
          {
            x: corner.x + scene.size * 0.95,
            y: corner.y + scene.size * 0.22,
            "text-anchor": "end",
            "font-size": scene.size * 0.17,
            "font-weight": "bold",
            fill: DEFENCES,
            stroke: NEUTRAL,
            "stroke-width": scene.size * 0.04,
            "paint-order": "stroke",
          },
          thousands(points),
        ),
      ]);
    });
}

/**
 * The battles of the turn not yet resolved: a red frame round the square, and in its title who fights whom, with the
 * points, orders and size the view shows (under fog of war a battle's size stays hidden until the Battle phase).
 */
export function battleLayer(scene: Scene): string {
  const { view, size } = scene;
  const battles = Object.values(view.battles)
    .filter((battle) => battle.turn === view.turn && battle.status !== "resolved")
    .sort((a, b) => a.index - b.index || (a.id < b.id ? -1 : 1));
  return group(
    { class: "battles" },
    battles.map((battle) => {
      const corner = cornerOf(scene, battle.at);
      const inset = size * 0.04;
      return group({ class: "battle" }, [
        title(battleWords(scene, battle)),
        element("rect", {
          x: corner.x + inset,
          y: corner.y + inset,
          width: size - inset * 2,
          height: size - inset * 2,
          fill: "none",
          stroke: BATTLE,
          "stroke-width": size * 0.06,
          "stroke-dasharray": `${num(size * 0.14)} ${num(size * 0.07)}`,
        }),
      ]);
    }),
  );
}

function battleWords(scene: Scene, battle: ViewedEntry<"battles">): string {
  const armyName = (id: string) => scene.view.armies[id]?.name ?? id;
  const side = (s: ViewedEntry<"battles">["attacker"] | ViewedEntry<"battles">["defender"]) => {
    const known = [
      ...(typeof s.points === "number" ? [`${thousands(s.points)} points`] : []),
      ...(s.order ? [ORDER_NAMES[s.order]] : []),
    ];
    return `${armyName(s.army)} (${playerName(scene, s.player)}${known.length ? `, ${known.join(", ")}` : ""})`;
  };
  const size =
    typeof battle.averagePoints === "number" && typeof battle.vpTarget === "number"
      ? `; average ${thousands(battle.averagePoints)} points, ${battle.vpTarget} VPs to win`
      : "";
  const defences = battle.defences > 0 ? `; ${thousands(battle.defences)} points of defences for the defender` : "";
  const status = battle.status === "reported" ? "; result reported, awaiting confirmation" : "; to be fought";
  return `Battle at ${squareLabel(battle.at)}: ${side(battle.attacker)} attacks ${side(battle.defender)} from ${squareLabel(battle.attacker.from)}${size}${defences}${status}`;
}

const squareOfKey = (key: string): Square => key.split(",").map(Number) as Square;
