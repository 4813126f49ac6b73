import { keyWarnings } from "../words/seat-keys.js";
import type { Order, Square } from "../../events/common.js";
import { battleEngagement, campaignTotals } from "../../projections/derived.js";
import { sameSquare, terrainAt } from "../../projections/grid.js";
import { HIDDEN, type CampaignView, type Hidden, type ViewedEntry } from "../views/view.js";
import { ORDER_NAMES } from "../words/events.js";
import { waitingFor } from "../words/waiting.js";
import { artilleryLines, battleSupportLines } from "./render-support.js";
import { titanDamageLines, warChestLines } from "./render-war-chest.js";
import { sq } from "../rules/refusal.js";

/** A number, or "?" where fog of war (A2) hides it. */
const n = (value: number | Hidden) => (value === HIDDEN ? "?" : value.toLocaleString("en"));

/** One letter per player for the map: its initial, or A and B when both share one. */
function playerMarks(state: CampaignView): Record<string, string> {
  const players = state.setup?.players ?? [];
  const initials = players.map((p) => p.name.charAt(0).toUpperCase());
  const distinct = new Set(initials).size === initials.length;
  return Object.fromEntries(players.map((p, i) => [p.id, distinct ? initials[i]! : String.fromCharCode(65 + i)]));
}

/** The campaign map as text: terrain, roads, armies, objectives and home bases. */
export function renderMap(state: CampaignView): string {
  const setup = state.setup;
  if (!setup) return "(no campaign)";
  const { map } = setup;
  const marks = playerMarks(state);
  const roads = new Set(map.roads.map(String));
  const armies = Object.values(state.armies);
  const objectives = Object.values(state.objectives);
  const homes = Object.values(state.homeBases);
  const army = (square: Square): string => {
    const here = armies.filter((a) => a.status === "active" && a.at && sameSquare(a.at, square));
    return here.length === 0 ? "  " : `${marks[here[0]!.player]}${here.length > 1 ? here.length : " "}`;
  };
  const site = (square: Square): string =>
    homes.some((h) => sameSquare(h.at, square)) ? "H" : objectives.some((o) => sameSquare(o.at, square)) ? "*" : " ";
  const header = "     " + Array.from({ length: map.width }, (_, x) => String(x).padEnd(5)).join("");
  const rows = map.terrain.map((row, y) => {
    const cells = Array.from(
      row,
      (letter, x) =>
        `${letter === "p" ? "." : letter}${site([x, y])}${roads.has(String([x, y])) ? "=" : " "}${army([x, y])}`,
    );
    return `${String(y).padStart(3)}  ${cells.join("")}`;
  });
  const legend =
    "terrain: . plains, f forest, h hills, m mountains, r river, t town, c city; = road; " +
    `${Object.entries(marks)
      .map(([id, mark]) => `${mark} ${id} army (a number: stacked)`)
      .join(", ")}; H home base; * objective`;
  return [header, ...rows, legend].join("\n");
}

/** E3: the defences the defender fights with, and what of them its Fortify order built this turn. */
function defencesText(battle: ViewedEntry<"battles">): string {
  const built = battle.builtThisTurn ? ` (${n(battle.builtThisTurn)} of them built this turn on Fortify)` : "";
  if (battle.defences) return `, ${n(battle.defences)} pts of defences for the defender${built}`;
  // A Fortify defender with none: the campaign counts this turn's defences only from the End phase (E3 option).
  return battle.defender.order === "fortify" ? ", no defences for the defender yet" : "";
}

function renderBattle(state: CampaignView, battle: ViewedEntry<"battles">): string[] {
  const terrain = terrainAt(state.setup!.map, battle.at);
  const side = (s: ViewedEntry<"battles">["attacker"] | ViewedEntry<"battles">["defender"]) =>
    `${s.army} (${s.player}, ${n(s.points)} pts, ${s.order ? ORDER_NAMES[s.order] : "order hidden"})`;
  const lines = [
    `  ${battle.id} at ${sq(battle.at)} (${terrain}${state.setup!.map.roads.some((r) => sameSquare(r, battle.at)) ? ", road" : ""}): ${side(battle.attacker)} attacks ${side(battle.defender)}`,
    `     ${battle.vpTarget === HIDDEN ? "size and VPs to win hidden by fog of war until the Battle phase" : `average ${n(battle.averagePoints)} pts, ${battle.vpTarget} VPs to win`}${defencesText(battle)}`,
  ];
  const effects = battleEngagement(battle);
  if (effects) lines.push(`     engagement: ${effects.effect}`);
  if (battle.status === "resolved") {
    lines.push(
      `     result: ${battle.winner ? `${battle.winner} won${battle.overwhelming ? " overwhelmingly" : ""}` : "a draw"}, VPs ${battle.result!.attacker.vp}-${battle.result!.defender.vp}`,
    );
  } else if (battle.report) {
    lines.push(`     reported by ${battle.report.by}: ${battle.report.result.outcome}, awaiting confirmation`);
  }
  lines.push(...battleSupportLines(state, battle));
  for (const side of [battle.attacker, battle.defender])
    lines.push(...titanDamageLines(state.armies[side.army] ?? { id: side.army }, "     "));
  return lines;
}

const units = (counts: Record<string, number>) => Object.values(counts).reduce((sum, count) => sum + count, 0);

export interface StateView {
  /** The player whose view this is, or undefined for everything the log shows. */
  viewer?: string;
  /** The viewer's own hidden orders this turn, from its secrets. */
  heldOrders?: Record<string, Order>;
}

/** The campaign as text: give it the viewer's view of the state (viewState), never the state itself for a player. */
export function renderState(state: CampaignView, view: StateView = {}): string {
  const setup = state.setup;
  if (!setup) return "No campaign has been created in this folder yet.";
  const { force, awards } = setup;
  const totals = campaignTotals(state);
  const lines = [
    `${setup.name} (${state.campaign}): ${state.status === "setup" ? "set-up" : `turn ${state.turn}, ${state.phase} phase`}; waiting for ${waitingFor(state)}`,
    `F = ${n(force.total)} (M ${n(force.maxArmyPoints)} x N ${force.armies}); CVP target ${n(setup.cvpTarget)}; ` +
      `k = ${awards.k}: objective ${awards.objective}, home base ${awards.homeBase}, draw ${awards.draw}, win ${awards.win}, overwhelming ${awards.overwhelming}`,
    `CVPs: ${setup.players.map((p) => `${p.id} ${totals[p.id]?.total} (battles ${totals[p.id]?.battles})`).join(", ")}`,
    ...keyWarnings(state),
    "",
    renderMap(state),
    "",
  ];
  const activations = state.turnState?.activations ?? {};
  for (const player of setup.players) {
    lines.push(
      `${player.name} (${player.id}), base line ${player.baseLine}${view.viewer === player.id ? " (you)" : ""}:`,
    );
    const home = state.homeBases[player.id];
    if (home) lines.push(`  home base ${sq(home.at)}${home.heldBy !== player.id ? `, held by ${home.heldBy}` : ""}`);
    for (const army of Object.values(state.armies).filter((a) => a.player === player.id)) {
      const activation = activations[army.id];
      // A3: an order revealed for a scouting is public, before and after its army's activation commits to it.
      const pledged = state.turnState?.scouting?.pledges[army.id];
      const order = activation?.order
        ? ORDER_NAMES[activation.order]
        : pledged && (!activation || activation.commitment === pledged.commitment)
          ? `${ORDER_NAMES[pledged.order]} (made public by scouting)`
          : view.heldOrders?.[army.id]
            ? `${ORDER_NAMES[view.heldOrders[army.id]!]} (hidden from your opponent)`
            : activation
              ? "activated, order hidden"
              : "";
      const where = army.status === "active" ? (army.at ? sq(army.at) : "not deployed") : army.status;
      lines.push(
        `  ${army.id.padEnd(12)} ${army.name.padEnd(28)} ${n(army.points).padStart(6)} pts  rate ${army.moveRate}  ${where.padEnd(9)} ${order}`.trimEnd(),
      );
      lines.push(...titanDamageLines(army, `  ${"".padEnd(12)} `));
      // E5: the viewer's own armies (or every army, for whoever sees the whole log).
      if (view.viewer === undefined || army.player === view.viewer)
        lines.push(...attachmentLines(army.formations, `  ${"".padEnd(12)} `));
      // A player's view names the commanders it knows (S8): its own, and the enemy's once killed.
      if (view.viewer !== undefined && army.commander !== HIDDEN) {
        const known = `${army.commander.unitType} of ${army.commander.formation}`;
        lines.push(
          `  ${"".padEnd(12)} ${army.player === view.viewer ? `commander: ${known}` : `commander (killed): ${known}`}`,
        );
      }
    }
    const ledger = state.ledgers[player.id];
    // A2: the enemy's Reserves and In Transit units are hidden under fog of war.
    if (
      ledger &&
      ledger.reserves !== HIDDEN &&
      ledger.inTransit !== HIDDEN &&
      (units(ledger.reserves) || ledger.inTransit.length)
    ) {
      lines.push(
        `  Reserves ${units(ledger.reserves)} units; In Transit ${ledger.inTransit.map((b) => `${units(b.units)} units (turn ${b.turn})`).join(", ") || "none"}`,
      );
    }
    lines.push(...artilleryLines(state, player.id));
    lines.push(...warChestLines(state, player.id));
  }
  const objectives = Object.values(state.objectives);
  if (objectives.length > 0) {
    lines.push("Objectives:");
    for (const o of objectives) {
      lines.push(
        `  ${o.id.padEnd(16)} ${sq(o.at).padEnd(8)} ${terrainAt(setup.map, o.at).padEnd(10)} placed by ${o.placedBy}, ${o.heldBy ? `held by ${o.heldBy}` : "not held"}`,
      );
    }
  }
  const battles = Object.values(state.battles)
    .filter((b) => b.turn === state.turn)
    .sort((a, b) => a.index - b.index);
  if (battles.length > 0) {
    lines.push(`Battles of turn ${state.turn}:`);
    for (const battle of battles) lines.push(...renderBattle(state, battle));
  }
  const defences = Object.entries(state.defences);
  if (defences.length > 0)
    lines.push(`Defences: ${defences.map(([square, points]) => `(${square}) ${n(points)} pts`).join(", ")}`);
  if (state.violations.length > 0) {
    lines.push("Rule breaches on record:");
    for (const v of state.violations)
      lines.push(`  turn ${v.turn} ${v.player} ${v.army} ${v.rule}: ${v.detail} (event #${v.seq})`);
  }
  return lines.join("\n");
}

/** E5: each company's attached formations, where the viewer may see the roster (fog of war hides it, A2). */
function attachmentLines(roster: CampaignView["armies"][string]["formations"], indent: string): string[] {
  if (roster === HIDDEN) return [];
  const byCompany = new Map<string, string[]>();
  for (const formation of roster)
    if (formation.attachedTo !== undefined)
      byCompany.set(formation.attachedTo, [...(byCompany.get(formation.attachedTo) ?? []), formation.id]);
  return [...byCompany].map(([company, attached]) => `${indent}attached to ${company}: ${attached.join(", ")}`);
}
