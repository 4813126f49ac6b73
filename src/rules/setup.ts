import type { Square } from "../../events/common.js";
import { HOST, ORGANISER } from "../../events/common.js";
import type { DomainEvent } from "../../events/index.js";
import {
  chebyshev,
  inHalf,
  onMap,
  OPPOSITE_EDGE,
  rowsFromEdge,
  sameSquare,
  terrainAt,
} from "../../projections/grid.js";
import type { CampaignState, PlayerState } from "../../projections/state.js";
import type { CommandOf } from "../engine/command-schemas.js";
import { refuseField, refuseRule, sq } from "./refusal.js";
import { requirePlayer, requirePlayersArmy, requireSetup } from "./guards.js";
import { firstCommander } from "./commanders.js";
import { requireArmyRoster } from "./new-army.js";

export const OBJECTIVES_PER_PLAYER = 4;
const MIN_OBJECTIVE_SPACING = 3;

function requireHost(actor: string): void {
  if (actor !== HOST) refuseField("actor", `only the host may do this, not "${actor}"`);
}

function requireSetupPhase(state: CampaignState, rule: string, what: string): void {
  if (state.status !== "setup") refuseRule(rule, `${what} only during set-up, before turn 1`);
}

function requireOnMap(state: CampaignState, at: Square, field = "at"): void {
  const { map } = requireSetup(state);
  if (!onMap(map, at)) refuseField(field, `${sq(at)} is off the ${map.width}x${map.height} map`);
}

export function decideCreateCampaign(state: CampaignState, command: CommandOf<"CreateCampaign">): DomainEvent[] {
  requireHost(command.actor);
  if (state.status !== "new") refuseField("campaign", `campaign "${state.campaign}" already exists`);
  const { map, players, force, catalogue } = command;
  const options = command.options ?? {};

  if (map.terrain.length !== map.height)
    refuseRule("S1", `map.terrain has ${map.terrain.length} rows but height is ${map.height}`);
  map.terrain.forEach((row, y) => {
    if (row.length !== map.width)
      refuseRule("S1", `map.terrain row ${y} has ${row.length} squares but width is ${map.width}`);
  });
  const roads = new Set<string>();
  map.roads.forEach((road, i) => {
    if (!onMap(map, road)) refuseField(`map.roads[${i}]`, `${sq(road)} is off the ${map.width}x${map.height} map`);
    if (roads.has(String(road))) refuseField(`map.roads[${i}]`, `${sq(road)} is listed twice`);
    roads.add(String(road));
  });

  const [first, second] = players as [PlayerState, PlayerState];
  if (first.id === second.id) refuseField("players[1].id", `both players are called "${first.id}"`);
  players.forEach((player, i) => {
    if (player.id === HOST || player.id === ORGANISER)
      refuseField(`players[${i}].id`, `"${player.id}" is reserved for the organiser`);
  });
  if (OPPOSITE_EDGE[first.baseLine] !== second.baseLine) {
    refuseRule("S1", `base lines must be opposite edges of the map, not ${first.baseLine} and ${second.baseLine}`);
  }
  const northSouth = first.baseLine === "north" || first.baseLine === "south";
  if (map.width !== map.height && northSouth !== map.width > map.height) {
    refuseRule(
      "S1",
      `base lines must be the long edges: on a ${map.width}x${map.height} map that is ${map.width > map.height ? "north and south" : "east and west"}`,
    );
  }

  if (options.armySize !== undefined && options.armySize > force.maxArmyPoints) {
    refuseRule("S2", `options.armySize ${options.armySize} is larger than the largest army M = ${force.maxArmyPoints}`);
  }

  for (const [id, formation] of Object.entries(catalogue.formations)) {
    const unitTypes = Object.entries(formation.units);
    if (unitTypes.length === 0) refuseRule("S8", `catalogue formation "${id}" has no units`);
    for (const [unitType, count] of unitTypes) {
      if (!catalogue.unitTypes[unitType])
        refuseRule(
          "S8",
          `catalogue formation "${id}" lists unit type "${unitType}", which the catalogue does not define`,
        );
      if (count < 1)
        refuseRule(
          "S8",
          `catalogue formation "${id}" lists ${count} of "${unitType}": full strength needs at least one`,
        );
    }
  }

  return [
    {
      type: "CampaignCreated",
      data: { campaign: command.campaign, name: command.name, map, players, force, options, catalogue },
    },
  ];
}

export function decideRegisterArmy(state: CampaignState, command: CommandOf<"RegisterArmy">): DomainEvent[] {
  const setup = requireSetup(state);
  const player = requirePlayer(state, command.actor);
  requireSetupPhase(state, "E6", "armies are registered this way");
  const formations = requireArmyRoster(state, setup, command);
  const fielded = Object.values(state.armies).filter((army) => army.player === player.id).length;
  if (fielded >= setup.force.armies) refuseRule("S2", `${player.id} already has N = ${setup.force.armies} armies`);

  const registered = {
    army: command.army,
    player: player.id,
    name: command.name,
    formations,
    commander: command.commander,
  };
  return [{ type: "ArmyRegistered", data: registered }, ...firstCommander(setup, registered, command.commander)];
}

/** S6: no two objectives (COMs and home bases alike) within two squares of one another. */
function requireSpacing(state: CampaignState, at: Square): void {
  const others = [
    ...Object.values(state.objectives).map((o) => ({ what: `objective "${o.id}"`, at: o.at })),
    ...Object.values(state.homeBases).map((h) => ({ what: `${h.player}'s home base`, at: h.at })),
  ];
  for (const other of others) {
    if (chebyshev(other.at, at) < MIN_OBJECTIVE_SPACING) {
      refuseRule("S6", `${sq(at)} is within two squares of ${other.what} at ${sq(other.at)}`);
    }
  }
}

export function decidePlaceHomeBase(state: CampaignState, command: CommandOf<"PlaceHomeBase">): DomainEvent[] {
  const setup = requireSetup(state);
  const player = requirePlayer(state, command.actor);
  requireSetupPhase(state, "S6", "home bases are placed");
  requireOnMap(state, command.at);
  if (state.homeBases[player.id]) refuseRule("S6", `${player.id} already has a home base`);
  if (rowsFromEdge(setup.map, player.baseLine, command.at) > 1) {
    refuseRule(
      "S6",
      `a home base goes on its owner's base line (${player.baseLine}) or one row in; ${sq(command.at)} is further in`,
    );
  }
  requireSpacing(state, command.at);
  return [{ type: "HomeBasePlaced", data: { player: player.id, at: command.at } }];
}

/** The first "<player>-com<n>" from n on that no objective has taken. */
function freeObjectiveId(state: CampaignState, player: string, n: number): string {
  while (state.objectives[`${player}-com${n}`]) n++;
  return `${player}-com${n}`;
}

export function decidePlaceObjective(state: CampaignState, command: CommandOf<"PlaceObjective">): DomainEvent[] {
  const setup = requireSetup(state);
  const player = requirePlayer(state, command.actor);
  requireSetupPhase(state, "S6", "objectives are placed");
  requireOnMap(state, command.at);
  const placed = Object.values(state.objectives).filter((o) => o.placedBy === player.id).length;
  if (placed >= OBJECTIVES_PER_PLAYER)
    refuseRule("S6", `${player.id} has already placed its ${OBJECTIVES_PER_PLAYER} objectives`);
  const opponent = setup.players.find((p) => p.id !== player.id)!;
  if (!inHalf(setup.map, opponent.baseLine, command.at)) {
    refuseRule(
      "S6",
      `objectives go in the opponent's half (${opponent.id}, ${opponent.baseLine}); ${sq(command.at)} is not in it`,
    );
  }
  const terrain = terrainAt(setup.map, command.at);
  if (terrain === "plains")
    refuseRule("S6", `objectives go on terrain of some note, not plains: ${sq(command.at)} is plains`);
  requireSpacing(state, command.at);
  const objective = command.objective ?? freeObjectiveId(state, player.id, placed + 1);
  if (state.objectives[objective]) refuseField("objective", `objective "${objective}" already exists`);
  return [{ type: "ObjectivePlaced", data: { objective, placedBy: player.id, at: command.at } }];
}

export function decideDeployArmy(state: CampaignState, command: CommandOf<"DeployArmy">): DomainEvent[] {
  const setup = requireSetup(state);
  const player = requirePlayer(state, command.actor);
  requireSetupPhase(state, "S7", "armies deploy");
  const army = requirePlayersArmy(state, player, command.army);
  requireOnMap(state, command.at);
  const homeBase = state.homeBases[player.id];
  const onHomeBase = homeBase !== undefined && sameSquare(homeBase.at, command.at);
  if (!onHomeBase && rowsFromEdge(setup.map, player.baseLine, command.at) !== 0) {
    refuseRule(
      "S7",
      `armies deploy on their owner's base line (${player.baseLine}) or home base; ${sq(command.at)} is neither`,
    );
  }
  if (!onHomeBase) {
    const occupant = Object.values(state.armies).find(
      (other) => other.id !== army.id && other.at && sameSquare(other.at, command.at),
    );
    if (occupant)
      refuseRule("S7", `${sq(command.at)} already holds army "${occupant.id}": armies stack only on a home base`);
  }
  return [{ type: "ArmyDeployed", data: { army: army.id, at: command.at } }];
}

export function decideStartCampaign(state: CampaignState, command: CommandOf<"StartCampaign">): DomainEvent[] {
  const setup = requireSetup(state);
  requireHost(command.actor);
  requireSetupPhase(state, "T1", "the campaign starts");
  for (const player of setup.players) {
    if (!state.homeBases[player.id]) refuseRule("S6", `${player.id} has not placed its home base`);
    const placed = Object.values(state.objectives).filter((o) => o.placedBy === player.id).length;
    if (placed !== OBJECTIVES_PER_PLAYER)
      refuseRule("S6", `${player.id} has placed ${placed} of its ${OBJECTIVES_PER_PLAYER} objectives`);
    const armies = Object.values(state.armies).filter((a) => a.player === player.id);
    if (armies.length !== setup.force.armies)
      refuseRule(
        "S2",
        `${player.id} has ${armies.length} armies; the campaign was agreed at N = ${setup.force.armies}`,
      );
    const undeployed = armies.find((a) => a.at === null);
    if (undeployed) refuseRule("S7", `army "${undeployed.id}" of ${player.id} has not deployed`);
  }
  return [{ type: "CampaignStarted", data: { turn: 1 } }];
}
