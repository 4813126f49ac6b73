import type { Square } from "../../events/common.js";
import { rowsFromEdge, sameSquare } from "../../projections/grid.js";
import type { ArmyState, CampaignState } from "../../projections/state.js";
import { allowed } from "../demo/legal.js";
import { armyFromReserves } from "../demo/reserves.js";
import type { PlainCommand } from "../demo/plain-command.js";
import { aroundHomeBase } from "../demo/war-chest.js";
import { distanceToWanted, wantedSquares } from "./wanted-squares.js";

/** End phase choices the searching level weighs at most, the scripted one among them. */
const END_PHASE_CANDIDATES = 6;
/** Squares kept as candidates for a new army: the ones nearest a square the player wants. */
const PLACEMENTS = 3;

/** The End phase choices (E5, E6, A6-A8) the searching level weighs against the scripted one. */
const END_PHASE_CHOICES = new Set([
  "ReinforceFormation",
  "ReplaceFormation",
  "RaiseArmy",
  "BuyArmy",
  "BuyFormations",
  "BuyDefences",
  "BuySupport",
  "RepairTitan",
  "DisbandArmy",
  "FinishEndPhase",
]);

/**
 * The scripted End phase choice first, then the alternatives the rules accept now: the Reserves or the war chest kept
 * for a later turn (the End phase finished), another depleted formation brought back to full strength first (E6b),
 * and a new army placed elsewhere (E6a, A8), on the squares nearest an objective or home base the player wants.
 * Only the scripted choice where it is none of these (a commander appointed, A6).
 */
export function endPhaseCandidates(state: CampaignState, scripted: PlainCommand): PlainCommand[] {
  if (!END_PHASE_CHOICES.has(scripted.type)) return [scripted];
  const player = scripted.actor;
  // A new army takes the Reserves' units onto the map, where a depleted formation brought back keeps its points (S8).
  const raised = scripted.type === "RaiseArmy" ? undefined : armyFromReserves(state, player);
  const alternatives = [
    { actor: player, type: "FinishEndPhase" },
    ...placements(state, scripted),
    ...(raised ? [raised, ...placements(state, raised)] : []),
    ...reinforcements(state, player),
  ];
  const seen = new Set([JSON.stringify(scripted)]);
  const candidates = [scripted];
  for (const command of alternatives) {
    if (candidates.length >= END_PHASE_CANDIDATES) break;
    const key = JSON.stringify(command);
    if (seen.has(key) || !allowed(state, command)) continue;
    seen.add(key);
    candidates.push(command);
  }
  return candidates;
}

/** E6b: each depleted formation (not wiped out) of the player's armies on the map, brought back to full strength. */
function reinforcements(state: CampaignState, player: string): PlainCommand[] {
  const { catalogue } = state.setup!;
  return ownArmies(state, player).flatMap((army) =>
    army.formations
      .filter((formation) => {
        const full = catalogue.formations[formation.formation]!.units;
        const units = Object.values(formation.units);
        const depleted = Object.entries(full).some(([type, count]) => (formation.units[type] ?? 0) < count);
        return depleted && units.some((count) => count > 0);
      })
      .map((formation) => ({ actor: player, type: "ReinforceFormation", army: army.id, formation: formation.id })),
  );
}

/** The scripted new army (E6a, A8) on the other squares it may take, those nearest a square the player wants first. */
function placements(state: CampaignState, scripted: PlainCommand): PlainCommand[] {
  if (scripted.type !== "RaiseArmy" && scripted.type !== "BuyArmy") return [];
  const at = scripted["at"] as Square;
  const wanted = wantedSquares(state, scripted.actor);
  const squares = (
    scripted.type === "RaiseArmy" ? baseLine(state, scripted.actor) : aroundHomeBase(state, scripted.actor)
  )
    .filter((square) => !sameSquare(square, at))
    .sort((a, b) => distanceToWanted(wanted, a) - distanceToWanted(wanted, b));
  const placed: PlainCommand[] = [];
  for (const square of squares) {
    if (placed.length >= PLACEMENTS) break;
    const command = { ...scripted, at: square };
    if (allowed(state, command)) placed.push(command);
  }
  return placed;
}

/** E6a: the player's base line, and its home base while it holds it. */
function baseLine(state: CampaignState, player: string): Square[] {
  const { map, players } = state.setup!;
  const edge = players.find((p) => p.id === player)!.baseLine;
  const squares: Square[] = [];
  for (let y = 0; y < map.height; y++)
    for (let x = 0; x < map.width; x++) if (rowsFromEdge(map, edge, [x, y]) === 0) squares.push([x, y]);
  const home = state.homeBases[player];
  return home?.heldBy === player ? [home.at, ...squares] : squares;
}

const ownArmies = (state: CampaignState, player: string): ArmyState[] =>
  Object.values(state.armies).filter((a) => a.player === player && a.status === "active" && a.at !== null);
