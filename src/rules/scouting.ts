import type { Square } from "../../events/common.js";
import { requireDiceSeeded } from "./line-fork.js";
import type { DomainEvent } from "../../events/index.js";
import { advancedRule } from "../../projections/advanced.js";
import { rosterUnits } from "../../projections/units.js";
import { BLUFF_MARGIN, scoutingBand, type ScoutingState } from "../../projections/scouting.js";
import type { ArmyState, CampaignState, TurnState } from "../../projections/state.js";
import type { CommandOf } from "../engine/command-schemas.js";
import { orderCommitment } from "../crypto/commitments.js";
import {
  actsThisTurn,
  ORDER_NAMES,
  nextActivator,
  pendingDefenders,
  requireActionPhase,
  requireHostActor,
} from "./action-common.js";
import { searchMoves } from "./move-search.js";
import { surroundings } from "./surroundings.js";
import { refuseField, refuseRule } from "./refusal.js";
import { orderAllowance, pointsLeftOnPath, stepPricing, stepsPaid } from "./terrain-costs.js";
import { requirePlayer, requirePlayersArmy, requireSetup } from "./guards.js";

/**
 * A3 scouting: an army on Advance reveals its order before it moves and scouts an enemy army it could reach and engage
 * this move; the scouted player may reveal First Fire for +2; the host rolls 2D6 a side (D1, ties rerolled); the
 * scouted player states its size within the band the roll allows. Then the scout is activated as usual, with the
 * commitment it revealed.
 */

const BONUS = 2;

function requireScouting(state: CampaignState): TurnState {
  const setup = requireSetup(state);
  if (!advancedRule(setup.options, "scouting"))
    refuseRule("A3", "scouting is not played in this campaign (the A3 option is off)");
  return requireActionPhase(state);
}

function scoutingsOf(turn: TurnState): ScoutingState[] {
  return Object.values(turn.scouting?.scoutings ?? {});
}

function requireScoutingId(turn: TurnState, id: string): ScoutingState {
  const scouting = turn.scouting?.scoutings[id];
  if (!scouting) refuseField("scouting", `no scouting "${id}" this turn`);
  return scouting;
}

/** A3: the army has units with the scout ability. */
export function hasScoutUnits(state: CampaignState, army: ArmyState): boolean {
  const { unitTypes } = state.setup!.catalogue;
  return Object.entries(rosterUnits(army.formations)).some(
    ([type, count]) => count > 0 && unitTypes[type]?.abilities.includes("scout") === true,
  );
}

/**
 * A3: whether `army` could reach and engage `target` this move on Advance: a legal path (M1-M4, and A4's terrain
 * costs when in play) within the Advance allowance whose last step enters the target's square, which holds it alone.
 */
export function canReachAndEngage(state: CampaignState, army: ArmyState, target: ArmyState): boolean {
  const { attacks } = searchMoves(
    surroundings(state, army),
    army.at!,
    orderAllowance("advance", army.moveRate),
    stepPricing(state.setup!),
  );
  return attacks.some((attack) => attack.enemy.id === target.id);
}

/** A3: the scouting player reveals its army's Advance order and scouts one enemy army, before the army moves. */
export function decideScoutArmy(state: CampaignState, command: CommandOf<"ScoutArmy">): DomainEvent[] {
  const turnState = requireScouting(state);
  const player = requirePlayer(state, command.actor);
  if (turnState.first === null) refuseRule("T2", `who activates first in turn ${state.turn} has not been chosen yet`);
  const army = requirePlayersArmy(state, player, command.army);
  if (!actsThisTurn(army, state.turn))
    refuseRule("A3", `army "${army.id}" is not on the map: only an army about to move may scout`);
  if (turnState.activations[army.id]) {
    refuseRule(
      "A3",
      `army "${army.id}" has already been activated this turn: an army scouts before it moves, on its activation`,
    );
  }
  const unfinished = scoutingsOf(turnState).find((s) => s.statedPoints === null);
  if (unfinished)
    refuseRule(
      "A3",
      `scouting ${unfinished.id} (${unfinished.army} of ${unfinished.target}) is not finished: one scouting at a time`,
    );
  const otherScout = scoutingsOf(turnState).find(
    (s) => s.player === player.id && s.army !== army.id && !turnState.activations[s.army],
  );
  if (otherScout)
    refuseRule(
      "A3",
      `army "${otherScout.army}" has scouted and moves next: scouting is part of that army's activation`,
    );
  const defender = pendingDefenders(state)[0];
  if (defender)
    refuseRule(
      "T5",
      `${defender.defender.army} must be given its order first: it is the defender of battle ${defender.id}`,
    );
  const next = nextActivator(state);
  if (next !== player.id)
    refuseRule(
      "T3",
      `it is ${next}'s turn to activate an army, not ${player.id}'s: an army scouts on its own activation`,
    );

  const commitment = orderCommitment({
    campaign: state.campaign!,
    turn: state.turn,
    army: army.id,
    order: "advance",
    salt: command.salt,
  });
  if (commitment !== command.commitment) {
    refuseRule(
      "A3",
      `Advance with the salt given does not hash to the commitment given: a scout must reveal the Advance order its activation commits to`,
    );
  }
  const pledge = turnState.scouting?.pledges[army.id];
  if (pledge && pledge.commitment !== command.commitment) {
    refuseRule(
      "A3",
      `army "${army.id}" already revealed another commitment this turn: every scouting of an army reveals the same order`,
    );
  }

  const target = state.armies[command.target];
  if (!target) refuseField("target", `no army "${command.target}"`);
  if (target.player === player.id)
    refuseRule("A3", `"${target.id}" is one of ${player.id}'s own armies: only enemy armies are scouted`);
  if (target.status !== "active" || target.at === null) refuseRule("A3", `enemy army "${target.id}" is not on the map`);
  if (scoutingsOf(turnState).some((s) => s.army === army.id && s.target === target.id)) {
    refuseRule("A3", `army "${army.id}" has already scouted "${target.id}" this turn: each enemy army is scouted once`);
  }
  if (!canReachAndEngage(state, army, target)) {
    refuseRule(
      "A3",
      `army "${army.id}" could not reach and engage "${target.id}" this move: at move rate ${army.moveRate} on Advance it scouts only enemy armies it could attack`,
    );
  }

  const scouting = `t${state.turn}s${scoutingsOf(turnState).length + 1}`;
  return [
    {
      type: "ScoutingDeclared",
      data: {
        turn: state.turn,
        scouting,
        army: army.id,
        player: player.id,
        target: target.id,
        commitment,
        order: "advance",
        salt: command.salt,
        bonus: hasScoutUnits(state, army) ? BONUS : 0,
      },
    },
  ];
}

/**
 * A3: the scouted player takes the First Fire bonus by revealing that order, or declines it. Ruling: an army not yet
 * activated has given no order; to claim the bonus it commits now to First Fire, and its activation must carry that
 * commitment (so it may not move).
 */
export function decideAnswerScouting(state: CampaignState, command: CommandOf<"AnswerScouting">): DomainEvent[] {
  const turnState = requireScouting(state);
  const player = requirePlayer(state, command.actor);
  const scouting = requireScoutingId(turnState, command.scouting);
  if (scouting.targetPlayer !== player.id)
    refuseField(
      "actor",
      `scouting ${scouting.id} is of ${scouting.targetPlayer}'s army "${scouting.target}": only its owner answers`,
    );
  if (scouting.scoutedBonus !== null) refuseRule("A3", `scouting ${scouting.id} has already been answered`);
  const base = { turn: state.turn, scouting: scouting.id, army: scouting.target, player: player.id };
  const { firstFire } = command;
  if (!firstFire) return [{ type: "ScoutingAnswered", data: { ...base, bonus: 0 } }];

  const opened = orderCommitment({
    campaign: state.campaign!,
    turn: state.turn,
    army: scouting.target,
    order: "firstFire",
    salt: firstFire.salt,
  });
  if (opened !== firstFire.commitment) {
    refuseRule(
      "A3",
      `First Fire with the salt given does not hash to the commitment given: the +2 needs the First Fire order revealed`,
    );
  }
  const activation = turnState.activations[scouting.target];
  const committed = activation?.commitment ?? turnState.scouting?.pledges[scouting.target]?.commitment;
  if (committed !== undefined && committed !== firstFire.commitment) {
    refuseRule(
      "A3",
      `"${scouting.target}" committed to another order this turn: only an army on First Fire gets the +2`,
    );
  }
  const events: DomainEvent[] = [{ type: "ScoutingAnswered", data: { ...base, firstFire, bonus: BONUS } }];
  if (activation && activation.order === null) {
    events.push({
      type: "OrderRevealed",
      data: { turn: state.turn, army: scouting.target, order: "firstFire", salt: firstFire.salt },
    });
    if (activation.path.length > 0) {
      events.push({
        type: "OrderViolated",
        data: {
          ...base,
          order: "firstFire",
          rule: "T4",
          evidenceSeq: activation.moveSeq ?? activation.seq,
          detail: `moved ${activation.path.length} square(s) on First Fire, which may not move (ArmyMoved seq ${activation.moveSeq})`,
        },
      });
    }
  }
  return events;
}

/** A3, D1: the host records the scouting dice; their form is checked here, their values by the audit once the seed is out. */
export function decideRollScouting(state: CampaignState, command: CommandOf<"RollScouting">): DomainEvent[] {
  const turnState = requireScouting(state);
  requireHostActor(command.actor);
  const scouting = requireScoutingId(turnState, command.scouting);
  if (scouting.scoutedBonus === null)
    refuseRule(
      "A3",
      `${scouting.targetPlayer} has not yet answered scouting ${scouting.id}: it may first reveal First Fire for +2`,
    );
  if (scouting.band !== null) refuseRule("A3", `scouting ${scouting.id} has already been rolled`);
  const totals = command.rounds.map((round) => ({
    scout: round.scout[0] + round.scout[1] + scouting.scoutBonus,
    scouted: round.scouted[0] + round.scouted[1] + scouting.scoutedBonus!,
  }));
  totals.forEach((total, i) => {
    const last = i === totals.length - 1;
    const tie = total.scout === total.scouted;
    if (!last && !tie)
      refuseRule(
        "A3",
        `round ${i + 1} (${total.scout} against ${total.scouted}) is not a tie, so no round may follow it`,
      );
    if (last && tie)
      refuseRule("A3", `the last round (${total.scout} against ${total.scouted}) is a tie: ties are rerolled`);
  });
  requireDiceSeeded(state);
  const final = totals[totals.length - 1]!;
  return [
    {
      type: "ScoutingRolled",
      data: {
        turn: state.turn,
        scouting: scouting.id,
        firstDie: turnState.diceUsed,
        rounds: command.rounds,
        scoutTotal: final.scout,
        scoutedTotal: final.scouted,
        band: scoutingBand(final.scout, final.scouted)!,
      },
    },
  ];
}

/** A3: the scouted player states its army's size; it must lie within the band around the true size now. */
export function decideStateArmySize(state: CampaignState, command: CommandOf<"StateArmySize">): DomainEvent[] {
  const turnState = requireScouting(state);
  const player = requirePlayer(state, command.actor);
  const scouting = requireScoutingId(turnState, command.scouting);
  if (scouting.targetPlayer !== player.id)
    refuseField(
      "actor",
      `scouting ${scouting.id} is of ${scouting.targetPlayer}'s army "${scouting.target}": only its owner states its size`,
    );
  if (scouting.band === null)
    refuseRule(
      "A3",
      `scouting ${scouting.id} has not been rolled yet: the roll decides how far the size may be bluffed`,
    );
  if (scouting.statedPoints !== null)
    refuseRule("A3", `the size of "${scouting.target}" has already been stated for scouting ${scouting.id}`);
  const margin = BLUFF_MARGIN[scouting.band];
  const truth = state.armies[scouting.target]!.points;
  if (Math.abs(command.points - truth) > margin) {
    refuseRule(
      "A3",
      margin === 0
        ? `the scout won by double or more: ${command.points} is not the army's true size, which must be told`
        : `${command.points} points is more than ${margin} from the army's true size: this roll allows a bluff of at most ${margin} either way`,
    );
  }
  return [
    {
      type: "ArmySizeStated",
      data: {
        turn: state.turn,
        scouting: scouting.id,
        army: scouting.target,
        player: player.id,
        points: command.points,
      },
    },
  ];
}

/**
 * A3 at activation: nobody activates while a scouting is unfinished; an army that scouted moves next; an army whose
 * order a scouting made public must be activated with that commitment, and moves as that order allows.
 */
export function checkActivationAfterScouting(
  state: CampaignState,
  army: ArmyState,
  commitment: string,
  path: readonly Square[],
): void {
  const turnState = state.turnState!;
  if (!turnState.scouting) return;
  const unfinished = scoutingsOf(turnState).find((s) => s.statedPoints === null);
  if (unfinished)
    refuseRule(
      "A3",
      `scouting ${unfinished.id} (${unfinished.army} of ${unfinished.target}) is not finished: the scout moves once the size is stated`,
    );
  const scout = scoutingsOf(turnState).find(
    (s) => s.player === army.player && s.army !== army.id && !turnState.activations[s.army],
  );
  if (scout)
    refuseRule("A3", `army "${scout.army}" has scouted and moves next: scouting is part of that army's activation`);
  const pledge = turnState.scouting.pledges[army.id];
  if (!pledge) return;
  const name = ORDER_NAMES[pledge.order];
  if (pledge.commitment !== commitment) {
    refuseRule(
      "A3",
      `army "${army.id}" revealed ${name} for scouting this turn: it must be activated with that commitment`,
    );
  }
  const allowance = orderAllowance(pledge.order, army.moveRate);
  const paid = allowance === 0 ? 0 : stepsPaid(pointsLeftOnPath(stepPricing(state.setup!), allowance, path));
  if (path.length > paid) {
    refuseRule(
      "A3",
      `army "${army.id}" revealed ${name} for scouting, which at move rate ${army.moveRate} does not allow this ${path.length}-square move`,
    );
  }
}
