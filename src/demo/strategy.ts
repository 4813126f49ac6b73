import type { Order, Square } from "../../events/common.js";
import { sameSquare } from "../../projections/derived.js";
import type { ArmyState, CampaignState } from "../../projections/state.js";
import { nextActivator, pendingDefenders, unactivatedArmies } from "../rules/action-common.js";
import { distance, reach } from "./pathing.js";

/** A command as the demo's players write it: orders in the clear, for the players' side to commit. */
export type PlainCommand = Record<string, unknown> & { actor: string; type: string };

/** The squares a side wants: objectives it does not hold and the enemy's home base. */
function targetsFor(state: CampaignState, player: string): Square[] {
  const objectives = Object.values(state.objectives).filter((o) => o.heldBy !== player).map((o) => o.at);
  const enemyHome = Object.values(state.homeBases).filter((h) => h.player !== player && h.heldBy !== player).map((h) => h.at);
  return [...objectives, ...enemyHome];
}

function activation(army: ArmyState, order: Order, path: Square[]): PlainCommand {
  return { actor: army.player, type: "ActivateArmy", army: army.id, order, path };
}

/** The demo commander's choice for one army: attack a weaker enemy in reach, else march on an objective. */
function orderFor(state: CampaignState, army: ArmyState): PlainCommand {
  const rate = army.moveRate;
  const { paths, attacks } = reach(state, army, 2 * rate);
  const onOwnHome = Object.values(state.homeBases).some((h) => h.player === army.player && sameSquare(h.at, army.at!));
  const attack = attacks
    .filter(({ enemy }) => army.points >= 0.8 * enemy.points)
    .sort((a, b) => a.path.length - b.path.length || b.enemy.points - a.enemy.points)[0];
  if (attack) return activation(army, attack.path.length <= rate ? "advance" : "charge", attack.path);

  const holding = Object.values(state.objectives).some((o) => o.heldBy === army.player && sameSquare(o.at, army.at!));
  if (holding && !onOwnHome) return activation(army, state.turn % 2 === 0 ? "fortify" : "firstFire", []);

  const targets = targetsFor(state, army.player);
  let best: { path: Square[]; score: number } | undefined;
  for (const path of paths.values()) {
    const end = path[path.length - 1]!;
    const score = Math.min(...targets.map((t) => distance(end, t)), 99) * 10 + path.length;
    if (!best || score < best.score) best = { path, score };
  }
  const here = Math.min(...targets.map((t) => distance(army.at!, t)), 99) * 10;
  if (!best || (best.score >= here && !onOwnHome)) return activation(army, "firstFire", []);
  return activation(army, best.path.length <= rate ? "advance" : "charge", best.path);
}

/** The next decision of the Action phase: an attacked army's order first, else the next activation in turn. */
export function nextActivation(state: CampaignState): PlainCommand | undefined {
  const engaged = pendingDefenders(state)[0];
  if (engaged) {
    const defender = state.armies[engaged.defender.army]!;
    const stronger = defender.points > engaged.attacker.points * 1.2;
    return activation(defender, stronger ? "advance" : "firstFire", []);
  }
  const player = nextActivator(state);
  if (!player) return undefined;
  const mine = unactivatedArmies(state)
    .filter((a) => a.player === player)
    .sort((a, b) => a.id.localeCompare(b.id));
  const stacked = mine.find((a) => mine.some((b) => b !== a && sameSquare(b.at!, a.at!)));
  return orderFor(state, stacked ?? mine[0]!);
}
