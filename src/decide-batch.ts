import { catalogue, type NewEvent } from "../events/index.js";
import { evolveAll } from "../projections/campaign.js";
import type { CampaignState } from "../projections/state.js";
import { checkCommand } from "./commands/schemas.js";
import { decide } from "./decide.js";
import type { Refusal } from "./rules/refusal.js";

export type BatchDecision =
  | { ok: true; events: NewEvent[] }
  | { ok: false; refusal: Refusal; /** which of the commands was refused */ index: number };

/**
 * Commands decided one after another against a state, each schema-checked before any rule runs and seeing the events
 * of those before it: the events of all of them, stamped with their version, actor and the clock's time, ready to be
 * appended as one batch; or the first refusal. Pure but for the clock, read once before the first command is decided:
 * every command of the batch is decided at, and every event stamped with, that one time.
 */
export function decideBatch(state: CampaignState, inputs: readonly unknown[], clock: () => Date): BatchDecision {
  const at = clock().toISOString();
  const drafts: Array<Pick<NewEvent, "type" | "data" | "actor">> = [];
  for (const [index, input] of inputs.entries()) {
    const checked = checkCommand(input);
    if (!checked.ok)
      return { ok: false, index, refusal: { kind: "field", field: checked.field, message: checked.message } };
    const decision = decide(state, checked.command, at);
    if (!decision.ok) return { ok: false, index, refusal: decision.refusal };
    let seq = state.seq;
    state = evolveAll(
      state,
      decision.events.map((event) => ({ ...event, seq: ++seq })),
    );
    drafts.push(...decision.events.map((event) => ({ ...event, actor: checked.command.actor })));
  }
  return {
    ok: true,
    events: drafts.map(({ type, data, actor }) => ({
      type,
      version: catalogue.definition(type)!.version,
      at,
      actor,
      data,
    })),
  };
}
