import { HOST } from "../../events/common.js";
import { turnUnderWay } from "../../projections/turns.js";
import type { CampaignState } from "../../projections/state.js";
import type { CommandType } from "../engine/command-schemas.js";
import { battlesThisTurn, nextActivator, unactivatedArmies } from "./action-common.js";
import { OBJECTIVES_PER_PLAYER } from "./setup.js";
import { owedItems } from "./stall.js";
import { kitRollsDue, scenarioDue } from "./battle-kit.js";

/** One thing the campaign waits on from a party, and the command that gives it. */
export interface WaitItem {
  what:
    | "resume"
    | "homeBase"
    | "objectives"
    | "armies"
    | "deployment"
    | "campaignStart"
    | "seedCommitment"
    | "turnStart"
    | "seed"
    | "initiative"
    | "firstChoice"
    | "order"
    | "reveal"
    | "activation"
    | "scoutingAnswer"
    | "scoutingRoll"
    | "scenario"
    | "kitRoll"
    | "armySize"
    | "actionPhaseClose"
    | "battleResult"
    | "modelledBattle"
    | "resultConfirmation"
    | "endPhase"
    | "turnEnd";
  command: CommandType;
  army?: string;
  battle?: string;
  scouting?: string;
  /** K5: the volley or barrage a kit roll is for. */
  volley?: string;
  barrage?: string;
  /** How many are still to give, where the item counts (objectives, armies). */
  count?: number;
}

/**
 * What the campaign waits on now, per party (the host and each player, every one listed, most with nothing): what
 * the organiser's tools show (`epicwar waiting`, the server's waiting route) to tell who has not acted. Only what every
 * seat may see goes in: ids, never an order, salt, seed or strength. `paused` and `actionDeadline` are the organiser's
 * own settings (O1, O2); whether a deadline has passed is the reader's to judge by its clock.
 */
export interface WaitingOn {
  parties: Record<string, WaitItem[]>;
  paused?: { seq: number; reason?: string };
  actionDeadline?: string;
}

export function waitingOn(state: CampaignState): WaitingOn {
  const setup = state.setup;
  if (!setup) return { parties: {} };
  const players = setup.players.map((p) => p.id);
  const parties: Record<string, WaitItem[]> = Object.fromEntries([HOST, ...players].map((party) => [party, []]));
  const owe = (party: string, item: WaitItem) => parties[party]!.push(item);
  const deadline = state.phase === "action" ? state.turnState?.actionDeadline : undefined;
  const settings = {
    ...(state.paused ? { paused: state.paused } : {}),
    ...(deadline === undefined ? {} : { actionDeadline: deadline }),
  };
  if (state.paused) {
    owe(HOST, { what: "resume", command: "ResumeCampaign" });
    return { parties, ...settings };
  }
  if (state.status === "active" && turnUnderWay(state) && (state.phase === "action" || state.phase === "battle"))
    battleKit(state, owe);
  if (state.status === "setup") setUp(state, players, owe);
  else if (state.status === "active" && !turnUnderWay(state)) {
    const uncommitted = players.filter((p) => state.seedCommitments[p] === undefined);
    for (const player of uncommitted) owe(player, { what: "seedCommitment", command: "CommitSeed" });
    if (uncommitted.length === 0) owe(HOST, { what: "turnStart", command: "StartTurn" });
  } else if (state.status === "active" && state.phase === "action") actionPhase(state, players, owe);
  else if (state.status === "active" && state.phase === "battle") {
    for (const battle of Object.values(state.battles).filter((b) => b.turn === state.turn && b.status !== "resolved")) {
      const sides = [battle.attacker.player, battle.defender.player];
      // B4: where the model resolves the campaign's battles, the host's step does, and no player reports one.
      if (setup.options.battles === "model")
        owe(HOST, { what: "modelledBattle", command: "ResolveBattleByModel", battle: battle.id });
      else if (battle.report === null)
        for (const player of sides)
          owe(player, { what: "battleResult", command: "ReportBattleResult", battle: battle.id });
      else
        for (const player of sides.filter((p) => p !== battle.report!.by))
          owe(player, { what: "resultConfirmation", command: "ConfirmBattleResult", battle: battle.id });
    }
  } else if (state.status === "active" && state.phase === "end") {
    const busy = players.filter((p) => !state.turnState!.endPhaseDone.includes(p));
    for (const player of busy) owe(player, { what: "endPhase", command: "FinishEndPhase" });
    if (busy.length === 0) owe(HOST, { what: "turnEnd", command: "EndTurn" });
  }
  return { parties, ...settings };
}

type Owe = (party: string, item: WaitItem) => void;

/** K2, K3, K5, D1: the scenarios the players are to settle and the kit rolls the host owes, for this turn's battles. */
function battleKit(state: CampaignState, owe: Owe): void {
  const kit = state.setup!.options.battleKit;
  const battles = battlesThisTurn(state);
  for (const battle of battles) {
    const due = scenarioDue(kit, battle);
    if (due) owe(due.player, { what: "scenario", command: due.command, battle: battle.id });
  }
  for (const { type, ...names } of kitRollsDue(kit, battles)) owe(HOST, { what: "kitRoll", command: type, ...names });
}

/** S2, S6, S7: each player's home base, objectives, armies and their deployment; then the host starts the campaign. */
function setUp(state: CampaignState, players: readonly string[], owe: Owe): void {
  const force = state.setup!.force.armies;
  let ready = true;
  const playerOwes: Owe = (party, item) => {
    ready = false;
    owe(party, item);
  };
  for (const player of players) {
    if (!state.homeBases[player]) playerOwes(player, { what: "homeBase", command: "PlaceHomeBase" });
    const objectives = Object.values(state.objectives).filter((o) => o.placedBy === player).length;
    if (objectives < OBJECTIVES_PER_PLAYER)
      playerOwes(player, { what: "objectives", command: "PlaceObjective", count: OBJECTIVES_PER_PLAYER - objectives });
    const armies = Object.values(state.armies).filter((a) => a.player === player);
    if (armies.length < force)
      playerOwes(player, { what: "armies", command: "RegisterArmy", count: force - armies.length });
    for (const army of armies.filter((a) => a.at === null))
      playerOwes(player, { what: "deployment", command: "DeployArmy", army: army.id });
  }
  if (ready) owe(HOST, { what: "campaignStart", command: "StartCampaign" });
}

/** D1, T2-T5, A3: seeds, initiative, the first choice, what is owed, scoutings, the next activation or the close. */
function actionPhase(state: CampaignState, players: readonly string[], owe: Owe): void {
  const turn = state.turnState!;
  const seedless = players.filter((p) => turn.playerSeeds[p] === undefined);
  if (turn.initiativeWinner === null) {
    for (const player of seedless) owe(player, { what: "seed", command: "GiveSeed" });
    if (seedless.length === 0) owe(HOST, { what: "initiative", command: "RollInitiative" });
    return;
  }
  if (turn.first === null) {
    owe(turn.initiativeWinner, { what: "firstChoice", command: "ChooseFirst" });
    return;
  }
  for (const scouting of Object.values(turn.scouting?.scoutings ?? {})) {
    if (scouting.scoutedBonus === null)
      owe(scouting.targetPlayer, { what: "scoutingAnswer", command: "AnswerScouting", scouting: scouting.id });
    else if (scouting.band === null)
      owe(HOST, { what: "scoutingRoll", command: "RollScouting", scouting: scouting.id });
    else if (scouting.statedPoints === null)
      owe(scouting.targetPlayer, { what: "armySize", command: "StateArmySize", scouting: scouting.id });
  }
  const owed = owedItems(state);
  for (const item of owed) {
    const command = item.owes === "order" ? "ActivateArmy" : "RevealOrder";
    owe(item.player, { what: item.owes, command, army: item.army, battle: item.battle });
  }
  if (owed.length > 0) return;
  const next = nextActivator(state);
  if (next !== null) {
    for (const army of unactivatedArmies(state).filter((a) => a.player === next))
      owe(next, { what: "activation", command: "ActivateArmy", army: army.id });
    return;
  }
  // Every army is activated: the reveals due at the phase's end, which the host may close the phase without (T5).
  for (const activation of Object.values(turn.activations).filter((a) => a.order === null))
    owe(activation.player, { what: "reveal", command: "RevealOrder", army: activation.army });
  owe(HOST, { what: "actionPhaseClose", command: "CloseActionPhase" });
}
