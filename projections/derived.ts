import type { Order } from "../events/common.js";
import { engagement, type Engagement } from "./engagement.js";
import type { AwardTable } from "./formulas.js";
import type { ScoutingBandName } from "./scouting.js";

/** E2: one side's CVPs now, by source, against the target (S3). */
export interface SideTotals {
  /** Battle CVPs (S4), from the side's ledger. */
  battles: number;
  /** CVPs of the objectives the side holds (E1), k x 5 each. */
  objectives: number;
  /** CVPs of the enemy home bases the side holds, k x 10 each; its own home base counts nothing. */
  homeBase: number;
  /** battles + objectives + homeBase. */
  total: number;
  /** The CVPs a side needs to win (S3). */
  target: number;
  /** Whether total has reached the target (E2). */
  reached: boolean;
}

/** What the state implies but does not hold: computed when asked, never stored (test/golden/README.md, `derived`). */
export interface DerivedView {
  /** Each player's CVPs (E2), by player id; empty before CreateCampaign. */
  cvps: Record<string, SideTotals>;
  /** B2 (A3): the engagement effects of each battle whose two orders are known, by battle id. */
  engagements: Record<string, Engagement>;
}

/** The part of the state (or of a player's view of it) the totals are computed from. */
export interface TotalsSource {
  setup: { players: { id: string }[]; awards: AwardTable; cvpTarget: number | string } | null;
  ledgers: Record<string, { battleCvps: number | string }>;
  objectives: Record<string, { heldBy: string | null | undefined }>;
  homeBases: Record<string, { player: string; heldBy: string | undefined }>;
}

const count = (value: number | string | undefined): number => (typeof value === "number" ? value : 0);

/** E2, S3, S4: each side's CVPs now: battle CVPs plus the value of every objective and enemy home base it holds. */
export function campaignTotals(state: TotalsSource): Record<string, SideTotals> {
  const totals: Record<string, SideTotals> = {};
  if (!state.setup) return totals;
  const { awards, cvpTarget } = state.setup;
  for (const { id } of state.setup.players) {
    const battles = count(state.ledgers[id]?.battleCvps);
    const objectives = Object.values(state.objectives).filter((o) => o.heldBy === id).length * awards.objective;
    const homeBase =
      Object.values(state.homeBases).filter((h) => h.heldBy === id && h.player !== id).length * awards.homeBase;
    const total = battles + objectives + homeBase;
    const target = count(cvpTarget);
    totals[id] = { battles, objectives, homeBase, total, target, reached: total >= target };
  }
  return totals;
}

/** The part of a battle its engagement is read from: both orders once revealed, and the attacker's scouting (A3). */
export interface EngagementSource {
  attacker: { order?: Order | null | string };
  defender: { order?: Order | null | string };
  scouting?: ScoutingBandName | string;
}

const ORDERS: readonly string[] = ["advance", "charge", "firstFire", "fortify"];
const isOrder = (order: unknown): order is Order => typeof order === "string" && ORDERS.includes(order);

/** B2 (A3): a battle's engagement effects, or undefined while either order is unknown. */
export function battleEngagement(battle: EngagementSource): Engagement | undefined {
  const { attacker, defender } = battle;
  if (!isOrder(attacker.order) || !isOrder(defender.order)) return undefined;
  return engagement(attacker.order, defender.order, battle.scouting as ScoutingBandName | undefined);
}

/** The derived view of a state (or of a player's view of it): its CVP totals and its battles' engagements. */
export function derivedView(state: TotalsSource & { battles: Record<string, EngagementSource> }): DerivedView {
  const engagements: Record<string, Engagement> = {};
  for (const [id, battle] of Object.entries(state.battles)) {
    const effects = battleEngagement(battle);
    if (effects) engagements[id] = effects;
  }
  return { cvps: campaignTotals(state), engagements };
}

/** E2: a side's CVPs now, the total of campaignTotals, by player id. */
export function cvpTotals(state: TotalsSource): Record<string, number> {
  return Object.fromEntries(Object.entries(campaignTotals(state)).map(([id, side]) => [id, side.total]));
}
