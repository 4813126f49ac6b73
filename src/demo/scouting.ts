import type { Square } from "../../events/common.js";
import { advancedRule } from "../../projections/advanced.js";
import { sameSquare } from "../../projections/grid.js";
import { BLUFF_MARGIN, scoutingOf, type ScoutingState } from "../../projections/scouting.js";
import type { ArmyState, CampaignState } from "../../projections/state.js";
import { orderAllowance } from "../rules/terrain-costs.js";
import { reach } from "./pathing.js";
import { seededRandom } from "./rng.js";
import type { PlainCommand } from "./plain-command.js";

/**
 * A3 for the demo's commanders: an army on Advance scouts an enemy it could attack before it moves, and attacks only
 * if the size it is told does not scare it off; the scouted player sometimes reveals First Fire for the +2, and states
 * its size within the band the roll allows, sometimes bluffing to the band's edge.
 */

/** How much larger than the scout a scouted army may say it is before the scout holds back. */
const NERVE = 1.25;

const roll = (state: CampaignState, what: string) => seededRandom(`${state.campaign}/t${state.turn}/${what}`)();

function onOwnHomeBase(state: CampaignState, army: ArmyState): boolean {
  const home = state.homeBases[army.player];
  return home !== undefined && army.at !== null && sameSquare(home.at, army.at);
}

/**
 * The scouted player's answer: First Fire for the +2 now and then, for an army not yet activated (which then holds
 * that order). Never for an army on its own home base, which S7 sends out on Advance or Charge.
 */
function answer(state: CampaignState, scouting: ScoutingState): PlainCommand {
  const target = state.armies[scouting.target]!;
  const free = !state.turnState!.activations[target.id] && !onOwnHomeBase(state, target);
  const firstFire = free && roll(state, `${scouting.id}/answer`) < 0.5;
  return { actor: scouting.targetPlayer, type: "AnswerScouting", scouting: scouting.id, firstFire };
}

/** The size told: the truth, or a bluff as far as the band allows, mostly upwards to scare the scout off. */
function statedSize(state: CampaignState, scouting: ScoutingState): PlainCommand {
  const truth = state.armies[scouting.target]!.points;
  const margin = BLUFF_MARGIN[scouting.band!];
  const luck = roll(state, `${scouting.id}/size`);
  const points =
    luck < 0.35
      ? truth
      : luck < 0.5
        ? Math.max(0, truth - margin)
        : luck < 0.8
          ? truth + margin
          : truth + Math.round(margin / 2);
  return { actor: scouting.targetPlayer, type: "StateArmySize", scouting: scouting.id, points };
}

/** The scouted player's next step in an unfinished scouting (the host rolls the dice in between), if any. */
export function scoutingReply(state: CampaignState): PlainCommand | undefined {
  const scoutings = Object.values(state.turnState?.scouting?.scoutings ?? {});
  const unanswered = scoutings.find((s) => s.scoutedBonus === null);
  if (unanswered) return answer(state, unanswered);
  const rolled = scoutings.find((s) => s.band !== null && s.statedPoints === null);
  return rolled ? statedSize(state, rolled) : undefined;
}

/** The order an earlier step of this turn made public for the army (its own scouting, or an answer to one). */
export function pledgedOrder(state: CampaignState, army: ArmyState): "advance" | "firstFire" | undefined {
  const order = state.turnState?.scouting?.pledges[army.id]?.order;
  return order === "advance" || order === "firstFire" ? order : undefined;
}

/** Enemy armies the army could attack on Advance, nearest first. */
function inAdvanceReach(state: CampaignState, army: ArmyState): Array<{ path: Square[]; enemy: ArmyState }> {
  return reach(state, army, orderAllowance("advance", army.moveRate)).attacks.sort(
    (a, b) => a.path.length - b.path.length || a.enemy.id.localeCompare(b.enemy.id),
  );
}

/**
 * A3: an army about to be activated scouts, now and then, the nearest enemy it could attack on Advance; an army on its
 * home base (S7 may send it out on Charge) goes out without scouting.
 */
export function scoutBeforeMoving(state: CampaignState, army: ArmyState): PlainCommand | undefined {
  if (
    !advancedRule(state.setup!.options, "scouting") ||
    onOwnHomeBase(state, army) ||
    roll(state, `${army.id}/scout`) >= 0.7
  )
    return undefined;
  const target = inAdvanceReach(state, army)[0];
  return target ? { actor: army.player, type: "ScoutArmy", army: army.id, target: target.enemy.id } : undefined;
}

/** After scouting, on Advance: attack a scouted enemy whose stated size it dares to face, else undefined. */
export function attackAfterScouting(state: CampaignState, army: ArmyState): Square[] | undefined {
  return inAdvanceReach(state, army).find(({ enemy }) => {
    const stated = scoutingOf(state.turnState, army.id, enemy.id)?.statedPoints;
    return stated !== undefined && stated !== null && stated <= army.points * NERVE;
  })?.path;
}
