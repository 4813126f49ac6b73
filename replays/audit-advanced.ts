import type { DomainEvent, StoredEvent } from "../events/index.js";
import type { CampaignState } from "../projections/state.js";

/**
 * What the audit checks of the advanced rules (A3, A5-A8), as verdicts and the shape every advanced check shares: it
 * sees each event with the campaign as it stood before it, and, where a rule is judged on what the event left behind
 * (A6 commanders after a battle), with the campaign after it too. Each finding names the rule it breaks.
 */

export const ADVANCED_VERDICTS = {
  scoutingBluff: "scouting bluff outside the band",
  scoutingMismatch: "scouting does not recompute",
  bonusUnrevealed: "First Fire bonus claimed without a matching reveal",
  incomeMismatch: "war chest income does not recompute",
  overspent: "spent more than the fund holds",
  priceMismatch: "price does not recompute",
  misplaced: "bought where the rules do not allow",
  spentWhenClosed: "spent when the rules do not allow it",
  commanderMismatch: "commander record does not match the battles",
  supportMisused: "support called in that the side could not call in",
  supportRosterMismatch: "artillery roster does not match the battles",
  titanDamageMismatch: "titan damage does not match the battles",
  modelMismatch: "battle model's result does not recompute",
} as const;

/** A finding of an advanced check, before the audit files it under the turn it belongs to. */
export interface AdvancedFinding {
  verdict: (typeof ADVANCED_VERDICTS)[keyof typeof ADVANCED_VERDICTS];
  /** The rule the log breaks, e.g. "A8". */
  rule: string;
  army?: string;
  player?: string;
  seqs: number[];
  detail: string;
}

export type ReportAdvanced = (finding: AdvancedFinding) => void;

/** A stored event as the advanced checks read it. */
export type CheckedEvent = Pick<StoredEvent, "seq" | "actor" | "at"> & DomainEvent;

export interface AdvancedCheck {
  /** `state` is the campaign as it stood before the event. */
  before(event: CheckedEvent, state: CampaignState): void;
  /** `state` is the campaign with the event folded in. */
  after?(event: CheckedEvent, state: CampaignState): void;
}
