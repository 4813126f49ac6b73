import type { BattleResult, SideResult } from "../../events/common.js";
import type { DomainEvent } from "../../events/index.js";
import { isOverwhelming } from "../../projections/formulas.js";
import { rosterUnits } from "../../projections/units.js";
import { sameSquare } from "../../projections/grid.js";
import type { ArmyState, BattleSideState, BattleState, CampaignState } from "../../projections/state.js";
import type { CommandOf } from "../engine/command-schemas.js";
import { beginEndPhase, predict } from "./phases.js";
import { refuseField, refuseRule, resultField } from "./refusal.js";
import { requirePlayer, requireSetup } from "./guards.js";
import { checkSupportUse, supportExpended } from "./support.js";
import { commandersAfterBattle } from "./commanders.js";
import { checkTitanDamage, titanDamageCarried } from "./titan-repairs.js";
import { capturedCity, cityHolder } from "./cities.js";
import { requireHostActor } from "./action-common.js";
import { requireDiceSeeded } from "./line-fork.js";

/**
 * The Battle phase (B1-B7, S4): a player of a battle reports its result, the opponent confirms or rejects it; a
 * confirmed result is resolved with its CVPs, the loser routed, the winner occupying or staying, objectives on the
 * square captured, and once the turn's last battle is resolved the End phase begins.
 *
 * B1 needs no refusal: results may be reported in any order; one confirmed out of the order the battles started in
 * is the players' agreement to fight them in another order (the log records the order they were resolved in).
 */

function requireBattlePhase(state: CampaignState): void {
  if (state.status !== "active") refuseRule("T1", "battle results are entered once the campaign has started");
  if (state.phase !== "battle")
    refuseRule(
      "T1",
      `battle results are entered in the Battle phase; turn ${state.turn} is in the ${state.phase} phase`,
    );
}

function requireBattle(state: CampaignState, id: string): BattleState {
  const battle = state.battles[id];
  if (!battle) refuseField("battle", `no battle "${id}"`);
  if (battle.turn !== state.turn)
    refuseRule("B4", `battle "${id}" was fought in turn ${battle.turn}; this is turn ${state.turn}`);
  return battle;
}

/** The actor must be one of the battle's two players. */
function requireCombatant(state: CampaignState, battle: BattleState, actor: string): void {
  const player = requirePlayer(state, actor);
  if (player.id !== battle.attacker.player && player.id !== battle.defender.player) {
    refuseField("actor", `${player.id} does not fight in battle "${battle.id}"`);
  }
}

/** B4: one side's losses and routed units must fit the roster of its army as it stands. */
function checkSide(
  state: CampaignState,
  side: BattleSideState,
  result: SideResult,
  role: "attacker" | "defender",
): void {
  const { catalogue } = requireSetup(state);
  const army = state.armies[side.army]!;
  const formations = new Set([...Object.keys(result.losses), ...Object.keys(result.routed)]);
  for (const formationId of formations) {
    const formation = army.formations.find((f) => f.id === formationId);
    if (!formation)
      refuseRule(
        "B4",
        `the ${role}'s army "${army.id}" has no formation "${formationId}"`,
        resultField(role, formationId in result.losses ? "losses" : "routed", formationId),
      );
    const known = new Set([
      ...Object.keys(formation.units),
      ...Object.keys(catalogue.formations[formation.formation]?.units ?? {}),
    ]);
    const losses = result.losses[formationId] ?? {};
    const routed = result.routed[formationId] ?? {};
    for (const unitType of new Set([...Object.keys(losses), ...Object.keys(routed)])) {
      const where = `formation "${formationId}" of the ${role}'s army "${army.id}"`;
      const field = (listed: "losses" | "routed") => resultField(role, listed, formationId, unitType);
      if (!known.has(unitType))
        refuseRule("B4", `${where} has no "${unitType}" units`, field(unitType in losses ? "losses" : "routed"));
      const present = formation.units[unitType] ?? 0;
      const lost = losses[unitType] ?? 0;
      const fled = routed[unitType] ?? 0;
      if (lost > present)
        refuseRule("B4", `${where} lost ${lost} "${unitType}" but has only ${present}`, field("losses"));
      if (fled > present - lost) {
        refuseRule(
          "B4",
          `${where} has ${present - lost} "${unitType}" left after losing ${lost}: ${fled} cannot have routed (routed units are survivors)`,
          field("routed"),
        );
      }
    }
  }
}

function checkResult(state: CampaignState, battle: BattleState, result: BattleResult): void {
  checkSide(state, battle.attacker, result.attacker, "attacker");
  checkSide(state, battle.defender, result.defender, "defender");
  checkTitanDamage(state, state.armies[battle.attacker.army]!, result.attacker, "attacker");
  checkTitanDamage(state, state.armies[battle.defender.army]!, result.defender, "defender");
  checkSupportUse(state, battle, result);
}

export function decideReportBattleResult(
  state: CampaignState,
  command: CommandOf<"ReportBattleResult">,
): DomainEvent[] {
  requireSetup(state);
  if (modelledBattles(state))
    refuseRule(
      "B4",
      `this campaign's battles are resolved by the battle model (options.battles "model"): the host enters each result, no player reports one`,
    );
  requireBattlePhase(state);
  const battle = requireBattle(state, command.battle);
  requireCombatant(state, battle, command.actor);
  if (battle.status === "resolved") refuseRule("B4", `battle "${battle.id}" is already resolved`);
  if (battle.status === "reported") {
    refuseRule(
      "B4",
      `${battle.report!.by} has already reported a result for battle "${battle.id}": it must be confirmed or rejected first`,
    );
  }
  checkResult(state, battle, command.result);
  return [
    {
      type: "BattleResultReported",
      data: { turn: state.turn, battle: battle.id, by: command.actor, result: command.result },
    },
  ];
}

/** The reported result of a battle, answered by the player who did not report it. */
function requireReportFor(
  state: CampaignState,
  command: { battle: string; actor: string },
): { battle: BattleState; result: BattleResult } {
  requireSetup(state);
  requireBattlePhase(state);
  const battle = requireBattle(state, command.battle);
  requireCombatant(state, battle, command.actor);
  if (battle.status === "resolved") refuseRule("B4", `battle "${battle.id}" is already resolved`);
  if (battle.status !== "reported" || !battle.report)
    refuseRule("B4", `no result has been reported for battle "${battle.id}" yet`);
  if (battle.report.by === command.actor) {
    refuseField("actor", `${command.actor} reported this result: the opponent confirms or rejects it`);
  }
  return { battle, result: battle.report.result };
}

export function decideRejectBattleResult(
  state: CampaignState,
  command: CommandOf<"RejectBattleResult">,
): DomainEvent[] {
  const { battle } = requireReportFor(state, command);
  return [{ type: "BattleResultRejected", data: { turn: state.turn, battle: battle.id, by: command.actor } }];
}

/** S4: the CVPs each side gains from a battle: its VPs one for one plus its award. */
export function battleCvps(
  awards: { win: number; overwhelming: number; draw: number },
  battle: Pick<BattleState, "attacker" | "defender">,
  result: BattleResult,
): { winner: string | null; overwhelming: boolean; cvps: Record<string, number> } {
  const attacker = battle.attacker.player;
  const defender = battle.defender.player;
  if (result.outcome === "draw") {
    return {
      winner: null,
      overwhelming: false,
      cvps: { [attacker]: result.attacker.vp + awards.draw, [defender]: result.defender.vp + awards.draw },
    };
  }
  const attackerWon = result.outcome === "attacker";
  const [winnerVp, loserVp] = attackerWon
    ? [result.attacker.vp, result.defender.vp]
    : [result.defender.vp, result.attacker.vp];
  const overwhelming = isOverwhelming(winnerVp, loserVp);
  const award = overwhelming ? awards.overwhelming : awards.win;
  return {
    winner: attackerWon ? attacker : defender,
    overwhelming,
    cvps: {
      [attacker]: result.attacker.vp + (attackerWon ? award : 0),
      [defender]: result.defender.vp + (attackerWon ? 0 : award),
    },
  };
}

function routed(state: CampaignState, army: ArmyState, battle: BattleState): DomainEvent {
  return {
    type: "ArmyRouted",
    data: {
      turn: state.turn,
      army: army.id,
      player: army.player,
      battle: battle.id,
      units: rosterUnits(army.formations),
    },
  };
}

/**
 * B5 draw ruling: the attacker goes back to the square it entered from, unless that square is now occupied; an army of
 * its own side on its own home base does not bar it, since armies may stack there (S7).
 */
function fallBackBlocked(
  state: CampaignState,
  attacker: ArmyState,
  to: BattleState["attacker"]["from"],
): ArmyState | undefined {
  const ownHomeBase = state.homeBases[attacker.player];
  const stackable = ownHomeBase !== undefined && sameSquare(ownHomeBase.at, to);
  return Object.values(state.armies).find(
    (other) =>
      other.id !== attacker.id &&
      other.status === "active" &&
      other.at !== null &&
      sameSquare(other.at, to) &&
      !(stackable && other.player === attacker.player),
  );
}

/** B5, B6: what follows a resolved battle, decided on the state with its losses taken. */
function aftermath(state: CampaignState, battle: BattleState): DomainEvent[] {
  const events: DomainEvent[] = [];
  const attacker = state.armies[battle.attacker.army]!;
  const defender = state.armies[battle.defender.army]!;
  if (battle.winner === null) {
    const to = battle.attacker.from;
    if (fallBackBlocked(state, attacker, to)) events.push(routed(state, attacker, battle));
    else events.push({ type: "ArmyWithdrew", data: { turn: state.turn, army: attacker.id, battle: battle.id, to } });
    return events;
  }
  const [winner, loser] = battle.winner === attacker.player ? [attacker, defender] : [defender, attacker];
  events.push(routed(state, loser, battle));
  if (winner === attacker)
    events.push({
      type: "ArmyOccupied",
      data: { turn: state.turn, army: attacker.id, battle: battle.id, at: battle.at },
    });
  for (const objective of Object.values(state.objectives)) {
    if (sameSquare(objective.at, battle.at) && objective.heldBy !== winner.player) {
      events.push({
        type: "ObjectiveCaptured",
        data: {
          turn: state.turn,
          objective: objective.id,
          kind: "objective",
          by: winner.player,
          army: winner.id,
          how: "battle",
        },
      });
    }
  }
  for (const home of Object.values(state.homeBases)) {
    if (sameSquare(home.at, battle.at) && home.heldBy !== winner.player) {
      events.push({
        type: "ObjectiveCaptured",
        data: {
          turn: state.turn,
          objective: home.player,
          kind: "homeBase",
          by: winner.player,
          army: winner.id,
          how: "battle",
        },
      });
    }
  }
  // A8 ruling: a city is held like an objective, so the winner captures it too (a draw captures nothing, B5).
  if (capturedCity(state, battle.at) && cityHolder(state, battle.at) !== winner.player) {
    events.push({
      type: "CityCaptured",
      data: { turn: state.turn, at: battle.at, by: winner.player, army: winner.id, how: "battle" },
    });
  }
  return events;
}

export function decideConfirmBattleResult(
  state: CampaignState,
  command: CommandOf<"ConfirmBattleResult">,
): DomainEvent[] {
  requireSetup(state);
  const { battle, result } = requireReportFor(state, command);
  return resolveBattle(state, battle, result, {});
}

/** B4 ruling: whether the campaign's battles are resolved by the battle model rather than reported by the players. */
export function modelledBattles(state: CampaignState): boolean {
  return state.setup?.options.battles === "model";
}

/**
 * B4 with `options.battles: "model"`: the host enters the result the forecast's battle model drew from the turn's
 * dice. The engine cannot draw it (the host's seed is secret until the turn ends, D1); it checks the result as it
 * checks a reported one, and the audit draws it again from the dice once the seed is out.
 */
export function decideResolveBattleByModel(
  state: CampaignState,
  command: CommandOf<"ResolveBattleByModel">,
): DomainEvent[] {
  requireHostActor(command.actor);
  requireSetup(state);
  requireBattlePhase(state);
  const battle = requireBattle(state, command.battle);
  if (!modelledBattles(state))
    refuseRule(
      "B4",
      `this campaign's battles are fought on the table: a player of battle "${battle.id}" reports its result (options.battles "model" lets the battle model resolve them)`,
    );
  if (battle.status !== "pending") refuseRule("B4", `battle "${battle.id}" is already ${battle.status}`);
  requireDiceSeeded(state);
  return resolveBattle(state, battle, command.result, {
    resolvedBy: "model",
    firstDie: state.turnState!.diceUsed,
    dice: command.dice,
  });
}

/** A result agreed or modelled: the battle resolved with its CVPs and consequences, then the End phase if it was the last. */
function resolveBattle(
  state: CampaignState,
  battle: BattleState,
  result: BattleResult,
  modelled: { resolvedBy?: "model"; firstDie?: number; dice?: number[] },
): DomainEvent[] {
  const setup = requireSetup(state);
  checkResult(state, battle, result);
  const { winner, overwhelming, cvps } = battleCvps(setup.awards, battle, result);
  const events: DomainEvent[] = [
    {
      type: "BattleResolved",
      data: { turn: state.turn, battle: battle.id, result, winner, overwhelming, cvps, ...modelled },
    },
  ];
  events.push(...supportExpended(state, battle, result));
  events.push(...titanDamageCarried(state, battle, result));
  const resolved = predict(state, events);
  const afterBattle = aftermath(resolved, resolved.battles[battle.id]!);
  const consequences = [...afterBattle, ...commandersAfterBattle(resolved, resolved.battles[battle.id]!, afterBattle)];
  events.push(...consequences);
  const unresolved = Object.values(state.battles).some(
    (b) => b.turn === state.turn && b.id !== battle.id && b.status !== "resolved",
  );
  // The state after every event so far: the consequences folded onto the resolved state, not the battle again.
  if (!unresolved) events.push(...beginEndPhase(predict(resolved, consequences), state.turn));
  return events;
}
