import type { RosterFormation, VpTableRow } from "../../events/common.js";
import { vpTarget } from "../../projections/formulas.js";
import { armyPoints } from "../../projections/units.js";
import type { ArmyState, BattleState, CampaignState, PlayerLedger } from "../../projections/state.js";
import { lowestLevelFor } from "../rules/commanders.js";
import { MIN_ARMY_POINTS } from "../rules/new-army.js";
import { ownFormations } from "../demo/catalogue.js";
import { HIDDEN } from "../views/view.js";

/*
 * A2 fog of war (and A6's hidden levels): what a seat does not see of the enemy, drawn from what it does see. The
 * seat sees each army's move rate, which S5 derives from its points, and the force's largest army (S2): an army's
 * points are drawn in the band its move rate allows, its roster made of the owner's companies from the catalogue up
 * to them. Reserves, units In Transit, titan damage and the war chest, of which the seat sees nothing, are drawn empty.
 */

const isHidden = (value: unknown) => value === HIDDEN;

/** S5: the points an army of this move rate may have, within the force's largest army (S2). */
export function pointsBand(moveRate: number, maxArmyPoints: number): [number, number] {
  const band: [number, number] =
    moveRate >= 3 ? [MIN_ARMY_POINTS, 3000] : moveRate === 2 ? [3001, 5999] : [6000, maxArmyPoints];
  return [Math.min(band[0], maxArmyPoints), Math.min(band[1], maxArmyPoints)];
}

/** A roster of the owner's companies, drawn one after another until it is worth at least `target` points. */
function drawnRoster(state: CampaignState, army: ArmyState, target: number, random: () => number): RosterFormation[] {
  const catalogue = state.setup!.catalogue;
  const own = ownFormations(catalogue, army.player);
  const companies = own.filter(([, f]) => f.kind === "company");
  const choices = companies.length > 0 ? companies : own;
  const roster: RosterFormation[] = [];
  while (roster.length === 0 || armyPoints(roster, catalogue) < target) {
    const [formation, entry] = choices[Math.floor(random() * choices.length)]!;
    roster.push({ id: `${army.id}-drawn-${roster.length + 1}`, formation, units: { ...entry.units } });
    if (roster.length > 100) break;
  }
  return roster;
}

/** An enemy army with its hidden strength drawn (A2), and its commander's level where A6 hides it. */
export function drawnArmy(state: CampaignState, army: ArmyState, random: () => number): ArmyState {
  let drawn = army;
  if (isHidden(army.points) || isHidden(army.formations)) {
    const [low, high] = pointsBand(army.moveRate, state.setup!.force.maxArmyPoints);
    const formations = drawnRoster(state, army, low + Math.floor(random() * (high - low + 1)), random);
    // S8: a commander hidden too is then drawn from these units (sampledStart); a known one (killed) stays as it is.
    drawn = { ...drawn, formations, points: armyPoints(formations, state.setup!.catalogue) };
  }
  if (isHidden(army.titanDamage)) drawn = { ...drawn, titanDamage: {} };
  if (isHidden(army.commanderLevel)) drawn = { ...drawn, commanderLevel: lowestLevelFor(drawn.points) };
  return drawn;
}

/** A ledger with what fog of war hides drawn empty: no Reserves, nothing In Transit, no damaged titans, no war chest. */
export function drawnLedger(ledger: PlayerLedger): PlayerLedger {
  const hidden = ledger as unknown as Record<string, unknown>;
  if (!Object.values(hidden).some(isHidden)) return ledger;
  return {
    ...ledger,
    ...(isHidden(hidden["reserves"]) ? { reserves: {} } : {}),
    ...(isHidden(hidden["inTransit"]) ? { inTransit: [] } : {}),
    ...(isHidden(hidden["damagedTitans"]) ? { damagedTitans: {} } : {}),
    ...(isHidden(hidden["warChest"]) ? { warChest: 0 } : {}),
    ...(isHidden(hidden["spareCommanders"]) ? { spareCommanders: [] } : {}),
  } as PlayerLedger;
}

/**
 * A battle as the simulation starts it. In the Action phase fog still hides its sides' points: each is its army's
 * points as drawn, and its size and VP target, hidden with them, are made from those as BattleStarted makes them. A
 * result reported but not yet confirmed (B4) that names the formations of a roster drawn anew cannot be confirmed
 * against that roster: the battle is fought again by the model, as one not yet reported.
 */
export function drawnBattle(
  battle: BattleState,
  armies: Record<string, ArmyState>,
  drawnRosters: ReadonlySet<string>,
  vpTable: readonly VpTableRow[] | undefined,
): BattleState {
  const side = <S extends BattleState["attacker"] | BattleState["defender"]>(s: S): S =>
    isHidden(s.points) ? { ...s, points: armies[s.army]?.points ?? 0 } : s;
  const [attacker, defender] = [side(battle.attacker), side(battle.defender)];
  let drawn = attacker === battle.attacker && defender === battle.defender ? battle : { ...battle, attacker, defender };
  if (isHidden(battle.averagePoints)) {
    const averagePoints = (attacker.points + defender.points) / 2;
    drawn = {
      ...drawn,
      averagePoints,
      ...(isHidden(battle.vpTarget) ? { vpTarget: vpTarget(averagePoints, vpTable) } : {}),
    };
  }
  if (battle.report !== null && (drawnRosters.has(attacker.army) || drawnRosters.has(defender.army)))
    drawn = { ...drawn, status: "pending", report: null };
  return drawn;
}
