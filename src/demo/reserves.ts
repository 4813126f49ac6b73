import type { Catalogue, Square } from "../../events/common.js";
import { rowsFromEdge, sameSquare } from "../../projections/derived.js";
import type { ArmyState, CampaignState } from "../../projections/state.js";
import type { PlainCommand } from "./strategy.js";

/** The catalogue formations a player fields: those named after it, or all when none are. */
function ownFormations(catalogue: Catalogue, player: string): Array<[string, Catalogue["formations"][string]]> {
  const all = Object.entries(catalogue.formations);
  const own = all.filter(([id]) => id.startsWith(`${player}-`));
  return own.length > 0 ? own : all;
}

function covers(pool: Record<string, number>, units: Record<string, number>): boolean {
  return Object.entries(units).every(([type, count]) => (pool[type] ?? 0) >= count);
}

function take(pool: Record<string, number>, units: Record<string, number>): void {
  for (const [type, count] of Object.entries(units)) pool[type] = (pool[type] ?? 0) - count;
}

/** E6a: full-strength formations the Reserves can build, largest first, while the army stays within M. */
function raisable(state: CampaignState, player: string): string[] {
  const { catalogue, force } = state.setup!;
  const pool = { ...state.ledgers[player]!.reserves };
  const chosen: string[] = [];
  let points = 0;
  for (const [id, formation] of ownFormations(catalogue, player).sort(([, a], [, b]) => b.points - a.points)) {
    while (covers(pool, formation.units) && points + formation.points <= force.maxArmyPoints) {
      take(pool, formation.units);
      chosen.push(id);
      points += formation.points;
    }
  }
  return points >= 1000 ? chosen : [];
}

function deploymentSquare(state: CampaignState, player: string): Square | undefined {
  const home = state.homeBases[player];
  if (home && home.heldBy === player) return home.at;
  const { map, players } = state.setup!;
  const baseLine = players.find((p) => p.id === player)!.baseLine;
  const occupied = Object.values(state.armies).filter((a) => a.status === "active" && a.at).map((a) => a.at!);
  for (let y = 0; y < map.height; y++) {
    for (let x = 0; x < map.width; x++) {
      const square: Square = [x, y];
      if (rowsFromEdge(map, baseLine, square) === 0 && !occupied.some((o) => sameSquare(o, square))) return square;
    }
  }
  return undefined;
}

/** The demo commanders' End phase: disband the spent, refill the depleted, replace the lost, raise new armies. */
export function nextEndPhaseCommand(state: CampaignState, player: string): PlainCommand {
  const finish: PlainCommand = { actor: player, type: "FinishEndPhase" };
  if (state.turn < 2) return finish;
  const { catalogue, force } = state.setup!;
  const reserves = state.ledgers[player]!.reserves;
  const armies = Object.values(state.armies).filter((a): a is ArmyState => a.player === player && a.status === "active" && a.at !== null);

  const spent = armies.find((a) => a.battles > 0 && a.points < 1500);
  if (spent && armies.length > 3) return { actor: player, type: "DisbandArmy", army: spent.id };

  for (const army of armies) {
    for (const formation of army.formations) {
      const full = catalogue.formations[formation.formation]!.units;
      const missing: Record<string, number> = {};
      for (const [type, count] of Object.entries(full)) if ((formation.units[type] ?? 0) < count) missing[type] = count - (formation.units[type] ?? 0);
      const wiped = Object.values(formation.units).every((count) => count === 0);
      if (!wiped && Object.keys(missing).length > 0 && covers(reserves, missing)) {
        return { actor: player, type: "ReinforceFormation", army: army.id, formation: formation.id };
      }
      if (wiped) {
        const replacement = ownFormations(catalogue, player).find(
          ([id, f]) => id !== formation.formation && covers(reserves, f.units) && army.points + f.points <= force.maxArmyPoints,
        );
        if (replacement) {
          return { actor: player, type: "ReplaceFormation", army: army.id, formation: formation.id, with: { id: `${formation.id}-r${state.turn}`, formation: replacement[0] } };
        }
      }
    }
  }

  const formations = raisable(state, player);
  const at = deploymentSquare(state, player);
  if (formations.length > 0 && at) {
    const roster = formations.map((formation, i) => ({ id: `f${i + 1}`, formation }));
    const hq = roster.find((f) => Object.keys(catalogue.formations[f.formation]!.units).some((t) => catalogue.unitTypes[t]!.abilities.includes("hq"))) ?? roster[0]!;
    const unitTypes = Object.keys(catalogue.formations[hq.formation]!.units);
    const unitType = unitTypes.find((t) => catalogue.unitTypes[t]!.abilities.includes("hq")) ?? unitTypes[0]!;
    const count = Object.values(state.armies).filter((a) => a.player === player).length + 1;
    return { actor: player, type: "RaiseArmy", army: `${player}-${count}`, name: `Reformed army ${count}`, formations: roster, commander: { formation: hq.id, unitType }, at };
  }
  return finish;
}
