import { catalogue, type NewEvent } from "../../events/index.js";
import { evolveAll } from "../../projections/campaign.js";
import type { CampaignState } from "../../projections/state.js";
import { checkCommand } from "./command-schemas.js";
import { decide } from "./decide.js";
import type { Refusal } from "../rules/refusal.js";
import { checkSignature, type SignatureCheck } from "../rules/seat-keys.js";

/** Where a batch is appended and how signatures are checked (D2): its commands are signed for this line. */
export interface BatchLine {
  /** The stream the batch is appended to: the campaign's own, or a branch's. */
  line: string;
  verify: SignatureCheck;
}

export type BatchDecision =
  | {
      ok: true;
      events: NewEvent[];
      /** the state the events leave, folded as they were decided */ state: CampaignState;
    }
  | { ok: false; refusal: Refusal; /** which of the commands was refused */ index: number };

/**
 * Commands decided one after another against a state, each schema-checked before any rule runs and seeing the events
 * of those before it: the events of all of them, stamped with their version, actor and the clock's time, ready to be
 * appended as one batch; or the first refusal. Pure but for the clock, read once before the first command is decided:
 * every command of the batch is decided at, and every event stamped with, that one time.
 */
export function decideBatch(
  state: CampaignState,
  inputs: readonly unknown[],
  clock: () => Date,
  { line, verify }: BatchLine,
): BatchDecision {
  const at = clock().toISOString();
  // D2: every command of a batch is signed at the seq the batch is decided on.
  const point = { line, seq: state.seq };
  const drafts: Array<Pick<NewEvent, "type" | "data" | "actor" | "command">> = [];
  for (const [index, input] of inputs.entries()) {
    const checked = checkCommand(input);
    if (!checked.ok)
      return { ok: false, index, refusal: { kind: "field", field: checked.field, message: checked.message } };
    // The rules first: a command they refuse is refused for what it asks, signed or not.
    const decision = decide(state, checked.command, at);
    if (!decision.ok) return { ok: false, index, refusal: decision.refusal };
    const signature = checkSignature(state, checked.command, point, verify);
    if (!signature.ok) return { ok: false, index, refusal: signature.refusal };
    let seq = state.seq;
    state = evolveAll(
      state,
      decision.events.map((event) => ({ ...event, seq: ++seq })),
    );
    // The command's first event keeps it as signed; the events it goes on to write follow from it (the audit
    // decides the command again).
    drafts.push(
      ...decision.events.map((event, i) => ({
        ...event,
        actor: checked.command.actor,
        ...(i === 0 && signature.signed ? { command: signature.signed } : {}),
      })),
    );
  }
  return {
    ok: true,
    state,
    events: drafts.map(({ type, data, actor, command }) => ({
      type,
      version: catalogue.definition(type)!.version,
      at,
      actor,
      ...(command ? { command } : {}),
      data,
    })),
  };
}
