import type { DomainEvent } from "../../events/index.js";
import type { CampaignState } from "../../projections/state.js";
import { checkCommand } from "../engine/command-schemas.js";
import { decide } from "../engine/decide.js";
import { predict } from "../rules/phases.js";
import type { PlainCommand } from "./plain-command.js";

/** No rule deciding the End phase choices checked here reads the time (only O2's deadline does): any serves. */
const ANY_TIME = new Date(0).toISOString();

/**
 * The state a command would leave if the rules accepted it now, else undefined: the demo's players check a choice
 * against the rules before they make it. Only for commands without secrets (End phase choices), which go to the
 * engine as written.
 */
export function outcomeOf(state: CampaignState, command: PlainCommand): CampaignState | undefined {
  const decision = decided(state, command);
  return decision ? predict(state, decision) : undefined;
}

/** The events of the command if the rules accept it now, else undefined. */
function decided(state: CampaignState, command: PlainCommand): DomainEvent[] | undefined {
  const checked = checkCommand(command);
  if (!checked.ok) return undefined;
  const decision = decide(state, checked.command, ANY_TIME);
  return decision.ok ? decision.events : undefined;
}

/** Whether the rules accept the command now (without working out the state it would leave). */
export function allowed(state: CampaignState, command: PlainCommand): boolean {
  return decided(state, command) !== undefined;
}

/** The first of the candidates the rules accept now. */
export function firstAllowed(state: CampaignState, candidates: Iterable<PlainCommand>): PlainCommand | undefined {
  for (const command of candidates) if (allowed(state, command)) return command;
  return undefined;
}
