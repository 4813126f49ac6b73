/**
 * What the leak-proof tests search a viewer's outputs for, and how: the secrets the parties were given (recorded as
 * they keep them), the commanders and their fates as the events tell them, and the points fields fog of war (A2) hides.
 * Shared by the views' property (test/views.test.ts) and the server's (test/server/leak-proof.test.ts).
 */
import type { Commander } from "../../events/common.js";
import type { CurrentEvent } from "../../events/index.js";
import type { CampaignState } from "../../projections/state.js";
import { MemorySecrets, type HeldOrder } from "../../src/client/secrets.js";
import { HIDDEN } from "../../src/views/view.js";

/** MemorySecrets that also lists every secret it was given, for the test to search the views for. */
export class RecordingSecrets extends MemorySecrets {
  readonly orders: Array<{ player: string; turn: number; army: string } & HeldOrder> = [];
  readonly hostSeeds: Array<{ turn: number; seed: string }> = [];
  readonly playerSeeds: Array<{ player: string; turn: number; seed: string }> = [];
  override async keepOrder(player: string, turn: number, army: string, held: HeldOrder) {
    this.orders.push({ player, turn, army, ...held });
    return super.keepOrder(player, turn, army, held);
  }
  override async keepHostSeed(turn: number, seed: string) {
    this.hostSeeds.push({ turn, seed });
    return super.keepHostSeed(turn, seed);
  }
  override async keepPlayerSeed(player: string, turn: number, seed: string) {
    this.playerSeeds.push({ player, turn, seed });
    return super.keepPlayerSeed(player, turn, seed);
  }
}

/** A commander formation id that is found nowhere else: the army's formation holding the commander, renamed. */
const commanderFormationId = (army: string) => `cmd-${army}-7f3a`;

/** Renames the commander's formation of an army (of a set-up file, or a RaiseArmy) to its unique id. */
export function uniqueCommander<C extends { formations: Array<{ id: string }>; commander: Commander }>(
  army: string,
  roster: C,
): C {
  const id = commanderFormationId(army);
  return {
    ...roster,
    formations: roster.formations.map((f) => (f.id === roster.commander.formation ? { ...f, id } : f)),
    commander: { ...roster.commander, formation: id },
  };
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** How a commander shows in JSON, compact or pretty-printed, either key order. */
export const commanderTokens = (c: Commander): RegExp[] => {
  const formation = `"formation":\\s*"${escape(c.formation)}"`;
  const unitType = `"unitType":\\s*"${escape(c.unitType)}"`;
  return [new RegExp(`${formation},\\s*${unitType}`), new RegExp(`${unitType},\\s*${formation}`)];
};

/**
 * The test's own account of who commands what and who is dead, from the events (independent of src/views*): unit
 * counts by formation through registrations, battle losses, reinforcements, replacements and break-downs; a commander
 * dies when a BattleResolved leaves no unit of its type in its formation.
 */
export function commanderFates(
  events: readonly CurrentEvent[],
): Map<string, { player: string; commander: Commander; killed: boolean }> {
  const fates = new Map<string, { player: string; commander: Commander; killed: boolean }>();
  const counts = new Map<string, Map<string, Record<string, number>>>();
  const battles = new Map<string, [string, string]>();
  for (const event of events) {
    switch (event.type) {
      case "ArmyRegistered":
      case "ArmyRaised":
        fates.set(event.data.army, { player: event.data.player, commander: event.data.commander, killed: false });
        counts.set(event.data.army, new Map(event.data.formations.map((f) => [f.id, { ...f.units }])));
        break;
      case "BattleStarted":
        battles.set(event.data.battle, [event.data.attacker, event.data.defender]);
        break;
      case "BattleResolved": {
        const [attacker, defender] = battles.get(event.data.battle)!;
        for (const [army, result] of [
          [attacker, event.data.result.attacker],
          [defender, event.data.result.defender],
        ] as const) {
          const formations = counts.get(army)!;
          for (const [id, lost] of Object.entries(result.losses)) {
            const units = formations.get(id)!;
            for (const [type, n] of Object.entries(lost)) units[type] = (units[type] ?? 0) - n;
          }
          const fate = fates.get(army)!;
          if ((formations.get(fate.commander.formation)?.[fate.commander.unitType] ?? 0) <= 0) fate.killed = true;
        }
        break;
      }
      case "FormationReinforced": {
        const units = counts.get(event.data.army)!.get(event.data.formation)!;
        for (const [type, n] of Object.entries(event.data.units)) units[type] = (units[type] ?? 0) + n;
        break;
      }
      case "FormationReplaced":
        counts.get(event.data.army)!.delete(event.data.replaced);
        counts.get(event.data.army)!.set(event.data.formation.id, { ...event.data.formation.units });
        break;
      case "FormationsBrokenDown":
        for (const id of event.data.formations) counts.get(event.data.army)!.delete(id);
        break;
      default:
    }
  }
  return fates;
}

/**
 * A2: the fields whose numbers are an army's points or sums that tell them (a battle's size, what a purchase cost, the
 * war chest that paid for it). Searched for by name, so that a number that merely equals some army's points (a VP
 * count, a square) is no false alarm.
 */
const POINTS_FIELDS = new Set([
  "points",
  "averagePoints",
  "vpTarget",
  "cost",
  "balance",
  "change",
  "floorCut",
  "warChest",
]);

/** Every points field in a JSON value not shown HIDDEN, by path; a part HIDDEN whole is not entered. */
export function shownPointsFields(value: unknown, path: string[] = []): string[][] {
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, inner]) => [
    ...(POINTS_FIELDS.has(key) && inner !== HIDDEN ? [[...path, key]] : []),
    ...shownPointsFields(inner, [...path, key]),
  ]);
}

/**
 * A2: whether a points field of a player's state view may be shown to it under fog of war: the set-up (catalogue and
 * force, agreed by both), its own armies and ledger, and a battle's sizes once it is on the table (from the Battle
 * phase of its turn), its own side's before. A battle the state no longer holds is judged by the turn the view gives it
 * (`view`): a settled battle, of a turn before the state's, was fought on the table.
 */
export function statePointsShown(
  state: CampaignState,
  viewer: string,
  [part, key, side]: string[],
  view: { battles?: Record<string, { turn?: unknown }> } = {},
): boolean {
  if (
    part === "setup" ||
    (part === "armies" && state.armies[key!]?.player === viewer) ||
    (part === "ledgers" && key === viewer)
  )
    return true;
  if (part !== "battles") return false;
  const battle = state.battles[key!];
  if (!battle) {
    const turn = view.battles?.[key!]?.turn;
    return typeof turn === "number" && turn < state.turn;
  }
  if (battle.turn < state.turn || state.phase !== "action") return true;
  return (side === "attacker" || side === "defender") && battle[side].player === viewer;
}

/**
 * A2: the event types whose points are public under fog of war: the set-up, a size stated to a scout (A3), defences
 * that stand on the map, off-table support from the price list (A7), and what a battle fought on the table shows.
 */
export const PUBLIC_POINTS_EVENTS = new Set([
  "CampaignCreated",
  "ArmySizeStated",
  "DefencesBuilt",
  "DefencesPurchased",
  "SupportPurchased",
  "BattleResultReported",
  "BattleResolved",
  "TitanDamageCarried",
]);
