import { advancedRule } from "../../projections/advanced.js";
import type { CampaignState } from "../../projections/state.js";
import { waitingOn } from "../rules/waiting-on.js";
import type { CampaignView } from "../views/view.js";
import { nextDecision } from "./play.js";
import type { PlainCommand } from "./plain-command.js";

/**
 * Why the demo's commanders cannot play one seat of this campaign from its view, if they cannot: under fog of war (A2)
 * the view hides the enemy's strengths and rosters, which they judge attacks by and report battle results with.
 */
export function unplayableFromView(view: CampaignView): string | undefined {
  if (view.setup && advancedRule(view.setup.options, "fogOfWar"))
    return "the demo's commanders judge the enemy by its strength and roster, which fog of war (A2) hides from a seat: they play campaigns without it";
  return undefined;
}

/**
 * The demo commanders' next decision for one seat, made from that seat's view, when the campaign waits on the seat
 * (waitingOn); undefined while it waits on another party, or on a chore not taken yet (a seed, a reveal).
 */
export function seatDecision(view: CampaignView, seat: string): PlainCommand | undefined {
  // Without fog of war a view hides only the other side's commanders (S8) and its unrevealed orders, and the
  // commanders read neither: they decide on the view as on the whole state (unplayableFromView refuses the rest).
  const state = view as CampaignState;
  const decision = nextDecision(state);
  if (decision?.actor !== seat) return undefined;
  return (waitingOn(state).parties[seat] ?? []).length > 0 ? decision : undefined;
}
