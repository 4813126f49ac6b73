import { HOST } from "../../events/common.js";
import type { CampaignView } from "../views/view.js";
import { battlesThisTurn, pendingDefenders } from "../rules/action-common.js";
import { kitRollChores } from "./battle-kit.js";

/**
 * The protocol steps that need no decision, which the parties on this machine take as soon as they are due:
 * committing to and giving dice seeds, rolling initiative, revealing orders when a battle starts and at the end of the Action phase,
 * starting the next turn and ending a turn once both players are done. Each is a plain command for prepareCommand.
 * `parties` are the ids (players and/or "host") this machine acts for. `revealAgain`: armies whose reveal was rejected
 * this turn (rejectedReveals) whose player's secrets hold the order that opens the commitment; any other rejected
 * reveal is left to its player, since the same secrets would only be rejected again.
 */
export function dueChores(
  state: CampaignView,
  parties: ReadonlySet<string>,
  revealAgain: ReadonlySet<string> = new Set(),
): Array<Record<string, unknown>> {
  // O1: a paused campaign takes no command but the host's ResumeCampaign, which is a decision, not a chore.
  if (state.status !== "active" || !state.setup || state.paused) return [];
  const players = state.setup.players.map((p) => p.id);
  const turn = state.turnState;
  if (turn === null || turn.hostSeed !== null) {
    // D1: every player commits to its seed before the host draws its own.
    const uncommitted = players.filter((p) => state.seedCommitments[p] === undefined);
    if (uncommitted.length > 0)
      return uncommitted.filter((p) => parties.has(p)).map((p) => ({ actor: p, type: "CommitSeed" }));
    return parties.has(HOST) ? [{ actor: HOST, type: "StartTurn" }] : [];
  }
  if (turn.forked) {
    const seeding = forkedSeedChores(state, parties);
    if (seeding) return seeding;
  }
  if (state.phase === "action") {
    const missingSeeds = players.filter((p) => !turn.playerSeeds[p] && parties.has(p));
    if (missingSeeds.length > 0) return missingSeeds.map((p) => ({ actor: p, type: "GiveSeed" }));
    if (players.every((p) => turn.playerSeeds[p]) && !turn.initiativeWinner) {
      return parties.has(HOST) ? [{ actor: HOST, type: "RollInitiative" }] : [];
    }
    // A3: a scouting the scouted player has answered is rolled by the host.
    const toRoll = Object.values(turn.scouting?.scoutings ?? {}).filter(
      (s) => s.scoutedBonus !== null && s.band === null,
    );
    if (toRoll.length > 0)
      return parties.has(HOST) ? toRoll.map((s) => ({ actor: HOST, type: "RollScouting", scouting: s.id })) : [];
    // K2, K3, K5: the kit rolls of this turn's battles, as soon as they are due.
    const kitRolls = parties.has(HOST) ? kitRollChores(state) : [];
    return kitRolls.length > 0 ? kitRolls : dueReveals(state, parties, revealAgain);
  }
  if (state.phase === "battle" && parties.has(HOST)) {
    const kitRolls = kitRollChores(state);
    if (kitRolls.length > 0) return kitRolls;
    const modelled = modelledBattleChores(state);
    if (modelled.length > 0) return modelled;
  }
  if (state.phase === "end" && players.every((p) => turn.endPhaseDone.includes(p)) && parties.has(HOST)) {
    return [{ actor: HOST, type: "EndTurn" }];
  }
  return [];
}

/**
 * D1 on a branch whose fork voided the turn's seeds: the players commit to fresh ones, the host reseeds, the players
 * give theirs, in that order; until all is done nothing else of the turn is (an empty list: waiting on another party).
 * Undefined once the turn's seeds are all in force again.
 */
function forkedSeedChores(
  state: CampaignView,
  parties: ReadonlySet<string>,
): Array<Record<string, unknown>> | undefined {
  const players = state.setup!.players.map((p) => p.id);
  const turn = state.turnState!;
  if (!turn.forked!.reseeded) {
    const uncommitted = players.filter((p) => state.seedCommitments[p] === undefined);
    if (uncommitted.length > 0)
      return uncommitted.filter((p) => parties.has(p)).map((p) => ({ actor: p, type: "CommitSeed" }));
    return parties.has(HOST) ? [{ actor: HOST, type: "ReseedTurn" }] : [];
  }
  const missing = players.filter((p) => turn.playerSeeds[p] === undefined);
  if (missing.length === 0) return undefined;
  return missing.filter((p) => parties.has(p)).map((p) => ({ actor: p, type: "GiveSeed" }));
}

/**
 * T5: the hidden orders of `parties`' armies whose reveal was rejected this turn (RevealRejected): revealed again only
 * from secrets that open the commitment, which only the Table can look at (dueChores's `revealAgain`).
 */
export function rejectedReveals(
  state: CampaignView,
  parties: ReadonlySet<string>,
): Array<{ player: string; army: string }> {
  const activations = state.turnState?.activations ?? {};
  return [...rejectedThisTurn(state)]
    .map((army) => activations[army])
    .filter((a) => a !== undefined && a.order === null && !a.voided && parties.has(a.player))
    .map((a) => ({ player: a!.player, army: a!.army }));
}

/** The armies whose reveal was rejected this turn (T5 with evidence: a RevealRejected, not an order never revealed). */
function rejectedThisTurn(state: CampaignView): Set<string> {
  return new Set(
    state.violations
      .filter((v) => v.turn === state.turn && v.rule === "T5" && v.evidenceSeq !== null)
      .map((v) => v.army),
  );
}

/** T5: the orders of both armies of a battle just started, and every order once all armies have been activated. */
function dueReveals(
  state: CampaignView,
  parties: ReadonlySet<string>,
  revealAgain: ReadonlySet<string>,
): Array<Record<string, unknown>> {
  const turn = state.turnState!;
  const rejected = rejectedThisTurn(state);
  for (const army of revealAgain) rejected.delete(army);
  // Both orders of a battle are revealed once both are committed: never the attacker's before the defender has chosen,
  // nor while a fork has voided the defender's order and its player has yet to commit again (pendingDefenders).
  const awaitingDefender = new Set(pendingDefenders(state).map((b) => b.attacker.army));
  const hidden = Object.values(turn.activations).filter(
    // An order the fork voided on a branch waits for its player's fresh commitment, a decision (RecommitOrder).
    (a) =>
      a.order === null && !a.voided && parties.has(a.player) && !rejected.has(a.army) && !awaitingDefender.has(a.army),
  );
  const inBattle = new Set(battlesThisTurn(state).flatMap((b) => [b.attacker.army, b.defender.army]));
  const onMap = Object.values(state.armies).filter(
    (a) => a.status === "active" && a.at !== null && a.sinceTurn <= state.turn,
  );
  const allActivated = onMap.every((a) => turn.activations[a.id]);
  return hidden
    .filter((a) => allActivated || inBattle.has(a.army))
    .map((a) => ({ actor: a.player, type: "RevealOrder", army: a.army }));
}

/** B4 with `options.battles: "model"`: the host resolves each of the turn's battles still pending by the model. */
function modelledBattleChores(state: CampaignView): Array<Record<string, unknown>> {
  if (state.setup?.options.battles !== "model") return [];
  return Object.values(state.battles)
    .filter((battle) => battle.turn === state.turn && battle.status === "pending")
    .sort((a, b) => a.index - b.index)
    .map((battle) => ({ actor: HOST, type: "ResolveBattleByModel", battle: battle.id }));
}
