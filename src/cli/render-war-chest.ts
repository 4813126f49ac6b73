import { advancedRule } from "../../projections/advanced.js";
import { warChestCeiling } from "../rules/war-chest-income.js";
import { HIDDEN, type CampaignView } from "../views/view.js";

/** A8 on the state page and the battle sheet: war chest balances and the titan damage armies carry, as text. */

type ArmyView = CampaignView["armies"][string];

/** The unrepaired damage of an army's titans, one line, or nothing when it carries none. */
export function titanDamageLines(army: Pick<ArmyView, "id" | "titanDamage">, indent = "  "): string[] {
  // Under fog of war (A2) the enemy's titan damage is HIDDEN, as its roster is.
  if (army.titanDamage === HIDDEN) return [];
  const titans = Object.entries(army.titanDamage ?? {});
  if (titans.length === 0) return [];
  const described = titans.map(([formation, damage]) => {
    const weapons = damage.weapons.map((w) => w.name).join(", ");
    return `${formation}: ${damage.shields} shields/fields down${weapons ? `, destroyed ${weapons}` : ""}`;
  });
  return [`${indent}${army.id} titan damage carried: ${described.join("; ")}`];
}

/** A side's war chest and what it has earned toward the 20% ceiling, or nothing when the campaign does not play A8. */
export function warChestLines(state: CampaignView, player: string): string[] {
  const ledger = state.ledgers[player];
  if (!state.setup || !ledger || !advancedRule(state.setup.options, "warChest")) return [];
  // Under fog of war (A2) the enemy's balance is HIDDEN: it would tell what its purchases cost.
  const balance = ledger.warChest === HIDDEN ? "?" : ledger.warChest.toLocaleString("en");
  return [
    `  war chest ${balance} pts (earned ${ledger.warChestEarned.toLocaleString("en")} of ${warChestCeiling(state.setup.force.total).toLocaleString("en")})`,
  ];
}
