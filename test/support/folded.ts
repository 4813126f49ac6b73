import type { DomainEvent } from "../../events/index.js";
import { evolveAll } from "../../projections/campaign.js";
import type { CampaignState } from "../../projections/state.js";

/** The state evolveAll folds from `state`, the events given the next seqs: what foldDecided must give. */
export function folded(state: CampaignState, events: readonly DomainEvent[]): CampaignState {
  let seq = state.seq;
  return evolveAll(
    state,
    events.map((event) => ({ ...event, seq: ++seq })),
  );
}
