import { HOST } from "../../events/common.js";
import type { CampaignState } from "../../projections/state.js";
import { dueChores } from "../client/chores.js";
import { seatsOf } from "../client/seats.js";
import { nextActivator } from "../rules/action-common.js";
import { owedItems } from "../rules/stall.js";

/** One party the campaign waits on, and the command it owes. */
export interface Owed {
  party: string;
  owes: string;
}

/**
 * Who the campaign waits on now, for the organiser's notice (GET /campaigns/:id/waiting): the protocol steps due
 * (dueChores, for every seat), else the decision due: who chooses first, the order or reveal a battle waits on (T5),
 * the next activation (T3), the battle result to report or confirm (B4), the End phase to finish. Empty in set-up
 * and once the campaign is finished.
 */
export function waitingOn(state: CampaignState): Owed[] {
  if (state.status !== "active" || !state.setup) return [];
  const due = dueChores(state, new Set(seatsOf(state))).map((chore) => ({
    party: String(chore["actor"]),
    owes: String(chore["type"]),
  }));
  const turn = state.turnState;
  if (due.length > 0 || !turn) return due;
  const players = state.setup.players.map((p) => p.id);
  if (state.phase === "action") {
    if (turn.first === null && turn.initiativeWinner) return [{ party: turn.initiativeWinner, owes: "ChooseFirst" }];
    const owed = owedItems(state);
    if (owed.length > 0)
      return owed.map((item) => ({ party: item.player, owes: item.owes === "order" ? "ActivateArmy" : "RevealOrder" }));
    const next = nextActivator(state);
    return next ? [{ party: next, owes: "ActivateArmy" }] : [{ party: HOST, owes: "CloseActionPhase" }];
  }
  if (state.phase === "battle") {
    const open = Object.values(state.battles)
      .filter((b) => b.turn === state.turn && b.status !== "resolved")
      .sort((a, b) => a.index - b.index)[0];
    if (!open) return [];
    const sides = [open.attacker.player, open.defender.player];
    return open.report
      ? sides.filter((p) => p !== open.report!.by).map((party) => ({ party, owes: "ConfirmBattleResult" }))
      : sides.map((party) => ({ party, owes: "ReportBattleResult" }));
  }
  return players.filter((p) => !turn.endPhaseDone.includes(p)).map((party) => ({ party, owes: "FinishEndPhase" }));
}
