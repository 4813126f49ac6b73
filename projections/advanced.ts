import type { AdvancedRule } from "../events/common.js";

/** Whether the campaign plays an advanced rule (A1-A8): each is off unless chosen at set-up. */
export function advancedRule(
  options: { advanced?: Partial<Record<AdvancedRule, boolean>> },
  rule: AdvancedRule,
): boolean {
  return options.advanced?.[rule] === true;
}
