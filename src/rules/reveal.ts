import type { DomainEvent } from "../../events/index.js";
import type { ActivationState, CampaignState } from "../../projections/state.js";
import type { CommandOf } from "../engine/command-schemas.js";
import { orderCommitment } from "../crypto/commitments.js";
import { ORDER_NAMES, pendingDefenders, requireActionPhase, unactivatedArmies } from "./action-common.js";
import { endActionPhase, predict } from "./phases.js";
import { defencesBuilt, fortifyBuilds } from "./fortify.js";
import { refuseField, refuseRule } from "./refusal.js";
import { requirePlayer, requireSetup } from "./guards.js";
import { orderAllowance, squaresPaid, stepPricing, type StepPricing } from "./terrain-costs.js";

/**
 * T5: a player reveals an army's order and salt. A reveal that matches the commitment is recorded with whatever the
 * order did not allow (T4, S7 ruling); one that does not match is recorded as cheating, not refused, and the order
 * stays hidden. A Fortify order revealed builds its defences (E3 ruling, unless the campaign builds at the End phase).
 * The last reveal, once every army has been activated, ends the Action phase.
 */
export function decideRevealOrder(state: CampaignState, command: CommandOf<"RevealOrder">): DomainEvent[] {
  requireSetup(state);
  const player = requirePlayer(state, command.actor);
  const turnState = requireActionPhase(state, "T5");
  const army = state.armies[command.army];
  if (!army) refuseField("army", `no army "${command.army}"`);
  if (army.player !== player.id)
    refuseField(
      "actor",
      `army "${army.id}" belongs to ${army.player}, not ${player.id}: only its owner reveals its order`,
    );
  const activation = turnState.activations[army.id];
  if (!activation) refuseRule("T5", `army "${army.id}" has not been activated this turn: it has no order to reveal`);
  if (activation.order !== null)
    refuseRule(
      "T5",
      `army "${army.id}" has its order already revealed (${ORDER_NAMES[activation.order]}): an order is revealed once`,
    );
  const awaiting = pendingDefenders(state).find((battle) => battle.attacker.army === army.id);
  if (awaiting) {
    refuseRule(
      "T5",
      `${awaiting.defender.army} must commit to its order before ${army.id}'s is revealed: the defender may not choose knowing the attack`,
    );
  }

  return revealEvents(state, activation, command.order, command.salt);
}

/**
 * T5: what a reveal of an activated army's order records: a reveal that does not open the commitment as cheating;
 * one that does, with what the order did not allow, a Fortify's defences, and the end of the Action phase when it
 * was the last thing the phase waited on.
 */
export function revealEvents(
  state: CampaignState,
  activation: ActivationState,
  order: CommandOf<"RevealOrder">["order"],
  salt: string,
): DomainEvent[] {
  const turn = state.turn;
  const { army, player } = activation;
  const commitment = orderCommitment({ campaign: state.campaign!, turn, army, order, salt });
  if (commitment !== activation.commitment)
    return [{ type: "RevealRejected", data: { turn, army, player, order, salt } }];

  const events: DomainEvent[] = [{ type: "OrderRevealed", data: { turn, army, order, salt } }];
  events.push(...violations(activation, order, turn, stepPricing(state.setup!)));
  // E3 ruling: Fortify built from the activation; the reveal makes it known, so the defences stand from now on.
  if (order === "fortify" && fortifyBuilds(state.setup!) === "fromActivation")
    events.push(...defencesBuilt(state, activation));
  // These events reveal this army's order only: while another order is hidden, this reveal cannot end the phase,
  // and the state it would leave need not be worked out.
  const othersRevealed = Object.values(state.turnState!.activations).every((a) => a.army === army || a.order !== null);
  if (!othersRevealed) return events;
  const predicted = predict(state, events);
  const allRevealed = Object.values(predicted.turnState!.activations).every((a) => a.order !== null);
  if (unactivatedArmies(predicted).length === 0 && pendingDefenders(predicted).length === 0 && allRevealed) {
    events.push(...endActionPhase(predicted, turn, []));
  }
  return events;
}

/** T4 (or A4 with terrain costs), S7 ruling: what the revealed order did not allow of the move the army made. */
function violations(
  activation: ActivationState,
  order: CommandOf<"RevealOrder">["order"],
  turn: number,
  pricing: StepPricing,
): DomainEvent[] {
  const moved = activation.path.length;
  const evidenceSeq = activation.moveSeq ?? activation.seq;
  const evidence =
    activation.moveSeq !== null ? `ArmyMoved seq ${activation.moveSeq}` : `ArmyActivated seq ${activation.seq}`;
  const squares = `${moved} square${moved === 1 ? "" : "s"}`;
  const base = { turn, army: activation.army, player: activation.player, order, evidenceSeq };
  const events: DomainEvent[] = [];
  if ((order === "firstFire" || order === "fortify") && moved > 0) {
    events.push({
      type: "OrderViolated",
      data: {
        ...base,
        rule: "T4",
        detail: `moved ${squares} on ${ORDER_NAMES[order]}, which may not move (${evidence})`,
      },
    });
  }
  if (pricing.byTerrain && (order === "advance" || order === "charge")) {
    const paid = squaresPaid(pricing, order, activation.rate, activation.path);
    if (paid < moved) {
      const allowance = orderAllowance(order, activation.rate);
      events.push({
        type: "OrderViolated",
        data: {
          ...base,
          rule: "A4",
          detail: `moved ${squares} on ${ORDER_NAMES[order]}, whose ${allowance} points at move rate ${activation.rate} pay for ${paid} of them at terrain costs (${evidence})`,
        },
      });
    }
  } else if (order === "advance" && moved > activation.rate) {
    events.push({
      type: "OrderViolated",
      data: {
        ...base,
        rule: "T4",
        detail: `moved ${squares} on Advance, which allows at most its move rate ${activation.rate} (${evidence})`,
      },
    });
  }
  if (activation.stacked && (order === "firstFire" || order === "fortify")) {
    events.push({
      type: "OrderViolated",
      data: {
        ...base,
        rule: "S7",
        detail: `began stacked on its home base and took ${ORDER_NAMES[order]}: a stacked army must take Advance or Charge (${evidence})`,
      },
    });
  }
  return events;
}
