import type { NewEvent } from "../../events/index.js";
import type { CampaignState } from "../../projections/state.js";
import { verifySignature } from "../crypto/verify-node.js";
import { decideBatch } from "./decide-batch.js";
import type { Clock, CommandHandler, Outcome } from "./handler.js";

/**
 * A line's commands decided one batch after another on the state a batch not yet written leaves, and kept to be
 * written after it in the same append (Engine.execute's `followUps`): the host's steps a seat's command makes due,
 * flushed to disk once with it. Each batch is decided as the Engine decides it (decideBatch), its signatures bound
 * to the seq it is decided at; nothing is written here, so an accepted batch answers no events.
 */
export class StagedLine implements CommandHandler {
  private readonly staged: NewEvent[] = [];

  constructor(
    private current: CampaignState,
    private readonly line: string,
    private readonly clock: Clock,
  ) {}

  /** The events of every batch accepted so far, in order. */
  get events(): readonly NewEvent[] {
    return this.staged;
  }

  async state(): Promise<CampaignState> {
    return this.current;
  }

  async execute(_campaign: string, inputs: readonly unknown[]): Promise<Outcome> {
    const decision = decideBatch(this.current, inputs, this.clock, { line: this.line, verify: verifySignature });
    if (!decision.ok) return decision;
    this.current = decision.state;
    this.staged.push(...decision.events);
    return { ok: true, events: [], state: this.current };
  }
}
