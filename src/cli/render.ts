import type { Square } from "../../events/common.js";
import { sameSquare, terrainAt } from "../../projections/derived.js";
import type { CampaignState } from "../../projections/state.js";
import { sq } from "../rules/refusal.js";

const n = (value: number) => value.toLocaleString("en");

/** One letter per player for the map: its initial, or A and B when both share one. */
function playerMarks(state: CampaignState): Record<string, string> {
  const players = state.setup?.players ?? [];
  const initials = players.map((p) => p.name.charAt(0).toUpperCase());
  const distinct = new Set(initials).size === initials.length;
  return Object.fromEntries(players.map((p, i) => [p.id, distinct ? initials[i]! : String.fromCharCode(65 + i)]));
}

/** The campaign map as text: terrain, roads, armies, objectives and home bases. */
export function renderMap(state: CampaignState): string {
  const setup = state.setup;
  if (!setup) return "(no campaign)";
  const { map } = setup;
  const marks = playerMarks(state);
  const roads = new Set(map.roads.map(String));
  const armies = Object.values(state.armies);
  const objectives = Object.values(state.objectives);
  const homes = Object.values(state.homeBases);
  const marker = (square: Square): string => {
    const here = armies.filter((a) => a.at && sameSquare(a.at, square));
    if (here.length > 0) return `${marks[here[0]!.player]}${here.length > 1 ? here.length : " "}`;
    if (homes.some((h) => sameSquare(h.at, square))) return "H ";
    if (objectives.some((o) => sameSquare(o.at, square))) return "* ";
    return "  ";
  };
  const header = "     " + Array.from({ length: map.width }, (_, x) => String(x).padEnd(4)).join("");
  const rows = map.terrain.map((row, y) => {
    const cells = Array.from(row, (letter, x) => `${letter === "p" ? "." : letter}${roads.has(String([x, y])) ? "=" : " "}${marker([x, y])}`);
    return `${String(y).padStart(3)}  ${cells.join("")}`;
  });
  const legend =
    "terrain: . plains, f forest, h hills, m mountains, r river, t town, c city; = road; " +
    `${Object.entries(marks).map(([id, mark]) => `${mark} ${id} army (a number: stacked)`).join(", ")}; H home base; * objective`;
  return [header, ...rows, legend].join("\n");
}

export function renderState(state: CampaignState): string {
  const setup = state.setup;
  if (!setup) return "No campaign has been created in this folder yet.";
  const { force, awards } = setup;
  const lines = [
    `${setup.name} (${state.campaign}): ${state.status === "setup" ? "set-up" : `turn ${state.turn}, ${state.phase} phase`}${state.status === "finished" ? ", finished" : ""}`,
    `F = ${n(force.total)} (M ${n(force.maxArmyPoints)} x N ${force.armies}); CVP target ${n(setup.cvpTarget)}; ` +
      `k = ${awards.k}: objective ${awards.objective}, home base ${awards.homeBase}, draw ${awards.draw}, win ${awards.win}, overwhelming ${awards.overwhelming}`,
    "",
    renderMap(state),
    "",
  ];
  for (const player of setup.players) {
    lines.push(`${player.name} (${player.id}), base line ${player.baseLine}:`);
    const home = state.homeBases[player.id];
    if (home) lines.push(`  home base ${sq(home.at)}${home.heldBy !== player.id ? `, held by ${home.heldBy}` : ""}`);
    for (const army of Object.values(state.armies).filter((a) => a.player === player.id)) {
      lines.push(`  ${army.id.padEnd(12)} ${army.name.padEnd(28)} ${n(army.points).padStart(6)} pts  rate ${army.moveRate}  ${army.at ? sq(army.at) : "not deployed"}`);
    }
  }
  const objectives = Object.values(state.objectives);
  if (objectives.length > 0) {
    lines.push("Objectives:");
    for (const o of objectives) {
      lines.push(`  ${o.id.padEnd(16)} ${sq(o.at).padEnd(8)} ${terrainAt(setup.map, o.at).padEnd(10)} placed by ${o.placedBy}, ${o.heldBy ? `held by ${o.heldBy}` : "not held"}`);
    }
  }
  return lines.join("\n");
}
