import type { Order, Square } from "../../events/common.js";
import { advancedRule } from "../../projections/advanced.js";
import { chebyshev, rowsFromEdge, sameSquare, squareKey } from "../../projections/grid.js";
import type { ArmyState, CampaignState } from "../../projections/state.js";
import { battlesAwaitingReveal, nextActivator, pendingDefenders, unactivatedArmies } from "../rules/action-common.js";
import { searchMoves } from "../rules/move-search.js";
import { surroundings } from "../rules/surroundings.js";
import { orderAllowance, stepPricing } from "../rules/terrain-costs.js";
import type { CampaignView } from "../views/view.js";

/*
 * The page asks the engine's own rules what a seat may do, so that it never disagrees with them. They read only what
 * every seat sees (where armies stand, this turn's activations and battles, the set-up), which a seat's view holds as
 * the state does: the view is read as a state for them.
 */
const asState = (view: CampaignView) => view as unknown as CampaignState;

/** The seat's armies it may activate now: an engaged defender first (out of sequence), else any when it is its go. */
export function activatableArmies(view: CampaignView, player: string): ArmyState[] {
  const state = asState(view);
  if (view.phase !== "action" || !view.turnState?.first) return [];
  const engaged = pendingDefenders(state)
    .filter((battle) => battle.defender.player === player)
    .map((battle) => state.armies[battle.defender.army]!);
  if (engaged.length > 0) return engaged;
  // T5: a battle's orders are revealed (by the pages' chores) before the next regular activation.
  if (pendingDefenders(state).length > 0 || battlesAwaitingReveal(state).length > 0) return [];
  if (nextActivator(state) !== player) return [];
  return unactivatedArmies(state).filter((army) => army.player === player);
}

/** Whether the army is the defender of a battle this turn not yet activated: pinned, it may not move (M3). */
export function isEngaged(view: CampaignView, army: string): boolean {
  return pendingDefenders(asState(view)).some((battle) => battle.defender.army === army);
}

/** Where an order lets an army go: each square with the cheapest path there, and which of them are attacks. */
export interface Reach {
  paths: Map<string, Square[]>;
  /** Squares of a lone enemy army it would attack (M2), by square key. */
  attacks: Set<string>;
}

/** The squares an order lets the army reach (M1-M4, A4 terrain costs when on), each with the cheapest path. */
export function reachable(view: CampaignView, army: ArmyState, order: Order): Reach {
  const allowance = orderAllowance(order, army.moveRate);
  if (allowance === 0 || army.at === null) return { paths: new Map(), attacks: new Set() };
  const state = asState(view);
  const { ends, attacks } = searchMoves(surroundings(state, army), army.at, allowance, stepPricing(state.setup!));
  const paths = new Map(ends);
  const attacked = new Set<string>();
  for (const attack of attacks) {
    const key = squareKey(attack.path.at(-1)!);
    paths.set(key, attack.path);
    attacked.add(key);
  }
  return { paths, attacks: attacked };
}

/**
 * Where a new army may stand (S7, E6a raised; A5, A8 bought): on the player's base line or home base, or, with home
 * bases in play or when bought, on the home base or next to it; never on another army but the player's own on its
 * home base. By square key.
 */
export function newArmySquares(view: CampaignView, player: string, bought: boolean): Set<string> {
  const setup = view.setup!;
  const home = view.homeBases[player]?.at;
  const nearHome = bought || advancedRule(setup.options, "homeBase");
  const line = setup.players.find((p) => p.id === player)!.baseLine;
  const squares = new Set<string>();
  for (let y = 0; y < setup.map.height; y++)
    for (let x = 0; x < setup.map.width; x++) {
      const square: Square = [x, y];
      const onHome = home !== undefined && sameSquare(home, square);
      const allowed = nearHome
        ? home !== undefined && chebyshev(home, square) <= 1
        : onHome || rowsFromEdge(setup.map, line, square) === 0;
      const taken = Object.values(view.armies).some(
        (army) =>
          army.status === "active" && army.at && sameSquare(army.at, square) && !(onHome && army.player === player),
      );
      if (allowed && !taken) squares.add(squareKey(square));
    }
  return squares;
}

/** A8: where the player may buy defences: a square with an army of its own, or an objective it holds. By square key. */
export function defenceSquares(view: CampaignView, player: string): Set<string> {
  return new Set([
    ...Object.values(view.armies)
      .filter((army) => army.player === player && army.status === "active" && army.at)
      .map((army) => squareKey(army.at!)),
    ...Object.values(view.objectives)
      .filter((objective) => objective.heldBy === player)
      .map((objective) => squareKey(objective.at)),
  ]);
}
