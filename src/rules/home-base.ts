import type { Square } from "../../events/common.js";
import { advancedRule } from "../../projections/advanced.js";
import { chebyshev } from "../../projections/grid.js";
import type { CampaignState } from "../../projections/state.js";
import { refuseRule, sq } from "./refusal.js";
import { requireSetup } from "./guards.js";

/** A5 Home base: new armies arrive at or next to the home base, and a home base held by the enemy stops both. */

/** A5: while the enemy holds `player`'s home base, the player may not `what` until it is retaken. */
export function requireHomeBaseHeld(state: CampaignState, player: string, what: string): void {
  const setup = requireSetup(state);
  if (!advancedRule(setup.options, "homeBase")) return;
  const homeBase = state.homeBases[player];
  if (homeBase && homeBase.heldBy !== player) {
    refuseRule(
      "A5",
      `${homeBase.heldBy} holds ${player}'s home base at ${sq(homeBase.at)}: ${player} may not ${what} until it is retaken`,
    );
  }
}

/**
 * A5 (and A8 for bought armies): a new army appears on its owner's home base or on a square next to it; "next to"
 * counts diagonals too (any of the eight squares around it), as a counter placed beside the base would be.
 */
export function requireAtHomeBase(state: CampaignState, player: string, at: Square, what: string, rule = "A5"): void {
  const homeBase = state.homeBases[player];
  if (!homeBase) refuseRule(rule, `${player} has no home base for ${what} to arrive at`);
  if (chebyshev(homeBase.at, at) > 1) {
    refuseRule(
      rule,
      `${what} arrives on ${player}'s home base at ${sq(homeBase.at)} or a square next to it; ${sq(at)} is neither`,
    );
  }
}
