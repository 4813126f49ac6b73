import type { Options, SupportKind } from "../events/common.js";
import { advancedRule } from "./advanced.js";

/** A7 off-table support as data: the price list and the support fund, shared by reducers, rules and the battle sheet. */

export interface SupportPrice {
  /** The name on the seed's price list. */
  name: string;
  points: number;
  /**
   * "barrage": called in at most once per battle turn of one battle, struck off after that battle;
   * "oneShot": called in once and struck off at once.
   */
  use: "barrage" | "oneShot";
}

/** The seed's price list (a mine dispenser may be loaded with one stasis or vortex mine at their own price). */
export const SUPPORT_PRICES: Readonly<Record<SupportKind, SupportPrice>> = {
  "light-barrage": { name: "light barrage", points: 100, use: "barrage" },
  "medium-barrage": { name: "medium barrage", points: 200, use: "barrage" },
  "heavy-barrage": { name: "heavy barrage", points: 300, use: "barrage" },
  "shock-and-awe": { name: "shock and awe barrage", points: 300, use: "oneShot" },
  blind: { name: "blind missile", points: 50, use: "oneShot" },
  haywire: { name: "haywire missile", points: 150, use: "oneShot" },
  "mine-dispenser": { name: "mine dispenser missile", points: 100, use: "oneShot" },
  "mine-dispenser-stasis": { name: "mine dispenser missile with a stasis mine", points: 100, use: "oneShot" },
  "mine-dispenser-vortex": { name: "mine dispenser missile with a vortex mine", points: 150, use: "oneShot" },
  stasis: { name: "stasis missile", points: 100, use: "oneShot" },
  vortex: { name: "vortex missile", points: 300, use: "oneShot" },
};

/**
 * A7 ruling: the extra 10% of F (rounded down to a whole point) is each side's support fund only when off-table support
 * is played without the war chest; with A8 on, support is bought from the war chest and there is no separate fund.
 */
export function supportFundAtStart(options: Options, force: number): number {
  if (!advancedRule(options, "offTableSupport") || advancedRule(options, "warChest")) return 0;
  return Math.floor(force / 10);
}

/** A7: an item may be called in from the turn after the one it was bought in. */
export function usableInTurn(item: { boughtTurn: number }, turn: number): boolean {
  return item.boughtTurn < turn;
}
