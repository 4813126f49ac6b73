import type { SupportUse } from "../../events/common.js";
import { advancedRule } from "../../projections/advanced.js";
import type { SupportItemState } from "../../projections/state.js";
import { SUPPORT_PRICES, usableInTurn } from "../../projections/support.js";
import type { CampaignView, ViewedEntry } from "../views/view.js";

/** A7 on the battle sheet and the ledger: each side's off-table support, as text. */

const itemName = (item: Pick<SupportItemState, "id" | "kind">) => `${SUPPORT_PRICES[item.kind].name} (${item.id})`;

const ROLES = ["attacker", "defender"] as const;

/**
 * The battle sheet's support lines: before the result, what each side may call in (bought before the battle's turn);
 * once resolved, what each side called in and when.
 */
export function battleSupportLines(
  state: CampaignView,
  battle: Pick<ViewedEntry<"battles">, "attacker" | "defender" | "status" | "result" | "turn">,
): string[] {
  if (!state.setup || !advancedRule(state.setup.options, "offTableSupport")) return [];
  return ROLES.map((role) => {
    const player = battle[role].player;
    if (battle.status === "resolved") {
      const used = battle.result![role].support ?? [];
      return `     ${role} (${player}) called in: ${used.map(describeUse).join(", ") || "no off-table support"}`;
    }
    const available = (state.ledgers[player]?.artillery ?? []).filter((item) => usableInTurn(item, battle.turn));
    return `     ${role} (${player}) may call in: ${available.map(itemName).join(", ") || "no off-table support"}`;
  });
}

function describeUse(use: SupportUse): string {
  return `${use.item} in battle turn${use.turns.length > 1 ? "s" : ""} ${use.turns.join(", ")}`;
}

/** A side's support fund and artillery roster, or nothing when the campaign does not play off-table support. */
export function artilleryLines(state: CampaignView, player: string): string[] {
  if (!state.setup || !advancedRule(state.setup.options, "offTableSupport")) return [];
  const ledger = state.ledgers[player];
  if (!ledger) return [];
  const roster =
    ledger.artillery.map((item) => `${itemName(item)} from turn ${item.boughtTurn + 1}`).join(", ") || "empty";
  const fund = advancedRule(state.setup.options, "warChest")
    ? ""
    : `support fund ${ledger.supportFund.toLocaleString("en")} pts; `;
  return [`  ${fund}artillery roster: ${roster}`];
}
