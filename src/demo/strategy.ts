import type { Order, Square } from "../../events/common.js";
import { sameSquare } from "../../projections/grid.js";
import type { ArmyState, CampaignState } from "../../projections/state.js";
import { nextActivator, pendingDefenders, unactivatedArmies } from "../rules/action-common.js";
import { orderAllowance } from "../rules/terrain-costs.js";
import { believedPoints } from "./intelligence.js";
import { distance, orderForPath, reach } from "./pathing.js";
import type { PlainCommand } from "./plain-command.js";
import { attackAfterScouting, pledgedOrder, scoutBeforeMoving, scoutingReply } from "./scouting.js";

/** The squares a side wants: objectives it does not hold and the enemy's home base. */
function targetsFor(state: CampaignState, player: string): Square[] {
  const objectives = Object.values(state.objectives)
    .filter((o) => o.heldBy !== player)
    .map((o) => o.at);
  const enemyHome = Object.values(state.homeBases)
    .filter((h) => h.player !== player && h.heldBy !== player)
    .map((h) => h.at);
  return [...objectives, ...enemyHome];
}

function activation(army: ArmyState, order: Order, path: Square[]): PlainCommand {
  return { actor: army.player, type: "ActivateArmy", army: army.id, order, path };
}

/** The demo commander's choice for one army: attack a weaker enemy in reach, else march on an objective. */
function orderFor(state: CampaignState, army: ArmyState): PlainCommand {
  const { paths, attacks } = reach(state, army, orderAllowance("charge", army.moveRate));
  const onOwnHome = Object.values(state.homeBases).some((h) => h.player === army.player && sameSquare(h.at, army.at!));
  const attack = attacks
    .filter(({ enemy }) => army.points >= 0.8 * believedPoints(state, army, enemy))
    .sort(
      (a, b) =>
        a.path.length - b.path.length || believedPoints(state, army, b.enemy) - believedPoints(state, army, a.enemy),
    )[0];
  if (attack) return activation(army, orderForPath(state, army, attack.path), attack.path);

  const holding = Object.values(state.objectives).some((o) => o.heldBy === army.player && sameSquare(o.at, army.at!));
  if (holding && !onOwnHome && !quietTooLong(state))
    return activation(army, state.turn % 2 === 0 ? "fortify" : "firstFire", []);

  const path = march(state, army, paths.values(), onOwnHome);
  if (!path) return activation(army, "firstFire", []);
  return activation(army, orderForPath(state, army, path), path);
}

/** Turns without a battle after which the armies holding objectives march out: else both sides could sit forever. */
const QUIET_TURNS = 3;

/** Whether no battle has been fought this turn nor in the QUIET_TURNS before it (the first turns of the campaign aside). */
function quietTooLong(state: CampaignState): boolean {
  if (state.turn <= QUIET_TURNS) return false;
  return state.lastBattleTurn < state.turn - QUIET_TURNS;
}

/** The path that brings the army nearest a target, if it gets closer (or must leave its home base). */
function march(
  state: CampaignState,
  army: ArmyState,
  paths: Iterable<Square[]>,
  onOwnHome: boolean,
): Square[] | undefined {
  const targets = targetsFor(state, army.player);
  let best: { path: Square[]; score: number } | undefined;
  for (const path of paths) {
    const end = path[path.length - 1]!;
    const score = Math.min(...targets.map((t) => distance(end, t)), 99) * 10 + path.length;
    if (!best || score < best.score) best = { path, score };
  }
  const here = Math.min(...targets.map((t) => distance(army.at!, t)), 99) * 10;
  if (!best || (best.score >= here && !onOwnHome)) return undefined;
  return best.path;
}

/** A3: the army revealed Advance to scout: it attacks if it dares, else marches on as far as Advance takes it. */
function advanceAfterScouting(state: CampaignState, army: ArmyState): PlainCommand {
  const attack = attackAfterScouting(state, army);
  if (attack) return activation(army, "advance", attack);
  const { paths } = reach(state, army, orderAllowance("advance", army.moveRate));
  return activation(army, "advance", march(state, army, paths.values(), false) ?? []);
}

/** The next decision of the Action phase: an attacked army's order first, else the next activation in turn. */
export function nextActivation(state: CampaignState): PlainCommand | undefined {
  const engaged = pendingDefenders(state)[0];
  if (engaged) {
    const defender = state.armies[engaged.defender.army]!;
    const stronger = defender.points > believedPoints(state, defender, state.armies[engaged.attacker.army]!) * 1.2;
    return activation(defender, pledgedOrder(state, defender) ?? (stronger ? "advance" : "firstFire"), []);
  }
  const reply = scoutingReply(state);
  if (reply) return reply;
  const player = nextActivator(state);
  if (!player) return undefined;
  const mine = unactivatedArmies(state)
    .filter((a) => a.player === player)
    .sort((a, b) => a.id.localeCompare(b.id));
  // A3: an army that scouted moves next.
  const scout = mine.find((a) => pledgedOrder(state, a) === "advance");
  if (scout) return advanceAfterScouting(state, scout);
  const stacked = mine.find((a) => mine.some((b) => b !== a && sameSquare(b.at!, a.at!)));
  const army = stacked ?? mine[0]!;
  // A3: an army that revealed First Fire against a scout holds that order.
  if (pledgedOrder(state, army) === "firstFire") return activation(army, "firstFire", []);
  return scoutBeforeMoving(state, army) ?? orderFor(state, army);
}

/**
 * T5 on a branch: an army whose order the fork voided is given one afresh, the order its move so far calls for (an
 * Advance where it pays for the path, else a Charge): the commander's decision on this line, not the parent's order.
 */
export function recommitment(state: CampaignState): PlainCommand | undefined {
  const voided = Object.values(state.turnState?.activations ?? {})
    .filter((activation) => activation.voided)
    .sort((a, b) => a.seq - b.seq)[0];
  if (!voided) return undefined;
  const army = state.armies[voided.army]!;
  const order = orderForPath(state, army, voided.path);
  return { actor: voided.player, type: "RecommitOrder", army: army.id, order };
}
