import { HOST } from "../../events/common.js";
import type { CampaignView } from "../views/view.js";

/** The parties of a campaign, each a seat that acts and keeps its own secrets: the host, then every player. */
export function seatsOf(state: CampaignView): string[] {
  return [HOST, ...(state.setup?.players.map((p) => p.id) ?? [])];
}
