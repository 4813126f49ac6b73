import type { Square } from "../../events/common.js";
import { squareKey, terrainAt } from "../../projections/grid.js";
import type { CampaignView } from "../views/view.js";
import { sortedBy } from "../map/scene.js";
import { thousands } from "../map/svg.js";

/** A side in words, with "you" for the viewer's own. */
export function sideWords(view: CampaignView, player: string, viewer: string | undefined): string {
  const name = view.setup?.players.find((p) => p.id === player)?.name ?? player;
  return player === viewer ? `${name} (you)` : name;
}

/** An army's points as a reader is told them: "1,200 pts", or that they are hidden (fog of war). */
function pointsWords(points: unknown): string {
  return typeof points === "number" ? `${thousands(points)} pts` : "points hidden";
}

/**
 * A square as a screen reader says it: where, its terrain, a road, an objective or home base, and each army on it
 * with its side and points ("(9,7) plains, Border Watch, Concord of Seven Suns, 1,200 pts").
 */
export function squareWords(view: CampaignView, square: Square, viewer: string | undefined): string {
  const setup = view.setup!;
  const key = squareKey(square);
  const parts = [`(${square[0]},${square[1]}) ${terrainAt(setup.map, square)}`];
  if (setup.map.roads.some((road) => squareKey(road) === key)) parts.push("road");
  for (const objective of Object.values(view.objectives ?? {}))
    if (squareKey(objective.at) === key)
      parts.push(
        `objective${objective.heldBy ? ` held by ${sideWords(view, objective.heldBy, viewer)}` : " not captured"}`,
      );
  for (const base of Object.values(view.homeBases ?? {}))
    if (squareKey(base.at) === key) parts.push(`home base of ${sideWords(view, base.player, viewer)}`);
  for (const army of armiesAt(view, square))
    parts.push(`${army.name}, ${sideWords(view, army.player, viewer)}, ${pointsWords(army.points)}`);
  return parts.join(", ");
}

/** The armies standing on a square, in order of their ids (the map's counters, top to bottom). */
export function armiesAt(view: CampaignView, square: Square) {
  const key = squareKey(square);
  const there = Object.values(view.armies).filter(
    (army) => army.status === "active" && army.at !== null && squareKey(army.at) === key,
  );
  return sortedBy(there, (army) => army.id);
}
