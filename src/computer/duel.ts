import type { Catalogue } from "../../events/common.js";
import { HOST } from "../../events/common.js";
import type { CampaignState } from "../../projections/state.js";
import { sequenceRandomHex } from "../client/prepare.js";
import { MemorySecrets } from "../client/secrets.js";
import { Table, type TableOptions } from "../client/table.js";
import { nextDecision } from "../demo/play.js";
import { hostBattleModel } from "../forecast/battle-model.js";
import { wilson, type Share } from "../forecast/report.js";
import { MemoryEngine } from "../engine/memory-engine.js";
import { describeRefusal } from "../rules/refusal.js";
import { setupCommands, type SetupFile } from "../setup/setup-file.js";
import type { ComputerLevel } from "./decide.js";
import type { SearchBudget } from "./search.js";
import { ComputerSeat, seatSees } from "./seat.js";

export interface DuelOptions {
  setup: SetupFile & { catalogue: Catalogue };
  /** The two levels; the first plays the set-up's first player in the even-numbered campaigns, the second in the odd. */
  levels: readonly [ComputerLevel, ComputerLevel];
  campaigns: number;
  /** The first campaign's number: a duel split in parts numbers its campaigns on from there. */
  first?: number;
  budget: SearchBudget;
  /** A campaign not won by then counts as undecided. */
  maxTurns: number;
  /** Called after each campaign. */
  onCampaign?: (record: DuelCampaign) => void;
}

export interface DuelCampaign {
  number: number;
  /** The level that played each player. */
  sides: Record<string, ComputerLevel>;
  /** The level that won, "draw", or null when undecided by maxTurns. */
  outcome: ComputerLevel | "draw" | null;
  turn: number;
  /**
   * Its battles resolved (B4): by the host's step with the battle model (a set-up whose `options.battles` is
   * "model"), or reported by the attacker, the model's result, and confirmed by the defender.
   */
  battles: { resolvedByModel: number; reported: number };
}

export interface LevelFigures {
  level: ComputerLevel;
  wins: number;
  /** The share of campaigns it won, with its 95% Wilson score interval. */
  winRate: Share;
  decisions: number;
  /** Milliseconds per decision: the mean and the longest. */
  meanDecision: number;
  longestDecision: number;
}

export interface DuelReport {
  campaigns: number;
  draws: number;
  undecided: number;
  levels: [LevelFigures, LevelFigures];
  records: DuelCampaign[];
}

/** No rule read in a duel reads the time but O2's deadline, which a duel never sets. */
const DUEL_CLOCK = () => new Date("2026-01-01T00:00:00Z");

/**
 * Computer against computer: each campaign made from the set-up in memory, each side a ComputerSeat of its own (its
 * own table, secrets and key, from its own view), the organiser's chores and steps taken by a third table, battles by
 * the forecast's model. The sides swap levels from one campaign to the next.
 */
export async function duel(options: DuelOptions): Promise<DuelReport> {
  const records: DuelCampaign[] = [];
  const times: Record<string, number[]> = Object.fromEntries(options.levels.map((level) => [level, []]));
  const first = options.first ?? 0;
  for (let number = first; number < first + options.campaigns; number++) {
    const record = await duelCampaign(options, number, times);
    records.push(record);
    options.onCampaign?.(record);
  }
  const figures = (level: ComputerLevel): LevelFigures => {
    const wins = records.filter((r) => r.outcome === level).length;
    const spent = times[level]!;
    return {
      level,
      wins,
      winRate: wilson(wins, records.length),
      decisions: spent.length,
      meanDecision: spent.length === 0 ? 0 : spent.reduce((a, b) => a + b, 0) / spent.length,
      longestDecision: Math.max(0, ...spent),
    };
  };
  return {
    campaigns: records.length,
    draws: records.filter((r) => r.outcome === "draw").length,
    undecided: records.filter((r) => r.outcome === null).length,
    levels: [figures(options.levels[0]), figures(options.levels[1])],
    records,
  };
}

async function duelCampaign(
  options: DuelOptions,
  number: number,
  times: Record<string, number[]>,
): Promise<DuelCampaign> {
  const { setup } = options;
  const engine = new MemoryEngine(DUEL_CLOCK);
  const created = await engine.execute(
    setup.campaign,
    setupCommands(setup).map((step) => step.command),
  );
  if (!created.ok) throw new Error(`the set-up was refused: ${describeRefusal(created.refusal)}`);
  const players = setup.players.map((p) => p.id);
  const [a, b] = number % 2 === 0 ? options.levels : [options.levels[1], options.levels[0]];
  const sides: Record<string, ComputerLevel> = { [players[0]!]: a, [players[1]!]: b };
  const tableFor = (party: string, secrets: MemorySecrets, extra: Partial<TableOptions> = {}) =>
    new Table(engine, setup.campaign, {
      parties: new Set([party]),
      secrets,
      random: sequenceRandomHex(`duel/${number}/${party}`),
      ...extra,
    });
  // B4: where the set-up's battles are the model's, the host's step resolves each, as a server's host does.
  const host = tableFor(HOST, new MemorySecrets(), { battleModel: hostBattleModel });
  const computers = players.map((player) => {
    const secrets = new MemorySecrets();
    return new ComputerSeat(
      player,
      tableFor(player, secrets),
      secrets,
      { level: sides[player]!, battles: "model", budget: options.budget },
      options.budget.now,
      seatSees(player),
    );
  });
  let state: CampaignState = await engine.state(setup.campaign);
  while (state.status === "active" && state.turn <= options.maxTurns) {
    const before = state.seq;
    await host.takeChores();
    for (const computer of computers)
      for (const step of await computer.play()) times[sides[computer.seat]!]!.push(step.thought);
    state = await engine.state(setup.campaign);
    const organiser = nextDecision(state);
    if (organiser?.actor === HOST) {
      const outcome = await host.submit(organiser);
      if (!outcome.ok)
        throw new Error(`the organiser's ${organiser.type} was refused: ${describeRefusal(outcome.refusal)}`);
      state = await engine.state(setup.campaign);
    }
    if (state.seq === before)
      throw new Error(
        `duel campaign ${number} is stuck in turn ${state.turn} (${state.phase}): nobody has a step to take`,
      );
  }
  const winner = state.result?.winner;
  const resolved = Object.values(state.battles).filter((battle) => battle.status === "resolved");
  const resolvedByModel = resolved.filter((battle) => battle.resolvedBy === "model").length;
  return {
    number,
    sides,
    outcome: state.status !== "finished" ? null : winner ? sides[winner]! : "draw",
    turn: state.turn,
    battles: { resolvedByModel, reported: resolved.length - resolvedByModel },
  };
}
