import { sameSquare } from "../../projections/grid.js";
import type { CampaignState } from "../../projections/state.js";
import { nextActivator, pendingDefenders, unactivatedArmies } from "../rules/action-common.js";
import { orderAllowance } from "../rules/terrain-costs.js";
import { nextDecision } from "../demo/play.js";
import { recommitment } from "../demo/strategy.js";
import { reach } from "../demo/pathing.js";
import type { PlainCommand } from "../demo/plain-command.js";
import { pledgedOrder, scoutingReply } from "../demo/scouting.js";
import { ordersForMove } from "./start.js";

/**
 * Where both sides' decisions come from in a simulated campaign (the Action and End phases; battles are the model's):
 * a function of the state and the run's own random stream, giving a command as a player writes it, orders in the clear.
 */
export type Policy = (state: CampaignState, random: () => number) => PlainCommand | undefined;

/** The demo's scripted commanders (src/demo/): attack a weaker enemy in reach, else march on an objective. */
export const scriptedPolicy: Policy = (state) => nextDecision(state);

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)]!;
}

/**
 * Random legal orders: who goes first, which army moves next, where it goes (anywhere it can reach under M1-M4, or
 * nowhere) and with which order (any that pays for the move, T4), each drawn alike. The End phase's choices and the
 * steps of a scouting (A3) are the scripted commanders'.
 */
export const randomPolicy: Policy = (state, random) => {
  const turn = state.turnState;
  if (state.status !== "active" || !turn || state.phase !== "action") return nextDecision(state);
  // T5 on a branch: an order the fork voided is committed again first, as the scripted commanders choose it.
  const again = recommitment(state);
  if (again) return again;
  if (turn.initiativeWinner && !turn.first) {
    const players = state.setup!.players.map((p) => p.id);
    return { actor: turn.initiativeWinner, type: "ChooseFirst", first: pick(players, random) };
  }
  const engaged = pendingDefenders(state)[0];
  if (engaged) {
    const defender = state.armies[engaged.defender.army]!;
    if (pledgedOrder(state, defender)) return nextDecision(state);
    return {
      actor: defender.player,
      type: "ActivateArmy",
      army: defender.id,
      order: pick(ordersForMove(state, defender, []), random),
      path: [],
    };
  }
  if (scoutingReply(state)) return nextDecision(state);
  const player = nextActivator(state);
  if (!player) return nextDecision(state);
  const mine = unactivatedArmies(state).filter((a) => a.player === player);
  if (mine.some((a) => pledgedOrder(state, a))) return nextDecision(state);
  // M5: an army that shares its square moves off it first, as the scripted commanders do.
  const stacked = mine.filter((a) => mine.some((b) => b !== a && sameSquare(b.at!, a.at!)));
  const army = pick(stacked.length > 0 ? stacked : mine, random);
  const { paths, attacks } = reach(state, army, orderAllowance("charge", army.moveRate));
  const path = pick([[], ...paths.values(), ...attacks.map((a) => a.path)], random);
  return {
    actor: player,
    type: "ActivateArmy",
    army: army.id,
    order: pick(ordersForMove(state, army, path), random),
    path,
  };
};

export const POLICIES = { scripted: scriptedPolicy, random: randomPolicy } as const;
export type PolicyName = keyof typeof POLICIES;
