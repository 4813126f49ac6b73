import type { DomainEvent, EventData, EventOf } from "../../events/index.js";
import { advancedRule } from "../../projections/advanced.js";
import type { Square } from "../../events/common.js";
import type { CampaignState } from "../../projections/state.js";

/**
 * A8 war chest income, recorded for each side at the start of the End phase: by then every objective capture and
 * battle of the turn is settled, and the income can already be spent in this End phase.
 */

type Item = EventData<"WarChestIncomeRecorded">["items"][number];

/** A square from its "x,y" key. */
function squareOf(key: string): Square {
  const [x, y] = key.split(",").map(Number);
  return [x!, y!];
}

/** Held cities in a fixed order: by row, then by column. */
function byKey(a: string, b: string): number {
  const [ax, ay] = squareOf(a);
  const [bx, by] = squareOf(b);
  return ay - by || ax - bx;
}

/** A8: the income table, points per turn. An overwhelming win pays 200 instead of 100, not on top. */
export const WAR_CHEST_INCOME = {
  objective: 50,
  /** A8 ruling: a captured enemy home base earns as two objectives ("worth double COM points"). */
  homeBase: 100,
  city: 50,
  overwhelmingWin: 200,
  win: 100,
  draw: 50,
  defeat: 0,
  overwhelmingDefeat: -100,
} as const;

/** A8 ruling: the income of the whole campaign may not pass 20% of F. */
export function warChestCeiling(force: number): number {
  return Math.floor(force / 5);
}

/**
 * A8: what a side's war chest gains this turn, line by line. A city square counts while the side holds it, held like an
 * objective (A8 ruling, E1: captured by moving into or through it or winning a battle on it, kept when the army
 * leaves); a COM on a city pays for both. A side's own home base earns nothing as
 * an objective; an enemy home base it holds earns as two objectives (A8 ruling).
 */
function incomeItems(state: CampaignState, player: string, turn: number): Item[] {
  const items: Item[] = [];
  for (const objective of Object.values(state.objectives).sort((a, b) => a.id.localeCompare(b.id))) {
    if (objective.heldBy === player)
      items.push({ source: "objective", amount: WAR_CHEST_INCOME.objective, objective: objective.id });
  }
  for (const home of Object.values(state.homeBases).sort((a, b) => a.player.localeCompare(b.player))) {
    if (home.heldBy === player && home.player !== player)
      items.push({ source: "homeBase", amount: WAR_CHEST_INCOME.homeBase, objective: home.player });
  }
  for (const [key, holder] of Object.entries(state.cities).sort(([a], [b]) => byKey(a, b))) {
    if (holder === player) items.push({ source: "city", amount: WAR_CHEST_INCOME.city, at: squareOf(key) });
  }
  const battles = Object.values(state.battles)
    .filter((battle) => battle.turn === turn && battle.status === "resolved")
    .filter((battle) => battle.attacker.player === player || battle.defender.player === player)
    .sort((a, b) => a.index - b.index);
  for (const battle of battles) {
    const source =
      battle.winner === null
        ? "draw"
        : battle.winner === player
          ? battle.overwhelming
            ? "overwhelmingWin"
            : "win"
          : battle.overwhelming
            ? "overwhelmingDefeat"
            : "defeat";
    items.push({ source, amount: WAR_CHEST_INCOME[source], battle: battle.id });
  }
  return items;
}

/** A8: one side's income event: positive income capped by the 20% ceiling, a deduction stopped at a balance of 0. */
function incomeOf(
  state: CampaignState,
  player: string,
  turn: number,
  ceiling: number,
): EventOf<"WarChestIncomeRecorded"> {
  const ledger = state.ledgers[player]!;
  const items = incomeItems(state, player, turn);
  const total = items.reduce((sum, item) => sum + item.amount, 0);
  // A deduction is at most the balance (never below 0); `+ 0` keeps a deduction from an empty chest a plain 0, not -0.
  const paid =
    total >= 0 ? Math.min(total, Math.max(0, ceiling - ledger.warChestEarned)) : Math.max(total, -ledger.warChest) + 0;
  const ceilingCut = total >= 0 ? total - paid : 0;
  const floorCut = total < 0 ? paid - total : 0;
  return {
    type: "WarChestIncomeRecorded",
    data: {
      turn,
      player,
      items,
      total,
      ceilingCut,
      floorCut,
      change: paid,
      earned: Math.max(0, paid),
      balance: ledger.warChest + paid,
    },
  };
}

/** A8: each side's income for the End phase of `turn`; nothing when the campaign does not play the war chest. */
export function warChestIncome(state: CampaignState, turn: number): DomainEvent[] {
  const setup = state.setup;
  if (!setup || !advancedRule(setup.options, "warChest")) return [];
  const ceiling = warChestCeiling(setup.force.total);
  return setup.players.map((player) => incomeOf(state, player.id, turn, ceiling));
}
