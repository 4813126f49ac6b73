import type { Commander, RosterFormation } from "../../events/common.js";
import type { DomainEvent } from "../../events/index.js";
import { advancedRule } from "../../projections/advanced.js";
import { armyPoints } from "../../projections/units.js";
import { commanderFell, ownersCommander } from "../../projections/commanders.js";
import type { ArmyState, BattleState, CampaignSetup, CampaignState, SpareCommander } from "../../projections/state.js";
import type { CommandOf } from "../engine/command-schemas.js";
import { requireEndPhasePlayer, requireOwnArmy } from "./guards.js";
import { pts, refuseField, refuseRule } from "./refusal.js";
import { requireSetup } from "./guards.js";

/**
 * A6 Commanders. The chain of command: standard unit, HQ unit, then Commander levels 1 to 5; level n leads armies of
 * up to 2,000 x n points, level 5 any army. A commander rises one level for every two battles it survives. Every army
 * on the map needs a commander able to lead it; a player fields only as many armies as it has commanders.
 *
 * Only commanders are tracked one by one: a unit that is not a commander is taken to have survived every battle its
 * army has fought (docs/rulings.md, A6).
 */

const POINTS_PER_LEVEL = 2000;
const TOP_LEVEL = 5;
/** Battles survived for each step up the chain of command. */
const BATTLES_PER_RANK = 2;

/** An army about to be registered or raised; its commander comes from the command. */
interface NewArmy {
  army: string;
  player: string;
  formations: readonly RosterFormation[];
}

export function commandersInPlay(setup: CampaignSetup): boolean {
  return advancedRule(setup.options, "commanders");
}

/** The largest army a commander of this level leads (level 5: any). */
export function commandLimit(level: number): number {
  return level >= TOP_LEVEL ? Infinity : level * POINTS_PER_LEVEL;
}

/** The lowest level able to lead an army of these points. */
export function lowestLevelFor(points: number): number {
  return Math.min(TOP_LEVEL, Math.max(1, Math.ceil(points / POINTS_PER_LEVEL)));
}

function describeLimit(level: number): string {
  return level >= TOP_LEVEL
    ? `Commander level ${level} (any army)`
    : `Commander level ${level} (armies up to ${pts(commandLimit(level))} points)`;
}

/** The seed's commanders are HQ units or the command crew of a titan: both start one step up the chain. */
function isHqUnit(setup: CampaignSetup, unitType: string): boolean {
  const abilities = setup.catalogue.unitTypes[unitType]?.abilities ?? [];
  return abilities.includes("hq") || abilities.includes("titan");
}

function requireHqUnit(setup: CampaignSetup, commander: Commander, army: string): void {
  if (!isHqUnit(setup, commander.unitType)) {
    refuseRule(
      "A6",
      `army "${army}"'s commander must be an HQ unit or a titan's command crew; "${commander.unitType}" is neither`,
    );
  }
}

/**
 * Set-up (S8 with A6): the commander of an army registered before turn 1 is an HQ unit or titan and starts at the
 * lowest level that can lead the army.
 */
export function firstCommander(setup: CampaignSetup, army: NewArmy, commander: Commander): DomainEvent[] {
  if (!commandersInPlay(setup)) return [];
  requireHqUnit(setup, commander, army.army);
  const level = lowestLevelFor(armyPoints(army.formations, setup.catalogue));
  return [{ type: "CommanderAppointed", data: { turn: 0, army: army.army, player: army.player, commander, level } }];
}

/**
 * E6a with A6: a new army is led by one of the player's spare commanders of the named unit type whose level covers the
 * army; the lowest such level is taken, keeping the stronger for larger armies.
 */
export function spareCommanderFor(
  state: CampaignState,
  setup: CampaignSetup,
  army: NewArmy,
  commander: Commander,
): DomainEvent[] {
  if (!commandersInPlay(setup)) return [];
  const spares = state.ledgers[army.player]?.spareCommanders ?? [];
  if (spares.length === 0) {
    refuseRule(
      "A6",
      `${army.player} has no spare commander to lead new army "${army.army}": a player fields only as many armies as it has commanders`,
    );
  }
  const ofType = spares.filter((spare) => spare.unitType === commander.unitType);
  if (ofType.length === 0) {
    refuseRule(
      "A6",
      `${army.player} has no spare commander who is a "${commander.unitType}" (spares: ${spares.map(describeSpare).join(", ")})`,
    );
  }
  const points = armyPoints(army.formations, setup.catalogue);
  const able = ofType.filter((spare) => commandLimit(spare.level) >= points).sort((a, b) => a.level - b.level);
  const chosen = able[0];
  if (!chosen) {
    const best = Math.max(...ofType.map((spare) => spare.level));
    refuseRule(
      "A6",
      `new army "${army.army}" is ${pts(points)} points; ${army.player}'s best spare "${commander.unitType}" is ${describeLimit(best)}`,
    );
  }
  return [
    {
      type: "CommanderAppointed",
      data: {
        turn: state.turn,
        army: army.army,
        player: army.player,
        commander,
        level: chosen.level,
        formerArmy: chosen.army,
      },
    },
  ];
}

function describeSpare(spare: SpareCommander): string {
  return `a level ${spare.level} "${spare.unitType}" from army "${spare.army}"`;
}

/** E5, E6 with A6: an army with a commander may not grow past what its commander can lead. */
export function requireCommandCovers(
  setup: CampaignSetup,
  army: ArmyState,
  formations: readonly RosterFormation[],
  what: string,
): void {
  if (!commandersInPlay(setup) || typeof army.commanderLevel !== "number") return;
  const points = armyPoints(formations, setup.catalogue);
  if (points > commandLimit(army.commanderLevel)) {
    refuseRule(
      "A6",
      `${what} would make army "${army.id}" ${pts(points)} points, more than its ${describeLimit(army.commanderLevel)} can lead`,
    );
  }
}

/**
 * After a resolved battle, on the state with its losses taken (before any rout empties the roster): each side's
 * commander is either killed (revealed), or survived and rises a level at every second battle; an army routed with its
 * commander alive (`aftermath`: the battle's B5 events) sends the commander to the spares.
 */
export function commandersAfterBattle(
  state: CampaignState,
  battle: BattleState,
  aftermath: readonly DomainEvent[],
): DomainEvent[] {
  const setup = requireSetup(state);
  if (!commandersInPlay(setup)) return [];
  const routed = new Set(aftermath.flatMap((event) => (event.type === "ArmyRouted" ? [event.data.army] : [])));
  const events: DomainEvent[] = [];
  for (const side of [battle.attacker, battle.defender]) {
    const army = state.armies[side.army]!;
    if (typeof army.commanderLevel !== "number") continue;
    const base = { turn: state.turn, army: army.id, player: army.player };
    const commander = ownersCommander(army);
    if (commanderFell(army)) {
      events.push({ type: "CommanderKilled", data: { ...base, battle: battle.id, commander } });
      continue;
    }
    let level = army.commanderLevel;
    if (army.battles % BATTLES_PER_RANK === 0 && level < TOP_LEVEL) {
      level += 1;
      events.push({ type: "CommanderPromoted", data: { ...base, battle: battle.id, commander, level } });
    }
    if (routed.has(army.id)) events.push({ type: "CommanderStoodDown", data: { ...base, commander, level } });
  }
  return events;
}

/** E5 with A6: a disbanded army's living commander joins the spares. */
export function commanderOfDisbandedArmy(state: CampaignState, army: ArmyState): DomainEvent[] {
  if (!commandersInPlay(requireSetup(state)) || typeof army.commanderLevel !== "number") return [];
  const data = {
    turn: state.turn,
    army: army.id,
    player: army.player,
    commander: ownersCommander(army),
    level: army.commanderLevel,
  };
  return [{ type: "CommanderStoodDown", data }];
}

/** The rank a unit of the army has reached: 0 standard unit, 1 HQ unit, 2 and up Commander level (rank - 1). */
function rankOf(setup: CampaignSetup, army: ArmyState, unitType: string): number {
  return (isHqUnit(setup, unitType) ? 1 : 0) + Math.floor(army.battles / BATTLES_PER_RANK);
}

function describeRank(rank: number): string {
  if (rank === 0) return "a standard unit";
  if (rank === 1) return "an HQ unit";
  return `Commander level ${rank - 1}`;
}

/** A6: in the End phase, an army whose commander was killed is given a new one from its own surviving units. */
export function decideAppointCommander(state: CampaignState, command: CommandOf<"AppointCommander">): DomainEvent[] {
  const setup = requireSetup(state);
  if (!commandersInPlay(setup)) refuseRule("A6", "this campaign does not play the Commanders rule (A6)");
  const player = requireEndPhasePlayer(state, command.actor, "A6", "a new commander is appointed");
  const army = requireOwnArmy(state, player, command.army, "A6");
  if (army.commanderLevel !== null) refuseRule("A6", `army "${army.id}" already has a commander`);
  const { formation: formationId, unitType } = command.commander;
  const formation = army.formations.find((f) => f.id === formationId);
  if (!formation) refuseField("commander.formation", `army "${army.id}" has no formation "${formationId}"`);
  if ((formation.units[unitType] ?? 0) < 1) {
    refuseRule(
      "A6",
      `a new commander must be a surviving unit of the army: formation "${formationId}" has no "${unitType}" left`,
    );
  }
  const rank = Math.min(rankOf(setup, army, unitType), TOP_LEVEL + 1);
  const battles = `after the army's ${army.battles} battle${army.battles === 1 ? "" : "s"}`;
  if (rank < 2)
    refuseRule("A6", `"${unitType}" of "${formationId}" is ${describeRank(rank)} ${battles}, not a commander`);
  const level = rank - 1;
  if (commandLimit(level) < army.points) {
    refuseRule(
      "A6",
      `"${unitType}" of "${formationId}" is ${describeLimit(level)} ${battles}: it cannot lead army "${army.id}" of ${pts(army.points)} points (break formations down, or disband the army)`,
    );
  }
  return [
    {
      type: "CommanderAppointed",
      data: { turn: state.turn, army: army.id, player: player.id, commander: command.commander, level },
    },
  ];
}

/** A6: a player may not finish its End phase while one of its armies on the map has no commander. */
export function requireEveryArmyLed(state: CampaignState, player: string): void {
  if (!commandersInPlay(requireSetup(state))) return;
  const leaderless = Object.values(state.armies).find(
    (army) => army.player === player && army.status === "active" && army.commanderLevel === null,
  );
  if (leaderless) {
    refuseRule(
      "A6",
      `army "${leaderless.id}" has no commander since its commander was killed: appoint a new one (AppointCommander) or disband the army before finishing the End phase`,
    );
  }
}
