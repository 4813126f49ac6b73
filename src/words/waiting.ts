import { describeOwed, owedItems } from "../rules/stall.js";
import type { WaitItem, WaitingOn } from "../rules/waiting-on.js";
import type { CampaignView } from "../views/view.js";

/** What the campaign is waiting for, in a phrase. */
export function waitingFor(state: CampaignView): string {
  if (state.paused)
    return `the host to resume the campaign, paused at seq ${state.paused.seq}${state.paused.reason === undefined ? "" : ` (${state.paused.reason})`} (ResumeCampaign)`;
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

/** Each awaited item in a phrase: what, and the command that gives it. */
function describeAwaited(item: WaitItem): string {
  const what: Record<WaitItem["what"], string> = {
    resume: "to resume the campaign",
    homeBase: "its home base",
    objectives: `${item.count} more objective${item.count === 1 ? "" : "s"}`,
    armies: `${item.count} more arm${item.count === 1 ? "y" : "ies"} registered`,
    deployment: `the deployment of ${item.army}`,
    campaignStart: "to start the campaign",
    seedCommitment: "its dice seed commitment for the next turn",
    turnStart: "to start the turn",
    seed: "its dice seed for the turn",
    initiative: "to roll initiative",
    firstChoice: "to choose who activates first (won initiative)",
    order: `the order of ${item.army}, attacked (battle ${item.battle})`,
    reveal: `the reveal of ${item.army}'s order${item.battle ? ` (battle ${item.battle})` : ", due at the end of the Action phase"}`,
    activation: `the activation of ${item.army}`,
    scoutingAnswer: `its answer to scouting ${item.scouting}`,
    scoutingRoll: `to roll scouting ${item.scouting}`,
    scenario: `to settle the scenario of battle ${item.battle} (${item.command})`,
    kitRoll: `to roll for battle ${item.battle} (${item.command}${item.volley ? ` ${item.volley}` : ""}${item.barrage ? ` ${item.barrage}` : ""})`,
    armySize: `the size of its army scouted by ${item.scouting}`,
    actionPhaseClose: "to close the Action phase",
    battleResult: `the result of battle ${item.battle}`,
    modelledBattle: `to resolve battle ${item.battle} by the battle model`,
    resultConfirmation: `to confirm or reject the reported result of battle ${item.battle}`,
    endPhase: "to finish the End phase",
    turnEnd: "to end the turn",
  };
  return `${what[item.what]} (${item.command})`;
}

/**
 * What the campaign waits on, one line per party (`epicwar waiting`, the organiser's notice of who has not acted),
 * then the organiser's settings: a pause, the Action phase's deadline and whether it has passed by `now`.
 */
export function describeWaitingOn(waiting: WaitingOn, now: Date): string[] {
  const lines = Object.entries(waiting.parties).map(([party, items]) =>
    items.length === 0 ? `${party}: nothing` : `${party}: ${items.map(describeAwaited).join("; ")}`,
  );
  if (waiting.paused) {
    const why = waiting.paused.reason === undefined ? "" : `: ${waiting.paused.reason}`;
    lines.push(`The host paused the campaign at seq ${waiting.paused.seq}${why}.`);
  }
  if (waiting.actionDeadline !== undefined) {
    const passed = now.getTime() >= Date.parse(waiting.actionDeadline);
    lines.push(
      `The Action phase's deadline is ${waiting.actionDeadline}${passed ? ": it has passed, and the host may close the phase (CloseActionPhase)" : ""}.`,
    );
  }
  return lines;
}
