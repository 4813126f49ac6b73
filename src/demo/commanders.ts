import type { Commander, RosterFormation } from "../../events/common.js";
import { advancedRule } from "../../projections/advanced.js";
import type { ArmyState, CampaignState, SpareCommander } from "../../projections/state.js";
import { hasUnits } from "../rules/reserves.js";
import { allowed, firstAllowed, outcomeOf } from "./legal.js";
import type { PlainCommand } from "./plain-command.js";

/** A6 for the demo's commanders: an army whose commander fell gets a new one, is lightened until one can lead it, or goes. */

/** Every surviving unit type of the army as a would-be commander, HQ units and titans' crews first. */
function candidates(state: CampaignState, army: ArmyState): Commander[] {
  const { unitTypes } = state.setup!.catalogue;
  const hq = (type: string) => (unitTypes[type]?.abilities ?? []).some((a) => a === "hq" || a === "titan");
  return army.formations
    .flatMap((formation) =>
      Object.entries(formation.units)
        .filter(([, count]) => count > 0)
        .map(([unitType]) => ({ formation: formation.id, unitType })),
    )
    .sort((a, b) => Number(hq(b.unitType)) - Number(hq(a.unitType)));
}

function appointment(state: CampaignState, army: ArmyState): PlainCommand | undefined {
  return firstAllowed(
    state,
    candidates(state, army).map((commander) => ({
      actor: army.player,
      type: "AppointCommander",
      army: army.id,
      commander,
    })),
  );
}

/**
 * E5 with A6: formations to break down so that a surviving unit can lead what is left: support and special formations
 * and titans before companies, the largest first, never the would-be commander's own formation.
 */
function lightening(state: CampaignState, army: ArmyState): PlainCommand | undefined {
  const { formations: catalogue } = state.setup!.catalogue;
  const companiesLast = (f: RosterFormation) => (catalogue[f.formation]?.kind === "company" ? 1 : 0);
  for (const commander of candidates(state, army)) {
    const removable = army.formations
      .filter((f) => f.id !== commander.formation && hasUnits(f))
      .sort(
        (a, b) =>
          companiesLast(a) - companiesLast(b) || catalogue[b.formation]!.points - catalogue[a.formation]!.points,
      );
    const broken: string[] = [];
    for (const formation of removable) {
      const command: PlainCommand = {
        actor: army.player,
        type: "BreakDown",
        army: army.id,
        formations: [...broken, formation.id],
      };
      const after = outcomeOf(state, command);
      if (!after) continue;
      broken.push(formation.id);
      const appoint: PlainCommand = { actor: army.player, type: "AppointCommander", army: army.id, commander };
      if (allowed(after, appoint)) return command;
    }
  }
  return undefined;
}

/** A6: the player's spare commanders, the most senior first: each new army, raised or bought, takes one. */
export function freeSpares(state: CampaignState, player: string): SpareCommander[] {
  return [...(state.ledgers[player]!.spareCommanders ?? [])].sort((a, b) => b.level - a.level);
}

/** A6: the End phase step for the player's first army left without a commander, if any. */
export function leaderlessArmyCommand(state: CampaignState, player: string): PlainCommand | undefined {
  if (!advancedRule(state.setup!.options, "commanders")) return undefined;
  const army = Object.values(state.armies)
    .filter((a) => a.player === player && a.status === "active" && a.commanderLevel === null)
    .sort((a, b) => a.id.localeCompare(b.id))[0];
  if (!army) return undefined;
  return appointment(state, army) ?? lightening(state, army) ?? { actor: player, type: "DisbandArmy", army: army.id };
}
