import { pts } from "../src/rules/refusal.js";
import type { EventData } from "../events/index.js";
import { advancedRule } from "../projections/advanced.js";
import { BLUFF_MARGIN, scoutingBand, type ScoutingBandName } from "../projections/scouting.js";
import type { CampaignState } from "../projections/state.js";
import { orderCommitment } from "../src/crypto/commitments.js";
import { rollScouting, type ScoutingRound } from "../src/crypto/dice.js";
import { canonicalJson } from "../src/crypto/commitments.js";
import { hasScoutUnits } from "../src/rules/scouting.js";
import {
  ADVANCED_VERDICTS as V,
  type AdvancedCheck,
  type AdvancedFinding,
  type CheckedEvent,
  type ReportAdvanced,
} from "./audit-advanced.js";
import type { RollAuditBase, ScoutingRollAudit, TurnSeed } from "./audit-report.js";
import { seedOfRoll } from "./audit-turns.js";

/**
 * A3 scouting, after the fact: the scout's revealed Advance and the scouted army's revealed First Fire must hash to the
 * commitments their activations carry; the bonuses must be the ones the roster and the reveal earn; the dice must be
 * the next unused ones of the turn and, once the host's seed is out, recompute from the seeds; the band follows from the
 * rolls and bonuses; and the size the scouted player stated must lie within that band around the army's true points
 * when it was stated. Each roll is listed among its turn's rolls in the report, pending while the host's seed is secret.
 */

interface ScoutingWork {
  id: string;
  seq: number;
  army: string;
  target: string;
  targetPlayer: string;
  scoutBonus: number;
  scoutedBonus: number | null;
  /** The band the recorded dice and bonuses give (null while not rolled, or when the dice are malformed). */
  band: ScoutingBandName | null;
  rolledSeq: number | null;
}

type PlayerSeeds = RollAuditBase["inputs"]["playerSeeds"];

/** A scouting roll kept until the host's seed of its turn is revealed. */
interface RollWork {
  seq: number;
  scouting: string;
  army: string | null;
  target: string | null;
  firstDie: number;
  rounds: ScoutingRound[];
  band: ScoutingBandName;
  /** The bonuses of its declaration and answer; null when it was rolled before both. */
  bonuses: { scout: number; scouted: number } | null;
  /** The players' seeds in force at the roll, in set-up order. */
  playerSeeds: PlayerSeeds;
  /** Set when the roll was already reported as impossible, whatever the seeds give. */
  failed: boolean;
}

/** What the audit knew of the turn's dice when a scouting roll was made. */
export interface DiceAtRoll {
  diceBefore: number;
  playerSeeds: PlayerSeeds;
}

/** A turn as its scouting rolls are judged once it is over (or the report is made). */
export interface ScoutingTurn {
  campaign: string;
  turn: number;
  /** The seed the host revealed at TurnEnded, matching or not; null while secret. */
  revealedSeed: string | null;
  seed: TurnSeed;
  /** On a branch that reseeded the turn (D1): the TurnReseeded's seq; the rolls before it are the parent line's. */
  reseededSeq?: number;
}

/** A commitment an army's activation this turn must carry, and the event that made it public. */
interface Pledge {
  commitment: string;
  seq: number;
  what: string;
  verdict: AdvancedFinding["verdict"];
}

/** A scouting roll's rounds as the report writes them: "3+4 v 2+2, reroll ...". */
export const describeScoutingRounds = (rounds: readonly ScoutingRound[]) =>
  rounds.map((r) => `${r.scout.join("+")} v ${r.scouted.join("+")}`).join(", reroll ");

export class ScoutingAudit implements AdvancedCheck {
  private scoutings = new Map<string, ScoutingWork>();
  private pledges = new Map<string, Pledge>();
  private readonly rolls = new Map<number, RollWork[]>();

  constructor(private readonly report: ReportAdvanced) {}

  before(event: CheckedEvent, state: CampaignState): void {
    switch (event.type) {
      case "TurnStarted":
        this.scoutings = new Map();
        this.pledges = new Map();
        return;
      case "ScoutingDeclared":
        return this.declared(event.seq, event.data, state);
      case "ScoutingAnswered":
        return this.answered(event.seq, event.data, state);
      case "ArmySizeStated":
        return this.stated(event.seq, event.data, state);
      case "ArmyActivated":
        return this.activated(event.seq, event.data);
      default:
        return;
    }
  }

  private declared(seq: number, data: EventData<"ScoutingDeclared">, state: CampaignState): void {
    const breach = (verdict: AdvancedFinding["verdict"], detail: string, seqs: number[] = []) =>
      this.report({ verdict, rule: "A3", army: data.army, player: data.player, seqs: [seq, ...seqs], detail });
    if (!advancedRule(state.setup?.options ?? {}, "scouting"))
      breach(
        V.scoutingMismatch,
        `${data.army} scouted ${data.target} (seq ${seq}), but this campaign does not play scouting`,
      );
    const opened = orderCommitment({
      campaign: state.campaign ?? "",
      turn: data.turn,
      army: data.army,
      order: "advance",
      salt: data.salt,
    });
    if (opened !== data.commitment)
      breach(
        V.scoutingMismatch,
        `${data.army}'s scouting (seq ${seq}) reveals Advance with a salt that does not hash to the commitment it gives`,
      );
    const activation = state.turnState?.activations[data.army];
    if (activation)
      breach(
        V.scoutingMismatch,
        `${data.army} scouted (seq ${seq}) after its activation (seq ${activation.seq}): an army scouts before it moves`,
        [activation.seq],
      );
    const army = state.armies[data.army];
    const earned = army && hasScoutUnits(state, army) ? 2 : 0;
    if (data.bonus !== earned)
      breach(
        V.scoutingMismatch,
        `${data.army}'s scouting (seq ${seq}) takes a bonus of +${data.bonus}; its roster earns +${earned} (scout units give +2)`,
      );
    const target = state.armies[data.target];
    this.scoutings.set(data.scouting, {
      id: data.scouting,
      seq,
      army: data.army,
      target: data.target,
      targetPlayer: target?.player ?? "",
      scoutBonus: data.bonus,
      scoutedBonus: null,
      band: null,
      rolledSeq: null,
    });
    this.pledges.set(data.army, {
      commitment: data.commitment,
      seq,
      what: "the Advance its scouting revealed",
      verdict: V.scoutingMismatch,
    });
  }

  private answered(seq: number, data: EventData<"ScoutingAnswered">, state: CampaignState): void {
    const scouting = this.scoutings.get(data.scouting);
    if (scouting) scouting.scoutedBonus = data.bonus;
    if (data.bonus === 0) return;
    const breach = (detail: string, seqs: number[] = []) =>
      this.report({
        verdict: V.bonusUnrevealed,
        rule: "A3",
        army: data.army,
        player: data.player,
        seqs: [seq, ...seqs],
        detail,
      });
    const { firstFire } = data;
    if (!firstFire)
      return breach(
        `${data.army} takes the +2 for First Fire in scouting ${data.scouting} (seq ${seq}) without revealing the order`,
      );
    const opened = orderCommitment({
      campaign: state.campaign ?? "",
      turn: data.turn,
      army: data.army,
      order: "firstFire",
      salt: firstFire.salt,
    });
    if (opened !== firstFire.commitment)
      return breach(`${data.army}'s revealed First Fire (seq ${seq}) does not hash to the commitment it gives`);
    const activation = state.turnState?.activations[data.army];
    if (activation && activation.commitment !== firstFire.commitment) {
      return breach(
        `${data.army} takes the +2 for First Fire (seq ${seq}), but its activation (seq ${activation.seq}) committed to another order`,
        [activation.seq],
      );
    }
    if (!activation)
      this.pledges.set(data.army, {
        commitment: firstFire.commitment,
        seq,
        what: "the First Fire it revealed for the +2",
        verdict: V.bonusUnrevealed,
      });
  }

  /** An army whose order a scouting made public must be activated with that commitment. */
  private activated(seq: number, data: EventData<"ArmyActivated">): void {
    const pledge = this.pledges.get(data.army);
    if (!pledge || pledge.commitment === data.commitment) return;
    this.report({
      verdict: pledge.verdict,
      rule: "A3",
      army: data.army,
      player: data.player,
      seqs: [seq, pledge.seq],
      detail: `${data.army} was activated (seq ${seq}) with a commitment other than ${pledge.what} (seq ${pledge.seq})`,
    });
  }

  /** A3, D1: the roll's form, band and dice index now; its dice once the host's seed is out (`finishTurn`). */
  rolled(seq: number, data: EventData<"ScoutingRolled">, dice: DiceAtRoll): void {
    const scouting = this.scoutings.get(data.scouting);
    const roll: RollWork = {
      seq,
      scouting: data.scouting,
      army: scouting?.army ?? null,
      target: scouting?.target ?? null,
      firstDie: data.firstDie,
      rounds: data.rounds,
      band: data.band,
      bonuses:
        scouting && scouting.scoutedBonus !== null
          ? { scout: scouting.scoutBonus, scouted: scouting.scoutedBonus }
          : null,
      playerSeeds: dice.playerSeeds,
      failed: false,
    };
    const rolls = this.rolls.get(data.turn) ?? [];
    rolls.push(roll);
    this.rolls.set(data.turn, rolls);
    const breach = (detail: string) => {
      roll.failed = true;
      this.report({
        verdict: V.scoutingMismatch,
        rule: "A3",
        ...(scouting ? { army: scouting.army } : {}),
        seqs: [seq, ...(scouting ? [scouting.seq] : [])],
        detail,
      });
    };
    if (!scouting || scouting.scoutedBonus === null)
      return breach(`scouting ${data.scouting} was rolled (seq ${seq}) before it was declared and answered`);
    if (data.firstDie !== dice.diceBefore) {
      breach(
        `scouting ${data.scouting} (seq ${seq}) uses dice from index ${data.firstDie}, but ${dice.diceBefore} dice of turn ${data.turn} had been drawn before it: the host may not pick which dice to use`,
      );
    }
    const totals = data.rounds.map((r) => ({
      scout: r.scout[0] + r.scout[1] + scouting.scoutBonus,
      scouted: r.scouted[0] + r.scouted[1] + scouting.scoutedBonus!,
    }));
    const last = totals[totals.length - 1]!;
    const badRound = totals.findIndex((t, i) => i < totals.length - 1 !== (t.scout === t.scouted));
    const band = scoutingBand(last.scout, last.scouted);
    if (badRound >= 0) {
      breach(
        `scouting ${data.scouting} (seq ${seq}) is not a possible roll: round ${badRound + 1} (${totals[badRound]!.scout} v ${totals[badRound]!.scouted} with bonuses) ${badRound < totals.length - 1 ? "is not a tie, yet it was rerolled" : "is a tie, yet nobody rerolled"}`,
      );
    } else if (band !== data.band || last.scout !== data.scoutTotal || last.scouted !== data.scoutedTotal) {
      breach(
        `scouting ${data.scouting} (seq ${seq}) records ${data.scoutTotal} v ${data.scoutedTotal}, band ${data.band}; its dice with bonuses +${scouting.scoutBonus} and +${scouting.scoutedBonus} give ${last.scout} v ${last.scouted}, band ${band}`,
      );
    }
    scouting.band = badRound >= 0 ? data.band : band;
    scouting.rolledSeq = seq;
  }

  private stated(seq: number, data: EventData<"ArmySizeStated">, state: CampaignState): void {
    const scouting = this.scoutings.get(data.scouting);
    const base = { rule: "A3", army: data.army, player: data.player };
    if (!scouting || scouting.band === null || scouting.rolledSeq === null || scouting.target !== data.army) {
      return this.report({
        ...base,
        verdict: V.scoutingMismatch,
        seqs: [seq],
        detail: `${data.army}'s size was stated for scouting ${data.scouting} (seq ${seq}), which has not rolled for it`,
      });
    }
    const truth = state.armies[data.army]?.points ?? 0;
    const margin = BLUFF_MARGIN[scouting.band];
    if (Math.abs(data.points - truth) <= margin) return;
    this.report({
      ...base,
      verdict: V.scoutingBluff,
      seqs: [seq, scouting.rolledSeq],
      detail:
        `${data.player} stated ${pts(data.points)} points for ${data.army} (seq ${seq}); its true size was ${pts(truth)}, and the roll (seq ${scouting.rolledSeq}, ${scouting.band}) ` +
        (margin === 0 ? "demands the true size" : `allows at most ${pts(margin)} either way`),
    });
  }

  /**
   * D1 for scouting: the turn's rolls as the report lists them. Once the host's seed of the turn is revealed (and
   * matches), every roll recomputes from the seeds; until then a roll is pending.
   */
  finishTurn(turn: ScoutingTurn): { rolls: ScoutingRollAudit[]; findings: AdvancedFinding[] } {
    const findings: AdvancedFinding[] = [];
    const rolls = (this.rolls.get(turn.turn) ?? []).map((roll): ScoutingRollAudit => {
      const base = {
        kind: "scouting" as const,
        seq: roll.seq,
        scouting: roll.scouting,
        army: roll.army,
        target: roll.target,
        firstDie: roll.firstDie,
        lastDie: roll.firstDie + 4 * roll.rounds.length - 1,
        rounds: roll.rounds,
        band: roll.band,
        inputs: {
          campaign: turn.campaign,
          turn: turn.turn,
          hostSeed: turn.revealedSeed,
          playerSeeds: roll.playerSeeds,
        },
      };
      const fail = (verdict: string, recomputed: ScoutingRound[] | null = null) => ({
        ...base,
        recomputed,
        status: "failed" as const,
        verdict,
      });
      const where = `scouting ${roll.scouting} (seq ${roll.seq})`;
      const missing = roll.playerSeeds.filter((s) => s.seed === null).map((s) => s.player);
      if (roll.failed || !roll.bonuses) return fail(V.scoutingMismatch);
      if (missing.length > 0) {
        findings.push({
          verdict: V.scoutingMismatch,
          rule: "A3",
          seqs: [roll.seq],
          detail: `${where} was rolled before ${missing.join(" and ")} gave a seed`,
        });
        return fail(V.scoutingMismatch);
      }
      const seed = seedOfRoll(turn.reseededSeq, roll.seq, turn.seed);
      if (seed.hostSeed === null)
        return seed.status === "pending"
          ? { ...base, recomputed: null, status: "pending", verdict: seed.verdict }
          : fail(seed.verdict);
      const seeds = {
        campaign: turn.campaign,
        turn: turn.turn,
        hostSeed: seed.hostSeed,
        playerSeeds: roll.playerSeeds.map((s) => s.seed!),
      };
      const recomputed = rollScouting(seeds, roll.firstDie, roll.bonuses.scout, roll.bonuses.scouted);
      if (canonicalJson(recomputed) === canonicalJson(roll.rounds))
        return { ...base, recomputed, status: "ok", verdict: "ok" };
      findings.push({
        verdict: V.scoutingMismatch,
        rule: "A3",
        ...(roll.army ? { army: roll.army } : {}),
        seqs: [roll.seq, seed.endedSeq],
        detail: `${where} records ${describeScoutingRounds(roll.rounds)} but the seeds give ${describeScoutingRounds(recomputed)} (host seed revealed at seq ${seed.endedSeq})`,
      });
      return fail(V.scoutingMismatch, recomputed);
    });
    return { rolls, findings };
  }
}
