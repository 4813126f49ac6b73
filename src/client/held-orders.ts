/** The orders a player holds, against the commitments the log holds for them (T5, A3). */
import type { Order } from "../../events/common.js";
import type { CampaignView } from "../views/view.js";
import { orderCommitment } from "../crypto/commitments.js";
import type { HeldOrder, SecretKeeper } from "./party-secrets.js";

export const nothingToKeep = async () => {};

/** The salt an army's order already carries this turn, if the player holds the same order for it (made public by scouting). */
export async function heldSalt(
  state: CampaignView,
  secrets: SecretKeeper,
  player: string,
  army: string,
  order: Order,
): Promise<string | undefined> {
  return (await secrets.ordersKept(player, state.turn, army)).find((held) => held.order === order)?.salt;
}

/**
 * The order a player keeps for an army that opens the commitment the log holds for it this turn (its activation's,
 * or one a scouting made public): of every order kept for the army, the one the log took. The order last kept when
 * none opens it (the reveal is then refused, T5), or undefined when none is kept.
 */
export async function heldOrderFor(
  state: CampaignView,
  secrets: SecretKeeper,
  player: string,
  army: string,
): Promise<HeldOrder | undefined> {
  const kept = await secrets.ordersKept(player, state.turn, army);
  return kept.find(opensCommitment(state, army)) ?? kept[0];
}

/** Whether a player keeps an order for an army that opens the commitment the log holds for it this turn. */
export async function holdsOpeningOrder(
  state: CampaignView,
  secrets: SecretKeeper,
  player: string,
  army: string,
): Promise<boolean> {
  return (await secrets.ordersKept(player, state.turn, army)).some(opensCommitment(state, army));
}

function opensCommitment(state: CampaignView, army: string): (held: HeldOrder) => boolean {
  const committed = committedOrder(state, army);
  return (held) =>
    committed !== undefined &&
    orderCommitment({ campaign: state.campaign!, turn: state.turn, army, ...held }) === committed;
}

/** The commitment the log already holds for an army's order this turn: its activation's, or one a scouting made public (A3). */
export function committedOrder(state: CampaignView, army: string): string | undefined {
  const activation = state.turnState?.activations[army];
  // An order the fork voided on a branch commits to nothing here: its player commits again (RecommitOrder).
  if (activation?.voided) return undefined;
  return activation?.commitment ?? state.turnState?.scouting?.pledges[army]?.commitment;
}

/**
 * Keeps an order unless the log already commits the army to another one this turn: the command is then refused, and
 * the secret that commitment needs must not be replaced.
 */
export function keepOrderIfOpen(
  state: CampaignView,
  secrets: SecretKeeper,
  player: string,
  army: string,
  held: HeldOrder,
): () => Promise<void> {
  const committed = committedOrder(state, army);
  const open =
    committed === undefined ||
    committed === orderCommitment({ campaign: state.campaign!, turn: state.turn, army, ...held });
  return open ? () => secrets.keepOrder(player, state.turn, army, held) : nothingToKeep;
}

/**
 * Drops a player's orders of the turn that the log does not commit to (kept for a command then refused), so that no
 * secret is left behind for an order nobody gave. Only safe where no command of the player's is between its keep and
 * its answer: at the turn's end, or while the player's commands run one at a time.
 */
export function pruneUncommittedOrders(state: CampaignView, secrets: SecretKeeper, player: string): Promise<void> {
  return secrets.pruneOrders(
    player,
    state.turn,
    (army, held) =>
      committedOrder(state, army) === orderCommitment({ campaign: state.campaign!, turn: state.turn, army, ...held }),
  );
}
