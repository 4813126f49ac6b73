import type { EventData } from "../events/index.js";
import type { KitDie } from "../events/kit-common.js";
import { MODEL_DIE_SIDES } from "../events/common.js";
import { rollDie } from "../src/crypto/dice.js";
import type { CheckedEvent } from "./audit-advanced.js";
import { VERDICTS, type KitRollAudit, type TurnSeed, type Verdict } from "./audit-report.js";
import {
  rollOrderProblem,
  seedOfRoll,
  type BasicCheck,
  type TurnBook,
  type TurnSection,
  type TurnWork,
} from "./audit-turns.js";

/**
 * D1 for the battle kit (K2, K3, K5): every kit roll draws the turn's next dice, and once the host's seed is out each
 * of its dice must be what the seeds give for its index and sides. The report lists the rolls among their turn's,
 * each with its battle. What a roll means (its scenario, band, saves, hits) is decided again from its dice by the
 * derived audit (audit-derived.ts), with the rules' own tables.
 */

const KIT_ROLL_TYPES = [
  "ScenarioRolled",
  "BattleConditionsRolled",
  "GravityFluxRolled",
  "WhiteOutRolled",
  "SavesRolled",
  "BarrageRolled",
] as const;
type KitRollType = (typeof KIT_ROLL_TYPES)[number];
const isKitRoll = (type: string): type is KitRollType => (KIT_ROLL_TYPES as readonly string[]).includes(type);

/** What each roll is, in the report's words. */
function describe(type: KitRollType, data: EventData<KitRollType>): string {
  switch (type) {
    case "ScenarioRolled":
      return "scenario (K2)";
    case "BattleConditionsRolled":
      return "conditions (K3)";
    case "GravityFluxRolled":
      return `Gravity Flux after battle turn ${(data as EventData<"GravityFluxRolled">).battleTurn} (K3)`;
    case "WhiteOutRolled":
      return `white-out at battle turn ${(data as EventData<"WhiteOutRolled">).battleTurn} (K3)`;
    case "SavesRolled":
      return `saves of volley ${(data as EventData<"SavesRolled">).volley} (K5)`;
    case "BarrageRolled":
      return `barrage ${(data as EventData<"BarrageRolled">).barrage} (K5)`;
  }
}

/** A roll of the turn's dice: a kit roll, or the dice the battle model read for a result (B4), as d10s. */
function diceRollOf(
  event: CheckedEvent,
): { turn: number; battle: string; what: string; firstDie: number; dice: KitDie[] } | null {
  if (isKitRoll(event.type)) {
    const data = event.data as EventData<KitRollType>;
    return { ...data, what: describe(event.type, data) };
  }
  if (event.type !== "BattleResolved") return null;
  const data = event.data as EventData<"BattleResolved">;
  if (data.resolvedBy !== "model" || data.firstDie === undefined || !data.dice) return null;
  return {
    turn: data.turn,
    battle: data.battle,
    what: "result by the battle model (B4)",
    firstDie: data.firstDie,
    dice: data.dice.map((face) => ({ sides: MODEL_DIE_SIDES, face })),
  };
}

interface KitRollWork {
  seq: number;
  battle: string;
  what: string;
  firstDie: number;
  dice: KitDie[];
  diceBefore: number;
  seeds: Map<string, { seed: string; seq: number }>;
  /** Set when the roll names another turn than the one under way. */
  wrongTurn: number | null;
}

export class KitRollCheck implements BasicCheck {
  private readonly rolls = new Map<number, KitRollWork[]>();

  constructor(private readonly book: TurnBook) {}

  before(event: CheckedEvent): void {
    const data = diceRollOf(event);
    if (!data) return;
    const turn = this.book.current;
    if (!turn || turn.ended) {
      this.book.report(turn ?? null, {
        verdict: VERDICTS.rollMismatch,
        rule: "D1",
        seqs: [event.seq],
        detail: `battle ${data.battle}'s ${data.what} was rolled (seq ${event.seq}) outside a turn under way`,
      });
      return;
    }
    const work: KitRollWork = {
      seq: event.seq,
      battle: data.battle,
      what: data.what,
      firstDie: data.firstDie,
      dice: data.dice,
      diceBefore: turn.diceUsed,
      seeds: this.book.seedsNow(turn),
      wrongTurn: data.turn === turn.turn ? null : data.turn,
    };
    this.rolls.set(turn.turn, [...(this.rolls.get(turn.turn) ?? []), work]);
    turn.diceUsed = Math.max(turn.diceUsed, data.firstDie + data.dice.length);
  }

  finishTurn(turn: TurnWork, section: TurnSection): void {
    for (const roll of this.rolls.get(turn.turn) ?? []) section.rolls.push(this.finishRoll(turn, roll, section.seed));
  }

  private finishRoll(turn: TurnWork, roll: KitRollWork, turnSeed: TurnSeed): KitRollAudit {
    const seed = seedOfRoll(turn.reseeded?.seq, roll.seq, turnSeed);
    const campaign = this.book.campaign ?? "";
    const playerSeeds = this.book.playerSeeds(roll.seeds);
    const base = {
      kind: "kit" as const,
      seq: roll.seq,
      battle: roll.battle,
      what: roll.what,
      firstDie: roll.firstDie,
      lastDie: roll.firstDie + roll.dice.length - 1,
      dice: roll.dice,
      inputs: { campaign, turn: turn.turn, hostSeed: turn.ended?.hostSeed ?? null, playerSeeds },
    };
    const where = `battle ${roll.battle}'s ${roll.what} (seq ${roll.seq})`;
    const fail = (verdict: Verdict, detail: string | null, recomputed: number[] | null = null): KitRollAudit => {
      if (detail)
        this.book.report(turn, {
          verdict,
          rule: "D1",
          seqs: [roll.seq, ...(turn.ended ? [turn.ended.seq] : [])],
          detail,
        });
      return { ...base, recomputed, status: "failed", verdict };
    };
    if (roll.wrongTurn !== null)
      return fail(VERDICTS.rollMismatch, `${where} names turn ${roll.wrongTurn} in turn ${turn.turn}`);
    const problem = rollOrderProblem(where, roll, turn.turn, playerSeeds);
    if (problem) return fail(VERDICTS.rollMismatch, problem);
    if (seed.hostSeed === null)
      return seed.status === "pending"
        ? { ...base, recomputed: null, status: "pending", verdict: seed.verdict }
        : fail(seed.verdict, null);
    const seeds = { campaign, turn: turn.turn, hostSeed: seed.hostSeed, playerSeeds: playerSeeds.map((s) => s.seed!) };
    const recomputed = roll.dice.map((die, i) => rollDie(seeds, roll.firstDie + i, die.sides));
    const recorded = roll.dice.map((die) => die.face);
    if (recomputed.some((face, i) => face !== recorded[i]))
      return fail(
        VERDICTS.rollMismatch,
        `${where} records ${recorded.join(", ")} but the seeds give ${recomputed.join(", ")} (host seed revealed at seq ${seed.endedSeq})`,
        recomputed,
      );
    return { ...base, recomputed, status: "ok", verdict: VERDICTS.ok };
  }
}
