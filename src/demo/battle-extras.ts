import type { SideResult, SupportUse, TitanDamage } from "../../events/common.js";
import { advancedRule } from "../../projections/advanced.js";
import { SUPPORT_PRICES, usableInTurn } from "../../projections/support.js";
import type { ArmyState, BattleState, CampaignState } from "../../projections/state.js";
import { seededRandom } from "./rng.js";

/**
 * The advanced rules in the demo's scripted battles: off-table support each side calls in (A7), which tilts the
 * battle its way, and the damage its titans take (A8), which the war chest must pay to repair. Drawn from a stream of
 * their own, so that battles without them come out as they always did.
 */

/** Weapons the demo's titans lose, with made-up chart costs: the catalogue lists no weapons. */
const TITAN_WEAPONS = [
  { name: "volcano cannon", points: 100 },
  { name: "plasma destructor", points: 150 },
  { name: "gatling blaster", points: 50 },
  { name: "missile launcher", points: 75 },
] as const;
/** How much each item called in adds to its side's chances. */
const SUPPORT_EDGE = 0.06;
/** The battle turns the demo's battles last. */
const BATTLE_TURNS = 3;

type Role = "attacker" | "defender";

export interface SideExtras {
  /** Multiplies the side's score: 1 without support. */
  edge: number;
  support: SupportUse[];
}

/** A7: the items a side calls in: each usable one now and then, a barrage in one or more battle turns, a one-shot in one. */
function supportCalledIn(
  state: CampaignState,
  battle: BattleState,
  player: string,
  random: () => number,
): SupportUse[] {
  if (!advancedRule(state.setup!.options, "offTableSupport")) return [];
  return state.ledgers[player]!.artillery.filter((item) => usableInTurn(item, battle.turn) && random() < 0.7).map(
    (item) => {
      const first = 1 + Math.floor(random() * BATTLE_TURNS);
      if (SUPPORT_PRICES[item.kind].use === "oneShot") return { item: item.id, turns: [first] };
      const turns = Array.from({ length: BATTLE_TURNS - first + 1 }, (_, i) => first + i);
      return { item: item.id, turns };
    },
  );
}

/** What each side of the battle calls in, and how much it helps. */
export function battleExtras(state: CampaignState, battle: BattleState): Record<Role, SideExtras> {
  const random = seededRandom(`${state.campaign}/${battle.id}/advanced`);
  const side = (role: Role): SideExtras => {
    const support = supportCalledIn(state, battle, battle[role].player, random);
    return { edge: 1 + SUPPORT_EDGE * support.length, support };
  };
  return { attacker: side("attacker"), defender: side("defender") };
}

/** A8: now and then, a titan of the army that survived the battle comes out with shields down and a weapon lost. */
export function titanDamage(
  state: CampaignState,
  battle: BattleState,
  army: ArmyState,
  losses: SideResult["losses"],
): Record<string, TitanDamage> {
  if (!advancedRule(state.setup!.options, "warChest")) return {};
  const random = seededRandom(`${state.campaign}/${battle.id}/${army.id}/titans`);
  const { formations } = state.setup!.catalogue;
  const damage: Record<string, TitanDamage> = {};
  for (const formation of army.formations) {
    if (formations[formation.formation]?.kind !== "titan") continue;
    const standing = Object.entries(formation.units).some(
      ([type, count]) => count > (losses[formation.id]?.[type] ?? 0),
    );
    if (!standing || random() >= 0.4) continue;
    const shields = 1 + Math.floor(random() * 2);
    const weapons = random() < 0.5 ? [{ ...TITAN_WEAPONS[Math.floor(random() * TITAN_WEAPONS.length)]! }] : [];
    damage[formation.id] = { shields, weapons };
  }
  return damage;
}
