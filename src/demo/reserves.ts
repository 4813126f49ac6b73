import type { Square } from "../../events/common.js";
import { advancedRule } from "../../projections/advanced.js";
import { rowsFromEdge, sameSquare } from "../../projections/grid.js";
import type { ArmyState, CampaignState } from "../../projections/state.js";
import { commandLimit } from "../rules/commanders.js";
import { freeSpares, leaderlessArmyCommand } from "./commanders.js";
import { ownFormations, type CatalogueEntry } from "./catalogue.js";
import { allowed } from "./legal.js";
import type { PlainCommand } from "./plain-command.js";
import { warChestCommand } from "./war-chest.js";
import { MIN_ARMY_POINTS } from "../rules/new-army.js";

function covers(pool: Record<string, number>, units: Record<string, number>): boolean {
  return Object.entries(units).every(([type, count]) => (pool[type] ?? 0) >= count);
}

function take(pool: Record<string, number>, units: Record<string, number>): void {
  for (const [type, count] of Object.entries(units)) pool[type] = (pool[type] ?? 0) - count;
}

/** Full-strength formations the pool can build, largest first, while they come to at most `limit`; taken from the pool. */
function fill(
  pool: Record<string, number>,
  formations: readonly CatalogueEntry[],
  limit: number,
): { chosen: string[]; points: number } {
  const chosen: string[] = [];
  let points = 0;
  for (const [id, formation] of formations) {
    while (covers(pool, formation.units) && points + formation.points <= limit) {
      take(pool, formation.units);
      chosen.push(id);
      points += formation.points;
    }
  }
  return { chosen, points };
}

const largestFirst = (formations: CatalogueEntry[]) => formations.sort(([, a], [, b]) => b.points - a.points);

/** E6a: full-strength formations the Reserves can build, largest first, while the army stays within M. */
function raisable(state: CampaignState, player: string): string[] {
  const { catalogue, force } = state.setup!;
  const { chosen, points } = fill(
    { ...state.ledgers[player]!.reserves },
    largestFirst(ownFormations(catalogue, player)),
    force.maxArmyPoints,
  );
  return points >= MIN_ARMY_POINTS ? chosen : [];
}

/**
 * E6a with A6: a new army around one of the player's spare commanders, the most senior first: a formation holding a
 * unit of the commander's type, then the largest formations the Reserves build, within what the commander leads.
 */
function ledArmy(state: CampaignState, player: string): PlainCommand | undefined {
  const { catalogue, force } = state.setup!;
  const at = deploymentSquare(state, player);
  if (!at) return undefined;
  const own = largestFirst(ownFormations(catalogue, player));
  for (const spare of freeSpares(state, player)) {
    const pool = { ...state.ledgers[player]!.reserves };
    const limit = Math.min(force.maxArmyPoints, commandLimit(spare.level));
    const lead = own.find(([, f]) => (f.units[spare.unitType] ?? 0) > 0 && f.points <= limit && covers(pool, f.units));
    if (!lead) continue;
    take(pool, lead[1].units);
    const rest = fill(pool, own, limit - lead[1].points);
    if (lead[1].points + rest.points < MIN_ARMY_POINTS) continue;
    const formations = [lead[0], ...rest.chosen].map((formation, i) => ({ id: `f${i + 1}`, formation }));
    const count = Object.values(state.armies).filter((a) => a.player === player).length + 1;
    const command: PlainCommand = {
      actor: player,
      type: "RaiseArmy",
      army: `${player}-${count}`,
      name: `Reformed army ${count}`,
      formations,
      commander: { formation: "f1", unitType: spare.unitType },
      at,
    };
    if (allowed(state, command)) return command;
  }
  return undefined;
}

function deploymentSquare(state: CampaignState, player: string): Square | undefined {
  const home = state.homeBases[player];
  if (home && home.heldBy === player) return home.at;
  const { map, players } = state.setup!;
  const baseLine = players.find((p) => p.id === player)!.baseLine;
  const occupied = Object.values(state.armies)
    .filter((a) => a.status === "active" && a.at)
    .map((a) => a.at!);
  for (let y = 0; y < map.height; y++) {
    for (let x = 0; x < map.width; x++) {
      const square: Square = [x, y];
      if (rowsFromEdge(map, baseLine, square) === 0 && !occupied.some((o) => sameSquare(o, square))) return square;
    }
  }
  return undefined;
}

/**
 * The demo commanders' End phase: give a leaderless army a commander (A6), use the Reserves, spend the war chest
 * (A7, A8), then finish.
 */
export function nextEndPhaseCommand(state: CampaignState, player: string): PlainCommand {
  return (
    leaderlessArmyCommand(state, player) ??
    reservesCommand(state, player) ??
    warChestCommand(state, player) ?? { actor: player, type: "FinishEndPhase" }
  );
}

/** E5, E6: disband the spent, refill the depleted, replace the lost, raise new armies; nothing in turn 1. */
function reservesCommand(state: CampaignState, player: string): PlainCommand | undefined {
  if (state.turn < 2) return undefined;
  const { catalogue, force } = state.setup!;
  const reserves = state.ledgers[player]!.reserves;
  const armies = Object.values(state.armies).filter(
    (a): a is ArmyState => a.player === player && a.status === "active" && a.at !== null,
  );

  const spent = armies.find((a) => a.battles > 0 && a.points < 1500);
  if (spent && armies.length > 3) return { actor: player, type: "DisbandArmy", army: spent.id };

  for (const army of armies) {
    for (const formation of army.formations) {
      const full = catalogue.formations[formation.formation]!.units;
      const missing: Record<string, number> = {};
      for (const [type, count] of Object.entries(full))
        if ((formation.units[type] ?? 0) < count) missing[type] = count - (formation.units[type] ?? 0);
      const wiped = Object.values(formation.units).every((count) => count === 0);
      if (!wiped && Object.keys(missing).length > 0 && covers(reserves, missing)) {
        return { actor: player, type: "ReinforceFormation", army: army.id, formation: formation.id };
      }
      if (wiped) {
        // The rules have the last word (A6: within what the army's commander leads).
        const replace = (id: string): PlainCommand => ({
          actor: player,
          type: "ReplaceFormation",
          army: army.id,
          formation: formation.id,
          with: { id: `${formation.id}-r${state.turn}`, formation: id },
        });
        const replacement = ownFormations(catalogue, player).find(
          ([id, f]) =>
            id !== formation.formation &&
            covers(reserves, f.units) &&
            army.points + f.points <= force.maxArmyPoints &&
            allowed(state, replace(id)),
        );
        if (replacement) return replace(replacement[0]);
      }
    }
  }

  return armyFromReserves(state, player);
}

/** E6a (A6): a new army from the Reserves' full-strength formations, at the home base or on the base line. */
export function armyFromReserves(state: CampaignState, player: string): PlainCommand | undefined {
  if (state.turn < 2) return undefined;
  const { catalogue } = state.setup!;
  if (advancedRule(state.setup!.options, "commanders")) return ledArmy(state, player);
  const formations = raisable(state, player);
  const at = deploymentSquare(state, player);
  if (formations.length > 0 && at) {
    const roster = formations.map((formation, i) => ({ id: `f${i + 1}`, formation }));
    const hq =
      roster.find((f) =>
        Object.keys(catalogue.formations[f.formation]!.units).some((t) =>
          catalogue.unitTypes[t]!.abilities.includes("hq"),
        ),
      ) ?? roster[0]!;
    const unitTypes = Object.keys(catalogue.formations[hq.formation]!.units);
    const unitType = unitTypes.find((t) => catalogue.unitTypes[t]!.abilities.includes("hq")) ?? unitTypes[0]!;
    const count = Object.values(state.armies).filter((a) => a.player === player).length + 1;
    return {
      actor: player,
      type: "RaiseArmy",
      army: `${player}-${count}`,
      name: `Reformed army ${count}`,
      formations: roster,
      commander: { formation: hq.id, unitType },
      at,
    };
  }
  return undefined;
}
