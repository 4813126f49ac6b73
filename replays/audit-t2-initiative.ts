import type { EventData } from "../events/index.js";
import { rollInitiative } from "../src/crypto/dice.js";
import type { CheckedEvent } from "./audit-advanced.js";
import { VERDICTS, type InitiativeRollAudit, type TurnSeed, type Verdict } from "./audit-report.js";
import type { ScoutingAudit } from "./audit-scouting.js";
import {
  describeRounds,
  type BasicCheck,
  type RollWork,
  type TurnBook,
  type TurnSection,
  type TurnWork,
  rollOrderProblem,
  seedOfRoll,
} from "./audit-turns.js";

/**
 * T2 and the dice of D1: the players' seeds given in a turn, the initiative roll recomputed from the seeds once the
 * host has revealed its own (each roll draws the turn's next dice, which a scouting roll draws too: A3), and who
 * activates first chosen by the initiative winner. A seed given outside a turn under way, or before the host's
 * commitment in force, is a finding.
 */
export class InitiativeCheck implements BasicCheck {
  constructor(
    private readonly book: TurnBook,
    /** The scouting check, which recomputes the scouting rolls that draw the same dice. */
    private readonly scouting: ScoutingAudit,
  ) {}

  before(event: CheckedEvent): void {
    switch (event.type) {
      case "PlayerSeedGiven":
        return this.seedGiven(event.seq, event.data);
      case "InitiativeRolled":
        return this.initiativeRolled(event.seq, event.data);
      case "FirstPlayerChosen":
        return this.firstChosen(event.seq, event.data);
      case "ScoutingRolled":
        return this.scoutingRolled(event.seq, event.data);
      default:
        return;
    }
  }

  /** The turn's initiative rolls recomputed, and the players' seeds in force checked against the host's commitment. */
  finishTurn(turn: TurnWork, section: TurnSection): void {
    section.rolls.push(...turn.rolls.map((roll) => this.finishRoll(turn, roll, section.seed)));
    // The seeds in force: the latest of each player before the roll (or now), given after the commitment in force.
    const seedsUsed = turn.rolls[0]?.seeds ?? this.book.seedsNow(turn);
    const inForce = turn.rolls[0]?.commitmentSeq ?? turn.starts[turn.starts.length - 1]!.seq;
    for (const [player, given] of seedsUsed) {
      if (given.seq < inForce) {
        this.book.report(turn, {
          verdict: VERDICTS.seedBeforeCommit,
          player,
          seqs: [given.seq, inForce],
          detail: `${player}'s seed in use (seq ${given.seq}) was given before the host's commitment in force (TurnStarted seq ${inForce}): the host chose its seed knowing it`,
        });
      }
    }
  }

  private seedGiven(seq: number, data: { turn: number; player: string; seed: string }): void {
    const turn = this.book.current;
    if (!turn || turn.turn !== data.turn || turn.ended) {
      this.book.report(turn && turn.turn === data.turn ? turn : null, {
        verdict: VERDICTS.seedBeforeCommit,
        player: data.player,
        seqs: [seq],
        detail: `${data.player} gave a seed for turn ${data.turn} (seq ${seq}) when the host had no commitment for that turn in force`,
      });
      return;
    }
    turn.seeds.push({ player: data.player, seed: data.seed, seq });
  }

  private initiativeRolled(
    seq: number,
    data: { turn: number; firstDie: number; rounds: Array<Record<string, number>>; winner: string },
  ): void {
    const turn = this.book.current;
    if (!turn || turn.ended) {
      this.book.report(null, {
        verdict: VERDICTS.rollMismatch,
        seqs: [seq],
        detail: `initiative for turn ${data.turn} rolled (seq ${seq}) outside a turn under way`,
      });
      return;
    }
    const earlier = turn.rolls[0];
    if (earlier) {
      this.book.report(turn, {
        verdict: VERDICTS.rolledTwice,
        seqs: [seq, earlier.seq],
        detail: `initiative for turn ${turn.turn} was rolled again (seq ${seq}) after seq ${earlier.seq}: a roll is made once`,
      });
    }
    const commitment = turn.starts[turn.starts.length - 1]!;
    turn.rolls.push({
      seq,
      firstDie: data.firstDie,
      diceBefore: turn.diceUsed,
      rounds: data.rounds,
      winner: data.winner,
      seeds: this.book.seedsNow(turn),
      commitmentSeq: commitment.seq,
      formProblem:
        data.turn === turn.turn
          ? this.initiativeForm(data.rounds, data.winner)
          : `it names turn ${data.turn} in turn ${turn.turn}`,
    });
    turn.diceUsed += data.rounds.length * this.book.players.length;
  }

  /** A3, D1: a scouting roll draws the turn's next dice, four a round; the scouting check recomputes them. */
  private scoutingRolled(seq: number, data: EventData<"ScoutingRolled">): void {
    const turn = this.book.current;
    if (!turn || turn.ended || turn.turn !== data.turn) {
      this.book.report(turn ?? null, {
        verdict: VERDICTS.scoutingMismatch,
        rule: "A3",
        seqs: [seq],
        detail: `scouting ${data.scouting} rolled (seq ${seq}) outside turn ${data.turn} under way`,
      });
      return;
    }
    const seeds = this.book.seedsNow(turn);
    const playerSeeds = this.book.players.map((player) => ({
      player,
      seed: seeds.get(player)?.seed ?? null,
      seq: seeds.get(player)?.seq ?? null,
    }));
    this.scouting.rolled(seq, data, { diceBefore: turn.diceUsed, playerSeeds });
    turn.diceUsed = Math.max(turn.diceUsed, data.firstDie + 4 * data.rounds.length);
  }

  /** T2: what makes recorded rounds impossible whatever the seeds: a missing die, a reroll after a win, a tie last. */
  private initiativeForm(rounds: ReadonlyArray<Record<string, number>>, winner: string): string | null {
    const players = this.book.players;
    for (const [i, round] of rounds.entries()) {
      const keys = Object.keys(round);
      if (keys.length !== players.length || !players.every((p) => Number.isInteger(round[p]))) {
        return `round ${i + 1} does not give exactly one die to each player`;
      }
      const values = players.map((p) => round[p]!);
      const tie = new Set(values).size !== values.length;
      if (i < rounds.length - 1 && !tie) return `round ${i + 1} is not a tie, yet it was rerolled`;
      if (i === rounds.length - 1 && tie) return "the last round is a tie, yet nobody rerolled";
    }
    const last = rounds[rounds.length - 1];
    if (!last) return "it has no rounds";
    const best = players.reduce((a, b) => (last[b]! > last[a]! ? b : a));
    return best === winner ? null : `it names ${winner} the winner, but ${best} rolled highest`;
  }

  private firstChosen(seq: number, data: { chosenBy: string; first: string }): void {
    const turn = this.book.current;
    if (!turn || turn.ended) return;
    const roll = turn.rolls[0];
    const problem = !roll
      ? "before initiative was rolled"
      : data.chosenBy !== roll.winner
        ? `by ${data.chosenBy}, but ${roll.winner} won the initiative (seq ${roll.seq})`
        : turn.first
          ? `a second time (first chosen at seq ${turn.first.seq})`
          : !this.book.players.includes(data.first)
            ? `naming ${data.first}, who is not a player`
            : null;
    if (problem) {
      this.book.report(turn, {
        verdict: VERDICTS.firstChosenWrongly,
        player: data.chosenBy,
        seqs: [seq, ...(roll ? [roll.seq] : [])],
        detail: `who activates first was chosen ${problem}`,
      });
    }
    if (!turn.first) turn.first = { seq, first: data.first };
  }

  private finishRoll(turn: TurnWork, roll: RollWork, turnSeed: TurnSeed): InitiativeRollAudit {
    const seed = seedOfRoll(turn.reseeded?.seq, roll.seq, turnSeed);
    const campaign = this.book.campaign ?? "";
    const players = this.book.players;
    const playerSeeds = this.book.playerSeeds(roll.seeds);
    const base = {
      kind: "initiative" as const,
      seq: roll.seq,
      firstDie: roll.firstDie,
      lastDie: roll.firstDie + roll.rounds.length * players.length - 1,
      rounds: roll.rounds,
      winner: roll.winner,
      inputs: { campaign, turn: turn.turn, hostSeed: turn.ended?.hostSeed ?? null, playerSeeds },
    };
    const fail = (
      verdict: Verdict,
      detail: string | null,
      recomputed: InitiativeRollAudit["recomputed"] = null,
    ): InitiativeRollAudit => {
      if (detail)
        this.book.report(turn, { verdict, seqs: [roll.seq, ...(turn.ended ? [turn.ended.seq] : [])], detail });
      return { ...base, recomputed, status: "failed", verdict };
    };
    const where = `initiative (seq ${roll.seq})`;
    if (roll.formProblem) return fail(VERDICTS.rollMismatch, `${where} is not a possible roll: ${roll.formProblem}`);
    const problem = rollOrderProblem(where, roll, turn.turn, playerSeeds);
    if (problem) return fail(VERDICTS.rollMismatch, problem);
    if (seed.hostSeed === null)
      return seed.status === "pending"
        ? { ...base, recomputed: null, status: "pending", verdict: seed.verdict }
        : fail(seed.verdict, null);
    const seeds = { campaign, turn: turn.turn, hostSeed: seed.hostSeed, playerSeeds: playerSeeds.map((s) => s.seed!) };
    const recomputed = rollInitiative(seeds, players, roll.firstDie);
    const same =
      recomputed.length === roll.rounds.length &&
      recomputed.every((round, i) => players.every((p) => round[p] === roll.rounds[i]![p])) &&
      players.reduce((a, b) =>
        recomputed[recomputed.length - 1]![b]! > recomputed[recomputed.length - 1]![a]! ? b : a,
      ) === roll.winner;
    if (!same) {
      return fail(
        VERDICTS.rollMismatch,
        `${where} records ${describeRounds(players, roll.rounds)} but the seeds give ${describeRounds(players, recomputed)} (host seed revealed at seq ${seed.endedSeq})`,
        recomputed,
      );
    }
    return { ...base, recomputed, status: "ok", verdict: VERDICTS.ok };
  }
}
