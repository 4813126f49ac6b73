import type { Square, SupportKind } from "../../events/common.js";
import { advancedRule } from "../../projections/advanced.js";
import { squareKey } from "../../projections/grid.js";
import { SUPPORT_PRICES } from "../../projections/support.js";
import type { ArmyState, CampaignState } from "../../projections/state.js";
import { commandLimit } from "../rules/commanders.js";
import { ownFormations, type CatalogueEntry } from "./catalogue.js";
import { freeSpares } from "./commanders.js";
import { firstAllowed } from "./legal.js";
import { seededRandom } from "./rng.js";
import type { PlainCommand } from "./plain-command.js";
import { MIN_ARMY_POINTS } from "../rules/new-army.js";

/**
 * The demo commanders' purchases in the End phase (A7, A8): now and then off-table support, titan repairs whenever
 * damage is carried, a new army at the home base when wanted, and now and then formations for a depleted army and
 * defences on a held objective, unless saving for an army.
 * Every purchase is checked against the rules first; each costs points, so the End phase always comes to an end.
 */

/** Defences the demo builds up on a held objective by purchase, a lot at a time. */
const DEFENCES_WANTED = 450;
const DEFENCES_LOT = 150;
/** Items on the artillery roster the demo keeps at most. */
const ROSTER_WANTED = 3;
/** What a side keeps in its war chest towards a new army instead of spending it on smaller things. */
const ARMY_SAVINGS = 1500;

/** A repeatable yes or no, different for each player, turn and kind of purchase. */
function nowAndThen(state: CampaignState, player: string, what: string, odds: number): boolean {
  return seededRandom(`${state.campaign}/t${state.turn}/${player}/${what}`)() < odds;
}

const ownArmies = (state: CampaignState, player: string) =>
  Object.values(state.armies).filter(
    (a): a is ArmyState & { at: Square } => a.player === player && a.status === "active" && a.at !== null,
  );

/** A8: every titan of the player carrying damage: all of it repaired, else the shields alone, else the weapons alone. */
function titanRepairs(state: CampaignState, player: string): PlainCommand[] {
  return ownArmies(state, player).flatMap((army) =>
    Object.entries(army.titanDamage ?? {}).flatMap(([formation, damage]) => {
      const repair = (shields: number, weapons: typeof damage.weapons): PlainCommand => ({
        actor: player,
        type: "RepairTitan",
        army: army.id,
        formation,
        shields,
        weapons: weapons.map((weapon) => ({ destroyed: weapon.name })),
      });
      return [repair(damage.shields, damage.weapons), repair(damage.shields, []), repair(0, damage.weapons)];
    }),
  );
}

/** The largest catalogue formations, first one with a unit of `leader`'s type, coming to at most `limit` points. */
function armyOf(own: readonly CatalogueEntry[], leader: string, limit: number): string[] {
  const lead = own.find(([, f]) => (f.units[leader] ?? 0) > 0 && f.points <= limit);
  if (!lead) return [];
  const chosen = [lead[0]];
  let points = lead[1].points;
  for (const [id, formation] of own) {
    while (points + formation.points <= limit) {
      chosen.push(id);
      points += formation.points;
    }
  }
  return points >= MIN_ARMY_POINTS ? chosen : [];
}

/** The squares a bought army may take: the home base, then the squares around it. */
export function aroundHomeBase(state: CampaignState, player: string): Square[] {
  const home = state.homeBases[player];
  if (!home) return [];
  const [x, y] = home.at;
  const around: Square[] = [[x, y]];
  for (const dy of [-1, 0, 1]) for (const dx of [-1, 0, 1]) if (dx !== 0 || dy !== 0) around.push([x + dx, y + dy]);
  return around;
}

/** Whether the side fields fewer than N armies and, with A6, has a commander for another. */
function wantsArmy(state: CampaignState, player: string): boolean {
  const { force, options } = state.setup!;
  return (
    ownArmies(state, player).length < force.armies &&
    (!advancedRule(options, "commanders") || freeSpares(state, player).length > 0)
  );
}

/** A8 (A6): a new army at the home base when the side wants one and the war chest pays for it. */
function newArmy(state: CampaignState, player: string): PlainCommand[] {
  const { catalogue, force, options } = state.setup!;
  if (!wantsArmy(state, player)) return [];
  const own = ownFormations(catalogue, player).sort(([, a], [, b]) => b.points - a.points);
  const balance = state.ledgers[player]!.warChest;
  const leaders = advancedRule(options, "commanders")
    ? freeSpares(state, player).map((spare) => ({ unitType: spare.unitType, limit: commandLimit(spare.level) }))
    : Object.entries(catalogue.unitTypes)
        .filter(([, u]) => u.abilities.includes("hq"))
        .map(([unitType]) => ({ unitType, limit: Infinity }));
  const count = Object.values(state.armies).filter((a) => a.player === player).length + 1;
  return leaders.flatMap(({ unitType, limit }) => {
    const chosen = armyOf(own, unitType, Math.min(limit, force.maxArmyPoints, balance));
    if (chosen.length === 0) return [];
    const formations = chosen.map((formation, i) => ({ id: `f${i + 1}`, formation }));
    return aroundHomeBase(state, player).map((at) => ({
      actor: player,
      type: "BuyArmy",
      army: `${player}-${count}`,
      name: `Levy ${count}`,
      formations,
      commander: { formation: "f1", unitType },
      at,
    }));
  });
}

/** A7: one item a turn while the roster is short, the kind by the turn's luck among those the funds buy twice over. */
function supportPurchase(state: CampaignState, player: string): PlainCommand[] {
  const ledger = state.ledgers[player]!;
  if (ledger.artillery.some((item) => item.boughtTurn === state.turn) || ledger.artillery.length >= ROSTER_WANTED)
    return [];
  const fromChest = advancedRule(state.setup!.options, "warChest");
  const funds = fromChest ? ledger.warChest : ledger.supportFund;
  // The support fund buys nothing else, so it is spent freely; war chest funds go further than a second item.
  const affordable = (Object.keys(SUPPORT_PRICES) as SupportKind[]).filter(
    (kind) => SUPPORT_PRICES[kind].points * (fromChest && ledger.artillery.length > 0 ? 2 : 1) <= funds,
  );
  if (affordable.length === 0) return [];
  const pick = Math.floor(
    seededRandom(`${state.campaign}/t${state.turn}/${player}/support-kind`)() * affordable.length,
  );
  return [{ actor: player, type: "BuySupport", kind: affordable[pick]! }];
}

/** A8: the largest catalogue formation that fits a depleted army that has fought, within M and its commander's limit. */
function reinforcements(state: CampaignState, player: string): PlainCommand[] {
  const { catalogue, force } = state.setup!;
  const balance = state.ledgers[player]!.warChest;
  const own = ownFormations(catalogue, player).sort(([, a], [, b]) => b.points - a.points);
  return ownArmies(state, player)
    .filter((army) => army.battles > 0)
    .flatMap((army) => {
      const limit = Math.min(
        force.maxArmyPoints,
        typeof army.commanderLevel === "number" ? commandLimit(army.commanderLevel) : Infinity,
      );
      const fits = own.find(([, f]) => f.points <= balance && army.points + f.points <= limit);
      if (!fits) return [];
      return [
        {
          actor: player,
          type: "BuyFormations",
          army: army.id,
          formations: [{ id: `bought-t${state.turn}-${army.formations.length + 1}`, formation: fits[0] }],
        },
      ];
    });
}

/** A8: a lot of defences on an objective the player holds that has fewer than the demo wants there, if it can spare twice that. */
function defences(state: CampaignState, player: string): PlainCommand[] {
  if (state.ledgers[player]!.warChest < 2 * DEFENCES_LOT) return [];
  return Object.values(state.objectives)
    .filter((o) => o.heldBy === player && (state.defences[squareKey(o.at)] ?? 0) + DEFENCES_LOT <= DEFENCES_WANTED)
    .map((objective) => ({ actor: player, type: "BuyDefences", at: objective.at, points: DEFENCES_LOT }));
}

/** The player's next purchase this End phase, or undefined when it buys nothing more. */
export function warChestCommand(state: CampaignState, player: string): PlainCommand | undefined {
  const { options } = state.setup!;
  const chest = advancedRule(options, "warChest");
  const support = advancedRule(options, "offTableSupport");
  if (!chest && !support) return undefined;
  const candidates = (): PlainCommand[] => {
    if (!chest) return nowAndThen(state, player, "support", 0.6) ? supportPurchase(state, player) : [];
    const army = newArmy(state, player);
    const saving = army.length === 0 && wantsArmy(state, player) && state.ledgers[player]!.warChest < ARMY_SAVINGS;
    return [
      ...(support && nowAndThen(state, player, "support", 0.7) ? supportPurchase(state, player) : []),
      ...titanRepairs(state, player),
      ...army,
      ...(!saving && nowAndThen(state, player, "formations", 0.5) ? reinforcements(state, player) : []),
      ...(!saving && nowAndThen(state, player, "defences", 0.4) ? defences(state, player) : []),
    ];
  };
  return firstAllowed(state, candidates());
}
