import { describeOwed, owedItems } from "../rules/stall.js";
import type { CampaignView } from "../views.js";

/** What the campaign is waiting for, in a phrase. */
export function waitingFor(state: CampaignView): string {
  if (state.status === "setup") return "set-up";
  if (state.status === "finished")
    return state.result?.winner ? `finished: ${state.result.winner} won` : "finished: a draw";
  const turn = state.turnState;
  const players = state.setup!.players.map((p) => p.id);
  if (!turn || turn.hostSeed !== null) {
    const uncommitted = players.filter((p) => state.seedCommitments[p] === undefined);
    return uncommitted.length
      ? `dice seed commitments from ${uncommitted.join(" and ")} (CommitSeed), then the host to start the turn`
      : "the host to start the turn";
  }
  if (state.phase === "action") {
    const seedless = players.filter((p) => !turn.playerSeeds[p]);
    if (seedless.length) return `dice seeds from ${seedless.join(" and ")}`;
    if (!turn.initiativeWinner) return "the host to roll initiative";
    if (!turn.first) return `${turn.initiativeWinner} (won initiative) to choose who activates first`;
    const hidden = Object.values(turn.activations).filter((a) => a.order === null);
    const unactivated = Object.values(state.armies).filter(
      (a) => a.status === "active" && a.at && a.sinceTurn <= state.turn && !turn.activations[a.id],
    );
    if (unactivated.length === 0) return `reveals of ${hidden.map((a) => a.army).join(", ")}`;
    const owed = owedItems(state);
    if (owed.length > 0) {
      const owing = new Set(owed.map((item) => item.player));
      const free = players.filter((p) => !owing.has(p));
      const claim = turn.stallClaim
        ? `; stall claimed by ${turn.stallClaim.by} (seq ${turn.stallClaim.seq})`
        : free.length
          ? `; if it never comes, ${free.join(" or ")} may claim the stall`
          : "";
      return `${describeOwed(owed)}${claim}`;
    }
    return `activations (${unactivated.length} armies left)`;
  }
  if (state.phase === "battle") {
    const open = Object.values(state.battles)
      .filter((b) => b.turn === state.turn && b.status !== "resolved")
      .sort((a, b) => a.index - b.index);
    const next = open[0];
    return next
      ? `the result of battle ${next.id}${next.status === "reported" ? ` (reported by ${next.report!.by}, to be confirmed)` : ""}`
      : "the End phase";
  }
  const busy = players.filter((p) => !turn.endPhaseDone.includes(p));
  return busy.length ? `End phase: ${busy.join(" and ")} to finish` : "the host to end the turn";
}
