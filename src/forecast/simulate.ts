import type { DomainEvent } from "../../events/index.js";
import type { CampaignState } from "../../projections/state.js";
import { dueChores } from "../client/chores.js";
import { prepareCommand } from "../client/prepare.js";
import type { MemorySecrets } from "../client/secrets.js";
import { seatsOf } from "../client/seats.js";
import type { Command } from "../engine/command-schemas.js";
import { decide } from "../engine/decide.js";
import { seededRandom } from "../demo/rng.js";
import type { PlainCommand } from "../demo/plain-command.js";
import { nextDecision } from "../demo/play.js";
import { workingCopy } from "../../projections/working-copy.js";
import { foldDecided } from "../rules/phases.js";
import { describeRefusal } from "../rules/refusal.js";
import { hostBattleModel, modelResult } from "./battle-model.js";
import { POLICIES, type Policy, type PolicyName } from "./policies.js";
import { randomHexFrom, sampledStart, type ForecastStart } from "./start.js";

/** What one simulated campaign came to. */
export interface RunRecord {
  run: number;
  /** The winner's id, "draw", or null when the run stopped before the campaign ended. */
  outcome: string | null;
  /** The turn the campaign ended in, or null. */
  endTurn: number | null;
  /** Each player's CVPs at the end of each simulated turn, by turn. */
  cvps: Record<number, Record<string, number>>;
  /** How often each objective (by id) and home base (`home:PLAYER`) changed hands. */
  captures: Record<string, number>;
  /** Campaign turns simulated (the one under way at the start counts). */
  turns: number;
}

export interface RunOptions {
  policy: PolicyName;
  seed: string;
  /** The last turn simulated: a run that has not ended by then stops undecided. */
  lastTurn: number;
}

/** No rule the simulation reaches reads the time but O2's deadline: every command is decided at one fixed time. */
const SIMULATION_TIME = new Date(0).toISOString();

/** A command the real rules refused inside a simulation: a fault of the simulation, never of the campaign. */
export class SimulationError extends Error {
  override readonly name = "SimulationError";
}

type Decided = { ok: true; state: CampaignState; events: DomainEvent[] } | { ok: false; reason: string };

/** How a run holds its state, and folds each decided command's events into it. */
export interface StateKeeping {
  hold(state: CampaignState): CampaignState;
  fold(state: CampaignState, events: readonly DomainEvent[]): CampaignState;
}

/** A working copy, each command's events folded into it where it stands (projections/working-copy.ts). */
export const IN_PLACE: StateKeeping = { hold: workingCopy, fold: foldDecided };

/** The state as it is, each command's events folded through immer into a new frozen state, as the engine folds. */
export const FROZEN: StateKeeping = { hold: (state) => state, fold: foldDecided };

/**
 * The real rules on a state in memory: the command decided (decide) and its events folded (foldDecided), no log. The
 * schema check that guards the engine from outside input is left out: every command here is built by this module, the
 * policies and the players' side of the protocol, never read from outside, and every rule still runs on it.
 */
function applyCommand(state: CampaignState, command: Command, keeping: StateKeeping): Decided {
  const decision = decide(state, command, SIMULATION_TIME);
  if (!decision.ok) return { ok: false, reason: describeRefusal(decision.refusal) };
  return { ok: true, state: keeping.fold(state, decision.events), events: decision.events };
}

/** The Battle phase's next step: the attacker reports the modelled result, the defender confirms it. */
export function battleDecision(state: CampaignState, random: () => number): PlainCommand | undefined {
  const battle = Object.values(state.battles)
    .filter((b) => b.turn === state.turn && b.status !== "resolved")
    .sort((a, b) => a.index - b.index)[0];
  if (!battle) return undefined;
  if (battle.status === "pending")
    return {
      actor: battle.attacker.player,
      type: "ReportBattleResult",
      battle: battle.id,
      result: modelResult(state, battle, random),
    };
  const confirmer = battle.report!.by === battle.attacker.player ? battle.defender.player : battle.attacker.player;
  return { actor: confirmer, type: "ConfirmBattleResult", battle: battle.id };
}

/**
 * Plays one run of a forecast: hidden values drawn (sampledStart), then both sides' decisions from the policy, battles
 * from the model and every other step through the real rules, until the campaign ends or `lastTurn` is over. Every
 * draw comes from the stream of `seed` and the run's number, so a run comes out the same wherever it is played.
 * `keeping`: how the run holds and folds its state; FROZEN plays it as the engine folds, to check that IN_PLACE comes
 * out the same.
 */
export async function simulateRun(
  start: ForecastStart,
  run: number,
  options: RunOptions,
  keeping: StateKeeping = IN_PLACE,
): Promise<RunRecord> {
  const random = seededRandom(`${options.seed}/${run}`);
  const sampled = await sampledStart(start, random);
  // The run alone holds its state: by default a working copy, each command's events folded into it in place.
  const policy = POLICIES[options.policy];
  // A random choice the rules refuse is made again by the scripted commanders.
  const fallback = options.policy === "scripted" ? undefined : nextDecision;
  const { record } = await playOn(keeping.hold(sampled.state), sampled.secrets, {
    run,
    random,
    lastTurn: options.lastTurn,
    policy,
    ...(fallback ? { fallback } : {}),
    keeping,
  });
  return record;
}

export interface PlayOnOptions {
  run: number;
  /** The run's random stream: its seeds and salts, its battles, the policy's draws. */
  random: () => number;
  lastTurn: number;
  policy: Policy;
  /** Where the policy's choice is refused, the choice made instead. */
  fallback?: (state: CampaignState) => PlainCommand | undefined;
  keeping?: StateKeeping;
  /** Where the run stops before `lastTurn` is over: once this holds of its state. */
  until?: (state: CampaignState) => boolean;
}

/**
 * Plays a campaign on in memory from a state held for the run (its secrets those of every party): the protocol's
 * chores, battles by the model and the policy's decisions, through the real rules, until the campaign ends or
 * `lastTurn` is over. Returns the state it came to and the run's record.
 */
export async function playOn(
  held: CampaignState,
  secrets: MemorySecrets,
  options: PlayOnOptions,
): Promise<{ state: CampaignState; record: RunRecord }> {
  const { run, random, policy } = options;
  const keeping = options.keeping ?? IN_PLACE;
  const hex = randomHexFrom(random);
  let state = held;
  const parties = new Set(seatsOf(state));
  const record: RunRecord = { run, outcome: null, endTurn: null, cvps: {}, captures: {}, turns: 0 };
  const firstTurn = state.turn;

  const step = async (written: PlainCommand, fallback?: () => PlainCommand | undefined): Promise<void> => {
    // B4: where the campaign resolves its battles by the model, the host's step draws each as the real host's does.
    const prepared = await prepareCommand(state, written, secrets, hex, hostBattleModel);
    await prepared.keep();
    const decided = applyCommand(state, prepared.command as Command, keeping);
    const instead = !decided.ok && fallback?.();
    if (instead) return step(instead);
    if (!decided.ok)
      throw new SimulationError(`run ${run}: ${written.actor}'s ${written.type} was refused: ${decided.reason}`);
    state = decided.state;
    for (const event of decided.events) observe(record, event);
  };

  while (state.status === "active" && state.turn <= options.lastTurn && !options.until?.(state)) {
    const chores = dueChores(state, parties);
    if (chores.length > 0) {
      for (const chore of chores) await step(chore as PlainCommand);
      continue;
    }
    if (state.phase === "battle") {
      const report = battleDecision(state, random);
      if (!report) throw new SimulationError(`run ${run}: the Battle phase of turn ${state.turn} has nothing to do`);
      await step(report);
      continue;
    }
    const decision = policy(state, random);
    if (!decision)
      throw new SimulationError(`run ${run}: nobody has a decision to make in turn ${state.turn} (${state.phase})`);
    const fallback = options.fallback;
    await step(decision, fallback ? () => fallback(state) : undefined);
  }
  record.turns = Math.max(0, Math.min(state.turn, options.lastTurn) - firstTurn + 1);
  if (state.result) {
    record.outcome = state.result.winner ?? "draw";
    record.endTurn = state.result.turn;
  }
  return { state, record };
}

function observe(record: RunRecord, event: DomainEvent): void {
  if (event.type === "TurnEnded") record.cvps[event.data.turn] = event.data.cvps;
  if (event.type === "ObjectiveCaptured") {
    const key = event.data.kind === "homeBase" ? `home:${event.data.objective}` : event.data.objective;
    record.captures[key] = (record.captures[key] ?? 0) + 1;
  }
}
