import type { DomainEvent } from "../../events/index.js";
import { ORGANISER } from "../../events/common.js";
import type { CampaignState } from "../../projections/state.js";
import type { Command, CommandOf } from "../engine/command-schemas.js";
import { requireActionPhase, requireHostActor } from "./action-common.js";
import { requireSetup } from "./guards.js";
import { refuseField, refuseRule, type Refusal } from "./refusal.js";

/**
 * The organiser's tools (docs/rulings.md O1, O2): pausing the campaign and a deadline for the Action phase. They read
 * only what every seat sees (no order, salt or seed), and the time they compare is the command's recorded time, the
 * clock the command handler stamps its events with: never the clock of the machine deciding.
 */

/**
 * O1: what a paused campaign says to every command but ResumeCampaign and the organiser's registration of its own key
 * (D2), which comes with the organiser's first command, its resume included; undefined while it is not paused.
 */
export function pausedRefusal(state: CampaignState, command: Command): Refusal | undefined {
  if (!state.paused || command.type === "ResumeCampaign") return undefined;
  if (command.type === "RegisterSeatKey" && command.role === ORGANISER) return undefined;
  const why = state.paused.reason === undefined ? "" : ` (${state.paused.reason})`;
  return {
    kind: "rule",
    rule: "O1",
    message: `the host paused the campaign at seq ${state.paused.seq}${why}: it accepts no ${command.type} until the host resumes it (ResumeCampaign)`,
  };
}

/** O1: the host pauses the campaign, once set up and until it resumes; a finished campaign takes no command at all. */
export function decidePauseCampaign(state: CampaignState, command: CommandOf<"PauseCampaign">): DomainEvent[] {
  requireSetup(state);
  requireHostActor(command.actor);
  return [{ type: "CampaignPaused", data: command.reason === undefined ? {} : { reason: command.reason } }];
}

/** O1: the host resumes a paused campaign. */
export function decideResumeCampaign(state: CampaignState, command: CommandOf<"ResumeCampaign">): DomainEvent[] {
  requireSetup(state);
  requireHostActor(command.actor);
  if (!state.paused) refuseRule("O1", "the campaign is not paused: there is nothing to resume");
  return [{ type: "CampaignResumed", data: {} }];
}

/**
 * A date-time of the commands' pattern as a UTC instant, or undefined when it names no real moment (30 February, hour
 * 25): Date.parse would roll 30 February over to 2 March, so the instant is written back at the text's own offset and
 * must give the same date and time of day.
 */
function instantOf(text: string): Date | undefined {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return undefined;
  const offset = /([+-])(\d{2}):(\d{2})$/.exec(text);
  const minutes = offset ? (offset[1] === "-" ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3])) : 0;
  const local = new Date(ms + minutes * 60_000).toISOString();
  return local.slice(0, 19) === text.slice(0, 19) ? new Date(ms) : undefined;
}

/**
 * O2: the host sets the deadline of the current turn's Action phase, or moves it, to a moment after the command's
 * recorded time `at`. It is kept in UTC, so that every reader compares the same instant.
 */
export function decideSetActionDeadline(
  state: CampaignState,
  command: CommandOf<"SetActionDeadline">,
  at: string,
): DomainEvent[] {
  requireSetup(state);
  requireHostActor(command.actor);
  requireActionPhase(state, "O2");
  const deadline = instantOf(command.at);
  if (!deadline) refuseField("at", `${command.at} is no real date and time: write one such as 2026-03-01T18:00:00Z`);
  if (deadline.getTime() <= Date.parse(at))
    refuseField("at", `the deadline ${deadline.toISOString()} has passed: it must be later than now (${at})`);
  return [{ type: "ActionDeadlineSet", data: { turn: state.turn, deadline: deadline.toISOString() } }];
}

/** O2: the deadline of the Action phase under way when it has passed at the command's recorded time `at`. */
export function passedDeadline(state: CampaignState, at: string): string | undefined {
  const deadline = state.turnState?.actionDeadline;
  return deadline !== undefined && Date.parse(at) >= Date.parse(deadline) ? deadline : undefined;
}
