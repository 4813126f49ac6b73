import type { DomainEvent } from "../../events/index.js";
import type { CampaignState, OwedItem } from "../../projections/state.js";
import type { CommandOf } from "../engine/command-schemas.js";
import {
  battlesAwaitingReveal,
  pendingDefenders,
  requireActionPhase,
  unactivatedArmies,
  type BattleSides,
  type BattleTurn,
} from "./action-common.js";
import { refuseRule } from "./refusal.js";
import { requirePlayer, requireSetup } from "./guards.js";

/**
 * What the Action phase waits on (T5): the orders of attacked armies not given yet, and the orders of this turn's
 * battles not revealed yet (once both sides have committed). While any is owed, no other army may be activated.
 */
export function owedItems<B extends BattleSides>(state: BattleTurn<B>): OwedItem[] {
  const activations = state.turnState?.activations ?? {};
  const pending = pendingDefenders(state);
  const owed: OwedItem[] = pending.map((battle) => ({
    army: battle.defender.army,
    player: battle.defender.player,
    owes: "order",
    battle: battle.id,
  }));
  // A battle's reveals are due only once its defender has committed: until then the attacker may not reveal.
  for (const battle of battlesAwaitingReveal(state).filter((b) => !pending.includes(b))) {
    for (const side of [battle.attacker, battle.defender]) {
      if (activations[side.army]?.order === null)
        owed.push({ army: side.army, player: side.player, owes: "reveal", battle: battle.id });
    }
  }
  return owed;
}

export const describeOwed = (items: readonly OwedItem[]) =>
  items
    .map(
      (item) =>
        `${item.owes === "order" ? "the order of" : "the reveal of"} ${item.army} (${item.player}, battle ${item.battle})`,
    )
    .join(", ");

/**
 * T5 stall ruling: a player who owes nothing, while the Action phase waits on what the other owes, claims the stall.
 * The claim names what is owed; the owing player can still give it, and the host may close the phase only while
 * everything owed then was owed when the claim was made (stalledCloseAllowed).
 */
export function decideClaimStall(state: CampaignState, command: CommandOf<"ClaimStall">): DomainEvent[] {
  requireSetup(state);
  const player = requirePlayer(state, command.actor);
  requireActionPhase(state, "T5");
  const owed = owedItems(state);
  if (owed.length === 0) refuseRule("T5", noStall(state));
  const own = owed.filter((item) => item.player === player.id);
  if (own.length > 0)
    refuseRule("T5", `${player.id} owes ${describeOwed(own)} itself: only a player who owes nothing may claim a stall`);
  return [{ type: "StallClaimed", data: { turn: state.turn, by: player.id, owed } }];
}

/**
 * Why a claim finds no stall, and what the Action phase does wait on: once every army is activated, only on the
 * reveals due at its end (T5), which hold up no activation and which the host may close the phase without; before
 * that, on activations, when no attacked army's order and no battle's reveal is owed.
 */
function noStall(state: CampaignState): string {
  const waiting = unactivatedArmies(state);
  const named = (items: ReadonlyArray<{ army: string; player: string }>) =>
    items.map((item) => `${item.army} (${item.player})`).join(", ");
  if (waiting.length === 0) {
    const hidden = Object.values(state.turnState?.activations ?? {})
      .filter((a) => a.order === null)
      .sort((a, b) => a.seq - b.seq);
    return (
      `every army is activated, and the Action phase waits only on the reveals due at its end, of ${named(hidden)}, which hold up no activation: ` +
      "there is no stall to claim; the host may close the phase now (CloseActionPhase), and each order still hidden is recorded as never revealed"
    );
  }
  return (
    `the Action phase waits on no attacked army's order and no battle's reveal, only on activations (${named(waiting.map((a) => ({ army: a.id, player: a.player })))}): ` +
    "there is no stall to claim; a stall is claimed while an order or reveal owed holds up the activations"
  );
}

/**
 * Whether the host may close the Action phase before every army is activated: it is stalled, and a stall claim made
 * this turn already named everything it waits on now (what was given since only shortens the list; anything owed
 * since needs a claim of its own, so that the owing player has seen each item claimed).
 */
export function stalledCloseAllowed(
  state: CampaignState,
): { allowed: true; owed: OwedItem[] } | { allowed: false; reason: string } {
  const owed = owedItems(state);
  if (owed.length === 0) return { allowed: false, reason: "nothing is owed, so the phase is not stalled" };
  const claim = state.turnState?.stallClaim;
  if (!claim)
    return {
      allowed: false,
      reason: `the phase waits on ${describeOwed(owed)}, but no stall was claimed: the player who owes nothing claims it first (ClaimStall)`,
    };
  const unclaimed = owed.filter(
    (item) => !claim.owed.some((c) => c.army === item.army && c.owes === item.owes && c.battle === item.battle),
  );
  if (unclaimed.length > 0)
    return {
      allowed: false,
      reason: `${describeOwed(unclaimed)} became owed after the stall claimed at seq ${claim.seq}: it must be claimed too`,
    };
  return { allowed: true, owed };
}
