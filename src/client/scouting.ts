import type { Order } from "../../events/common.js";
import type { CampaignView } from "../views/view.js";
import { orderCommitment } from "../crypto/commitments.js";
import { rollScouting } from "../crypto/dice.js";
import type { SecretKeeper } from "./party-secrets.js";
import { heldSalt, keepOrderIfOpen } from "./held-orders.js";

/**
 * The players' and the host's side of A3 scouting: an order revealed for scouting is the order the army's activation
 * commits to, so it is kept in the player's secrets with its salt, and the activation reuses that salt.
 */

type Input = Record<string, unknown>;
type Prepared = { command: unknown; keep: () => Promise<void> };

/** The commitment and salt of `order` for `army`, reusing the salt the player holds for that order, else a fresh one. */
async function openOrder(
  state: CampaignView,
  secrets: SecretKeeper,
  player: string,
  army: string,
  order: Order,
  freshSalt: () => string,
): Promise<{ reveal: { commitment: string; salt: string }; keep: () => Promise<void> }> {
  const salt = (await heldSalt(state, secrets, player, army, order)) ?? freshSalt();
  const commitment = orderCommitment({ campaign: state.campaign!, turn: state.turn, army, order, salt });
  return { reveal: { commitment, salt }, keep: keepOrderIfOpen(state, secrets, player, army, { order, salt }) };
}

/** ScoutArmy as a player writes it (army and target): the Advance order's commitment and salt filled in. */
export async function prepareScoutArmy(
  state: CampaignView,
  input: Input,
  secrets: SecretKeeper,
  freshSalt: () => string,
): Promise<Prepared> {
  if (input["commitment"] !== undefined) return { command: input, keep: async () => {} };
  const opened = await openOrder(state, secrets, String(input["actor"]), String(input["army"]), "advance", freshSalt);
  return { command: { ...input, ...opened.reveal }, keep: opened.keep };
}

/**
 * AnswerScouting as a player writes it (`firstFire: true` or false): with true, the scouted army's First Fire order is
 * opened from the player's secrets, or, for an army not yet activated, committed to now.
 */
export async function prepareAnswerScouting(
  state: CampaignView,
  input: Input,
  secrets: SecretKeeper,
  freshSalt: () => string,
): Promise<Prepared> {
  const { firstFire, ...rest } = input;
  if (typeof firstFire === "object") return { command: input, keep: async () => {} };
  if (firstFire !== true) return { command: rest, keep: async () => {} };
  const target = state.turnState?.scouting?.scoutings[String(input["scouting"])]?.target;
  if (target === undefined) return { command: rest, keep: async () => {} };
  const opened = await openOrder(state, secrets, String(input["actor"]), target, "firstFire", freshSalt);
  return { command: { ...rest, firstFire: opened.reveal }, keep: opened.keep };
}

/** RollScouting for the host: the dice the turn's seeds give, from the next unused die. */
export function scoutingRounds(
  state: CampaignView,
  scoutingId: string,
  seeds: Parameters<typeof rollScouting>[0],
): ReturnType<typeof rollScouting> | undefined {
  const scouting = state.turnState?.scouting?.scoutings[scoutingId];
  if (!scouting || scouting.scoutedBonus === null) return undefined;
  return rollScouting(seeds, state.turnState!.diceUsed, scouting.scoutBonus, scouting.scoutedBonus);
}
