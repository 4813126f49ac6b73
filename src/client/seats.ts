import { HOST } from "../../events/common.js";
import type { CampaignState } from "../../projections/state.js";

/** The parties of a campaign, each a seat that acts and keeps its own secrets: the host, then every player. */
export function seatsOf(state: CampaignState): string[] {
  return [HOST, ...(state.setup?.players.map((p) => p.id) ?? [])];
}
