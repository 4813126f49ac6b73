import { catalogue, GENESIS_HASH, toCurrent } from "../../events/index.js";
import { evolveAll } from "../../projections/campaign.js";
import { initialState, type CampaignState } from "../../projections/state.js";
import { decideBatch } from "./decide-batch.js";
import { verifySignature } from "../crypto/verify-node.js";
import type { Clock, CommandHandler, Outcome } from "./engine.js";
import { checkAppend, sealEvent, type Head } from "../log/index.js";

/**
 * The command handler with no log, for rule tests (the golden corpus runs on it): commands are decided as the Engine
 * decides them (decideBatch), their events checked and chained as the store checks and chains them (checkAppend,
 * sealEvent) and folded into a state held in memory. With the same clock it gives what the Engine gives: the same
 * refusals, events (seqs and hashes included) and states. Nothing outlives it; one campaign line per stream, no branches.
 */
export class MemoryEngine implements CommandHandler {
  private readonly streams = new Map<string, { state: CampaignState; head: Head }>();

  constructor(private readonly clock: Clock) {}

  async state(campaign: string): Promise<CampaignState> {
    return this.stream(campaign).state;
  }

  /** The stream's last seq and hash, as the store's head gives them. */
  async head(campaign: string): Promise<Head> {
    return this.stream(campaign).head;
  }

  async execute(campaign: string, inputs: readonly unknown[]): Promise<Outcome> {
    const { state, head } = this.stream(campaign);
    const decision = decideBatch(state, inputs, this.clock, { line: campaign, verify: verifySignature });
    if (!decision.ok) return decision;
    const checked = checkAppend(campaign, decision.events, catalogue);
    let prev = head.hash;
    const events = checked.map((event, index) => {
      const { stored } = sealEvent(campaign, head.seq + index + 1, prev, event);
      prev = stored.hash;
      return stored;
    });
    // Folded from copies of their own, as the store's followers get them: the reducers freeze what they keep.
    const next = evolveAll(
      state,
      events.map((event, index) => toCurrent({ ...event, data: JSON.parse(checked[index]!.dataJson) as unknown })),
    );
    this.streams.set(campaign, { state: next, head: { seq: head.seq + events.length, hash: prev } });
    return { ok: true, events, state: next };
  }

  private stream(campaign: string): { state: CampaignState; head: Head } {
    return this.streams.get(campaign) ?? { state: initialState, head: { seq: 0, hash: GENESIS_HASH } };
  }
}
