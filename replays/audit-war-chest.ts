import { pts } from "../src/rules/refusal.js";
import type { EventData } from "../events/index.js";
import type { RosterFormation, Square } from "../events/common.js";
import { advancedRule } from "../projections/advanced.js";
import { armyPoints } from "../projections/units.js";
import { chebyshev, sameSquare } from "../projections/grid.js";
import type { CampaignState } from "../projections/state.js";
import { SUPPORT_PRICES } from "../projections/support.js";
import { canonicalJson } from "../src/crypto/commitments.js";
import { warChestIncome } from "../src/rules/war-chest-income.js";
import {
  ADVANCED_VERDICTS as V,
  type AdvancedCheck,
  type AdvancedFinding,
  type CheckedEvent,
  type ReportAdvanced,
} from "./audit-advanced.js";

/**
 * A8 war chest, A7 off-table support and A5 home base, after the fact: every income event is recomputed from the
 * campaign as it stood (objectives, cities, the turn's battles, the 20%-of-F ceiling, the floor of 0) and every
 * purchase is checked against the fund it was paid from at that moment, its price, where it was placed, the End phase
 * it belongs to, and the A5 block while the enemy holds the buyer's home base.
 */

const sq = ([x, y]: Square) => `(${x},${y})`;
const INCOME_FIELDS = ["items", "total", "ceilingCut", "floorCut", "change", "earned", "balance"] as const;
const SHIELD_REPAIR_COST = 100;
const MIN_ARMY_POINTS = 1000;

type Finding = Omit<AdvancedFinding, "seqs"> & { seqs?: number[] };

export class WarChestAudit implements AdvancedCheck {
  /** The seq of each side's income event, by "turn:player". */
  private readonly incomes = new Map<string, number>();

  constructor(private readonly report: ReportAdvanced) {}

  before(event: CheckedEvent, state: CampaignState): void {
    const breach = (finding: Finding) => this.report({ ...finding, seqs: [event.seq, ...(finding.seqs ?? [])] });
    switch (event.type) {
      case "WarChestIncomeRecorded":
        return this.income(event.seq, event.data, state, breach);
      case "EndPhaseFinished":
        return this.incomeGiven(event.seq, event.data, state);
      case "FormationsPurchased":
        return this.formations(event.data, state, breach);
      case "ArmyPurchased":
        return this.army(event.data, state, breach);
      case "DefencesPurchased":
        return this.defences(event.data, state, breach);
      case "TitanRepaired":
        return this.repairs(
          event.data,
          `repairs to titan "${event.data.formation}" of army "${event.data.army}"`,
          state,
          breach,
        );
      case "ReserveTitanRepaired":
        return this.repairs(
          event.data,
          `repairs to the ${event.data.unitType} titan #${event.data.titan} of ${event.data.player}'s Reserves`,
          state,
          breach,
        );
      case "SupportPurchased":
        return this.support(event.data, state, breach);
      default:
        return;
    }
  }

  // ---------- income ----------

  private income(
    seq: number,
    data: EventData<"WarChestIncomeRecorded">,
    state: CampaignState,
    breach: (f: Finding) => void,
  ): void {
    const base = { verdict: V.incomeMismatch, rule: "A8", player: data.player };
    if (!advancedRule(state.setup?.options ?? {}, "warChest")) {
      return breach({
        ...base,
        detail: `${data.player}'s war chest income for turn ${data.turn} (seq ${seq}) is recorded, but this campaign does not play the war chest`,
      });
    }
    const key = `${data.turn}:${data.player}`;
    const earlier = this.incomes.get(key);
    if (earlier !== undefined) {
      return breach({
        ...base,
        seqs: [earlier],
        detail: `${data.player}'s war chest income for turn ${data.turn} is recorded twice (seq ${earlier} and ${seq}): it is paid once each End phase`,
      });
    }
    this.incomes.set(key, seq);
    const expected = warChestIncome(state, data.turn).find(
      (e) => e.type === "WarChestIncomeRecorded" && e.data.player === data.player,
    );
    if (expected?.type !== "WarChestIncomeRecorded") return;
    const differ = INCOME_FIELDS.filter((field) => canonicalJson(data[field]) !== canonicalJson(expected.data[field]));
    if (differ.length === 0) return;
    const given = expected.data;
    breach({
      ...base,
      detail:
        `${data.player}'s war chest income for turn ${data.turn} (seq ${seq}) records ${differ.map((f) => `${f} ${canonicalJson(data[f])}`).join(", ")}; ` +
        `the campaign as it stood gives ${differ.map((f) => `${f} ${canonicalJson(given[f])}`).join(", ")} ` +
        `(items ${given.total}, paid up to the ceiling of 20% of F less ${pts(state.ledgers[data.player]?.warChestEarned ?? 0)} earned, never below 0)`,
    });
  }

  /** A8: every side's income is recorded at the start of each End phase, before the side can finish it. */
  private incomeGiven(seq: number, data: EventData<"EndPhaseFinished">, state: CampaignState): void {
    if (!advancedRule(state.setup?.options ?? {}, "warChest") || this.incomes.has(`${data.turn}:${data.player}`))
      return;
    this.report({
      verdict: V.incomeMismatch,
      rule: "A8",
      player: data.player,
      seqs: [seq],
      detail: `${data.player} finished the End phase of turn ${data.turn} (seq ${seq}) with no war chest income recorded for it: every side's income is recorded each End phase`,
    });
  }

  // ---------- spending ----------

  /**
   * A8, A5: a purchase from the war chest: the campaign plays it, it is the buyer's End phase, the enemy does not hold
   * the buyer's home base (with A5), and the balance covers the cost (it never goes below 0).
   */
  private spend(state: CampaignState, player: string, cost: number, what: string, breach: (f: Finding) => void): void {
    const base = { rule: "A8", player };
    if (!advancedRule(state.setup?.options ?? {}, "warChest")) {
      return breach({
        ...base,
        verdict: V.spentWhenClosed,
        detail: `${player} paid ${pts(cost)} for ${what} from a war chest this campaign does not play`,
      });
    }
    this.inEndPhase(state, player, what, "A8", breach);
    const homeBase = state.homeBases[player];
    if (advancedRule(state.setup!.options, "homeBase") && homeBase && homeBase.heldBy !== player) {
      breach({
        ...base,
        rule: "A5",
        verdict: V.spentWhenClosed,
        detail: `${player} spent the war chest on ${what} while ${homeBase.heldBy} held its home base at ${sq(homeBase.at)}`,
      });
    }
    const balance = state.ledgers[player]?.warChest ?? 0;
    if (cost > balance) {
      breach({
        ...base,
        verdict: V.overspent,
        detail: `${what} cost ${pts(cost)} but ${player}'s war chest held ${pts(balance)}: the war chest never goes below 0`,
      });
    }
  }

  private inEndPhase(
    state: CampaignState,
    player: string,
    what: string,
    rule: string,
    breach: (f: Finding) => void,
  ): void {
    const done = state.turnState?.endPhaseDone.includes(player) ?? false;
    if (state.phase === "end" && !done) return;
    const when = done
      ? `after finishing its End phase of turn ${state.turn}`
      : `in the ${state.phase} phase of turn ${state.turn}`;
    breach({
      rule,
      player,
      verdict: V.spentWhenClosed,
      detail: `${player} bought ${what} ${when}: purchases are made in the End phase, before the player finishes it`,
    });
  }

  /** Bought formations are full-strength catalogue formations; returns their price (catalogue points). */
  private price(
    state: CampaignState,
    formations: readonly RosterFormation[],
    player: string,
    breach: (f: Finding) => void,
  ): number {
    const { catalogue } = state.setup!;
    for (const formation of formations) {
      const entry = catalogue.formations[formation.formation];
      if (entry && canonicalJson(presentUnits(entry.units)) === canonicalJson(presentUnits(formation.units))) continue;
      breach({
        rule: "A8",
        player,
        verdict: V.priceMismatch,
        detail: entry
          ? `formation "${formation.id}" was bought as "${formation.formation}" with units ${JSON.stringify(formation.units)}, not the full strength ${JSON.stringify(entry.units)} it was paid for`
          : `formation "${formation.id}" was bought as "${formation.formation}", which the catalogue does not list`,
      });
    }
    return formations.reduce((sum, f) => sum + (catalogue.formations[f.formation]?.points ?? 0), 0);
  }

  private formations(data: EventData<"FormationsPurchased">, state: CampaignState, breach: (f: Finding) => void): void {
    const what = `formations for army "${data.army}"`;
    this.spend(state, data.player, data.cost, what, breach);
    const price = this.price(state, data.formations, data.player, breach);
    const base = { rule: "A8", player: data.player, army: data.army };
    if (price !== data.cost)
      breach({
        ...base,
        verdict: V.priceMismatch,
        detail: `${what} cost ${pts(data.cost)}; their catalogue points are ${pts(price)}`,
      });
    const army = state.armies[data.army];
    if (!army || army.player !== data.player || army.status !== "active" || army.at === null) {
      return breach({
        ...base,
        verdict: V.misplaced,
        detail: `${what}: formations go into one of ${data.player}'s armies on the map, and "${data.army}" is not one`,
      });
    }
    const setup = state.setup!;
    const ceiling = setup.options.armySize ?? setup.force.maxArmyPoints;
    const after = armyPoints([...army.formations, ...data.formations], setup.catalogue);
    if (after > ceiling)
      breach({
        ...base,
        verdict: V.misplaced,
        detail: `${what} made it ${pts(after)} points, over the largest army allowed (${pts(ceiling)})`,
      });
  }

  private army(data: EventData<"ArmyPurchased">, state: CampaignState, breach: (f: Finding) => void): void {
    const what = `new army "${data.army}"`;
    this.spend(state, data.player, data.cost, what, breach);
    const price = this.price(state, data.formations, data.player, breach);
    const base = { player: data.player, army: data.army };
    if (price !== data.cost)
      breach({
        ...base,
        rule: "A8",
        verdict: V.priceMismatch,
        detail: `${what} cost ${pts(data.cost)}; its formations' catalogue points are ${pts(price)}`,
      });
    const { maxArmyPoints } = state.setup!.force;
    if (price < MIN_ARMY_POINTS || price > maxArmyPoints) {
      breach({
        ...base,
        rule: "S2",
        verdict: V.misplaced,
        detail: `${what} is ${pts(price)} points: each army must be 1,000 to M = ${pts(maxArmyPoints)}`,
      });
    }
    const rule = advancedRule(state.setup!.options, "homeBase") ? "A5" : "A8";
    const homeBase = state.homeBases[data.player];
    if (!homeBase || chebyshev(homeBase.at, data.at) > 1) {
      breach({
        ...base,
        rule,
        verdict: V.misplaced,
        detail: `${what} was placed at ${sq(data.at)}: a bought army goes on its home base${homeBase ? ` at ${sq(homeBase.at)}` : ""} or a square next to it`,
      });
    }
    const onOwnBase = homeBase !== undefined && sameSquare(homeBase.at, data.at);
    const occupant = Object.values(state.armies).find(
      (a) =>
        a.status === "active" && a.at !== null && sameSquare(a.at, data.at) && (!onOwnBase || a.player !== data.player),
    );
    if (occupant)
      breach({
        ...base,
        rule: "S7",
        verdict: V.misplaced,
        detail: `${what} was placed at ${sq(data.at)}, which held army "${occupant.id}": armies stack only on their own home base`,
      });
  }

  private defences(data: EventData<"DefencesPurchased">, state: CampaignState, breach: (f: Finding) => void): void {
    const what = `${pts(data.points)} points of defences at ${sq(data.at)}`;
    this.spend(state, data.player, data.points, what, breach);
    const own = (at: Square) => sameSquare(at, data.at);
    const covered =
      Object.values(state.armies).some(
        (a) => a.player === data.player && a.status === "active" && a.at !== null && own(a.at),
      ) ||
      Object.values(state.objectives).some((o) => o.heldBy === data.player && own(o.at)) ||
      Object.values(state.homeBases).some((h) => h.heldBy === data.player && own(h.at));
    if (!covered) {
      breach({
        rule: "A8",
        player: data.player,
        verdict: V.misplaced,
        detail: `${what}: defences go on a square with one of ${data.player}'s armies or an objective it holds, and it had neither`,
      });
    }
  }

  /** The spend and the total; what the repairs may restore, and like-for-like prices, are A8's titan check (audit-titans.ts). */
  private repairs(
    data: EventData<"TitanRepaired" | "ReserveTitanRepaired">,
    what: string,
    state: CampaignState,
    breach: (f: Finding) => void,
  ): void {
    this.spend(state, data.player, data.cost, what, breach);
    const price = data.shields * SHIELD_REPAIR_COST + data.weapons.reduce((sum, w) => sum + w.points, 0);
    if (price !== data.cost) {
      breach({
        rule: "A8",
        player: data.player,
        verdict: V.priceMismatch,
        detail: `${what} cost ${pts(data.cost)}; ${data.shields} shields at 100 and the weapons listed come to ${pts(price)}`,
      });
    }
  }

  private support(data: EventData<"SupportPurchased">, state: CampaignState, breach: (f: Finding) => void): void {
    const price = SUPPORT_PRICES[data.kind];
    const what = `a ${price.name} ("${data.item}")`;
    const base = { rule: "A7", player: data.player };
    const options = state.setup?.options ?? {};
    if (!advancedRule(options, "offTableSupport")) {
      breach({
        ...base,
        verdict: V.spentWhenClosed,
        detail: `${data.player} bought ${what}, but this campaign does not play off-table support`,
      });
    }
    if (data.cost !== price.points)
      breach({
        ...base,
        verdict: V.priceMismatch,
        detail: `${what} cost ${pts(data.cost)}; the price list says ${pts(price.points)}`,
      });
    const fund = advancedRule(options, "warChest") ? "warChest" : "supportFund";
    if (data.paidFrom !== fund) {
      breach({
        ...base,
        verdict: V.spentWhenClosed,
        detail: `${what} was paid from the ${data.paidFrom === "warChest" ? "war chest" : "support fund"}; this campaign pays support from the ${fund === "warChest" ? "war chest" : "support fund"}`,
      });
    }
    if (data.paidFrom === "warChest") return this.spend(state, data.player, data.cost, what, breach);
    this.inEndPhase(state, data.player, what, "A7", breach);
    const held = state.ledgers[data.player]?.supportFund ?? 0;
    if (data.cost > held)
      breach({
        ...base,
        verdict: V.overspent,
        detail: `${what} cost ${pts(data.cost)} but ${data.player}'s support fund held ${pts(held)}`,
      });
  }
}

/** The unit types a formation has, with their counts (a zero count is no unit). */
function presentUnits(units: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(units).filter(([, count]) => count > 0));
}
