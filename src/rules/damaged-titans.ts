import type { UnitCounts } from "../../events/common.js";
import type { PlayerLedger } from "../../projections/state.js";
import { damagedInReserves } from "../../projections/war-chest.js";
import { refuseRule } from "./refusal.js";

/** A8: the checks on damaged titans in the Reserves that other End phase rules share. */

/**
 * A8 ruling, E6d: only a full-strength formation may be traded in, and with A8 a damaged titan is not at full strength
 * until repaired: a trade takes undamaged titans only, so that no damage is dropped.
 */
export function requireUndamagedForTrade(ledger: PlayerLedger, unitsOut: Readonly<UnitCounts>): void {
  for (const [unitType, count] of Object.entries(unitsOut)) {
    const damaged = damagedInReserves(ledger, unitType);
    const whole = (ledger.reserves[unitType] ?? 0) - damaged;
    if (damaged > 0 && count > whole) {
      refuseRule(
        "A8",
        `trading in needs ${count} undamaged "${unitType}" titan${count === 1 ? "" : "s"}, but ${damaged} of the ${ledger.reserves[unitType] ?? 0} in the Reserves carry damage: repair them first`,
      );
    }
  }
}
