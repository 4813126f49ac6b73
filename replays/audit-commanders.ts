import { pts } from "../src/rules/refusal.js";
import type { EventData } from "../events/index.js";
import type { RosterFormation } from "../events/common.js";
import { advancedRule } from "../projections/advanced.js";
import { armyPoints } from "../projections/units.js";
import { commanderFell } from "../projections/commanders.js";
import type { ArmyState, CampaignState } from "../projections/state.js";
import { commandLimit, lowestLevelFor } from "../src/rules/commanders.js";
import {
  ADVANCED_VERDICTS as V,
  type AdvancedCheck,
  type CheckedEvent,
  type ReportAdvanced,
} from "./audit-advanced.js";

/**
 * A6 commanders, after the fact: what each resolved battle does to the commanders of its two armies is recomputed from
 * the rosters it left (before any rout): a commander with no unit of its type left in its formation is killed; one who
 * survived rises a level when the battle brings its army's count to an even number. Every CommanderKilled and
 * CommanderPromoted must be one of those, and each of those must be recorded. Appointments are checked against the
 * rank the rules give, and no side finishes an End phase with an army on the map that has no commander. A new army,
 * raised or bought, must be led by a spare commander appointed with it (a player fields only as many armies as it has
 * commanders), and formations bought into an army may not take it past what its commander leads.
 */

const TOP_LEVEL = 5;
const BATTLES_PER_RANK = 2;

/** What a resolved battle does to one army's commander. */
interface Outcome {
  battle: string;
  resolvedSeq: number;
  army: string;
  player: string;
  killed: boolean;
  /** The level it rises to, when it rises. */
  promotedTo: number | null;
}

/** A new army whose spare commander's appointment must come next. */
interface NewArmy {
  seq: number;
  army: string;
  player: string;
  how: "raised" | "bought";
}

export class CommandersAudit implements AdvancedCheck {
  /** Outcomes of the latest resolved battles not yet matched by their events, by "battle:army". */
  private readonly due = new Map<string, Outcome>();
  /** The army raised or bought by the event just before, until its commander's appointment is seen. */
  private newArmy: NewArmy | null = null;

  constructor(private readonly report: ReportAdvanced) {}

  before(event: CheckedEvent, state: CampaignState): void {
    this.ledOrReported(event, state);
    switch (event.type) {
      case "BattleResolved":
      case "TurnEnded":
        return this.unrecorded(event.seq);
      case "CommanderKilled":
        return this.killed(event.seq, event.data);
      case "CommanderPromoted":
        return this.promoted(event.seq, event.data);
      case "CommanderAppointed":
        return this.appointed(event.seq, event.data, state);
      case "EndPhaseFinished":
        this.unrecorded(event.seq);
        return this.leaderless(event.seq, event.data, state);
      case "FormationsPurchased": {
        const army = state.armies[event.data.army];
        return this.withinCommand(
          event.seq,
          state,
          event.data.army,
          event.data.player,
          [...(army?.formations ?? []), ...event.data.formations],
          "formations bought into",
        );
      }
      case "FormationReplaced": {
        const army = state.armies[event.data.army];
        const kept = (army?.formations ?? []).filter((f) => f.id !== event.data.replaced);
        return this.withinCommand(
          event.seq,
          state,
          event.data.army,
          event.data.player,
          [...kept, event.data.formation],
          "a formation replaced in",
        );
      }
      default:
        return;
    }
  }

  after(event: CheckedEvent, state: CampaignState): void {
    if (!advancedRule(state.setup?.options ?? {}, "commanders")) return;
    if (event.type === "ArmyRaised" || event.type === "ArmyPurchased") {
      this.newArmy = {
        seq: event.seq,
        army: event.data.army,
        player: event.data.player,
        how: event.type === "ArmyRaised" ? "raised" : "bought",
      };
      return;
    }
    if (event.type !== "BattleResolved") return;
    const battle = state.battles[event.data.battle];
    if (!battle) return;
    for (const side of [battle.attacker, battle.defender]) {
      const army = state.armies[side.army];
      if (!army || typeof army.commanderLevel !== "number") continue;
      const killed = commanderFell(army);
      const rises = !killed && army.battles % BATTLES_PER_RANK === 0 && army.commanderLevel < TOP_LEVEL;
      this.due.set(`${battle.id}:${army.id}`, {
        battle: battle.id,
        resolvedSeq: event.seq,
        army: army.id,
        player: army.player,
        killed,
        promotedTo: rises ? army.commanderLevel + 1 : null,
      });
    }
  }

  /**
   * The rules appoint a new army's spare commander in the same step that raises or buys it; an army followed by no
   * appointment was fielded with no commander to spare. (An appointment naming a spare the player lacks is judged by
   * `appointed`.)
   */
  private ledOrReported(event: CheckedEvent, state: CampaignState): void {
    const fielded = this.newArmy;
    if (!fielded) return;
    this.newArmy = null;
    if (event.type === "CommanderAppointed" && event.data.army === fielded.army && event.data.formerArmy !== undefined)
      return;
    const spares = state.ledgers[fielded.player]?.spareCommanders?.length ?? 0;
    this.report({
      verdict: V.commanderMismatch,
      rule: "A6",
      army: fielded.army,
      player: fielded.player,
      seqs: [fielded.seq],
      detail: `${fielded.army} was ${fielded.how} (seq ${fielded.seq}) with no spare commander appointed to lead it (${fielded.player} had ${spares} spare commander${spares === 1 ? "" : "s"}): a player fields only as many armies as it has commanders`,
    });
  }

  /** Formations bought into an army, or replacing a lost one, may not take it past what its commander leads. */
  private withinCommand(
    seq: number,
    state: CampaignState,
    armyId: string,
    player: string,
    formations: readonly RosterFormation[],
    what: string,
  ): void {
    const setup = state.setup;
    const army = state.armies[armyId];
    if (!setup || !advancedRule(setup.options, "commanders") || typeof army?.commanderLevel !== "number") return;
    const after = armyPoints(formations, setup.catalogue);
    const limit = commandLimit(army.commanderLevel);
    if (after <= limit) return;
    this.report({
      verdict: V.misplaced,
      rule: "A6",
      army: army.id,
      player,
      seqs: [seq],
      detail: `${what} ${army.id} (seq ${seq}) made it ${pts(after)} points; its level ${army.commanderLevel} commander leads armies of up to ${pts(limit)}`,
    });
  }

  /** Outcomes whose event never came: a death kept secret, or a promotion withheld. */
  private unrecorded(seq: number): void {
    for (const outcome of this.due.values()) {
      if (!outcome.killed && outcome.promotedTo === null) continue;
      this.report({
        verdict: V.commanderMismatch,
        rule: "A6",
        army: outcome.army,
        player: outcome.player,
        seqs: [outcome.resolvedSeq, seq],
        detail: outcome.killed
          ? `battle ${outcome.battle} (seq ${outcome.resolvedSeq}) left no unit of ${outcome.army}'s commander's type in its formation, but no CommanderKilled reveals it`
          : `${outcome.army}'s commander survived battle ${outcome.battle} (seq ${outcome.resolvedSeq}), its army's second battle since its last rise, but was not promoted to level ${outcome.promotedTo}`,
      });
    }
    this.due.clear();
  }

  private killed(seq: number, data: EventData<"CommanderKilled">): void {
    const outcome = this.due.get(`${data.battle}:${data.army}`);
    this.due.delete(`${data.battle}:${data.army}`);
    if (outcome?.killed) return;
    this.report({
      verdict: V.commanderMismatch,
      rule: "A6",
      army: data.army,
      player: data.player,
      seqs: [seq, ...(outcome ? [outcome.resolvedSeq] : [])],
      detail: outcome
        ? `CommanderKilled (seq ${seq}) says ${data.army}'s commander died in battle ${data.battle}, but its formation still had a unit of its type after the battle`
        : `CommanderKilled (seq ${seq}) names battle ${data.battle}, which ${data.army}'s commander did not just fight`,
    });
  }

  private promoted(seq: number, data: EventData<"CommanderPromoted">): void {
    const outcome = this.due.get(`${data.battle}:${data.army}`);
    // A death still due stays due: a promotion in its place does not hide it.
    if (!outcome?.killed) this.due.delete(`${data.battle}:${data.army}`);
    if (outcome && outcome.promotedTo === data.level) return;
    this.report({
      verdict: V.commanderMismatch,
      rule: "A6",
      army: data.army,
      player: data.player,
      seqs: [seq, ...(outcome ? [outcome.resolvedSeq] : [])],
      detail: !outcome
        ? `CommanderPromoted (seq ${seq}) names battle ${data.battle}, which ${data.army}'s commander did not just fight`
        : outcome.promotedTo === null
          ? `CommanderPromoted (seq ${seq}) raises ${data.army}'s commander to level ${data.level} after battle ${data.battle}, which ${outcome.killed ? "killed it" : "did not bring its army's battles to an even number (or it was at the top level)"}`
          : `CommanderPromoted (seq ${seq}) raises ${data.army}'s commander to level ${data.level}; one level up is ${outcome.promotedTo}`,
    });
  }

  private appointed(seq: number, data: EventData<"CommanderAppointed">, state: CampaignState): void {
    const setup = state.setup;
    if (!setup) return;
    const army = state.armies[data.army];
    const breach = (detail: string) =>
      this.report({
        verdict: V.commanderMismatch,
        rule: "A6",
        army: data.army,
        player: data.player,
        seqs: [seq],
        detail,
      });
    if (!advancedRule(setup.options, "commanders"))
      return breach(
        `a commander was appointed to ${data.army} (seq ${seq}), but this campaign does not play commanders`,
      );
    if (!army) return breach(`a commander was appointed (seq ${seq}) to ${data.army}, which is not on the roster`);
    const hq = (setup.catalogue.unitTypes[data.commander.unitType]?.abilities ?? []).some(
      (a) => a === "hq" || a === "titan",
    );
    let allowed: number;
    if (data.turn === 0) {
      allowed = lowestLevelFor(army.points);
      if (!hq)
        return breach(
          `${data.army}'s first commander (seq ${seq}) is a "${data.commander.unitType}", neither an HQ unit nor a titan`,
        );
    } else if (data.formerArmy !== undefined) {
      const spare = (state.ledgers[data.player]?.spareCommanders ?? []).find(
        (s) => s.army === data.formerArmy && s.unitType === data.commander.unitType,
      );
      if (!spare)
        return breach(
          `${data.army} is led (seq ${seq}) by the commander of ${data.formerArmy}, which ${data.player} does not have as a spare "${data.commander.unitType}"`,
        );
      allowed = spare.level;
    } else {
      allowed = this.risenRank(army, hq) - 1;
      if (army.commanderLevel !== null)
        return breach(`${data.army} was given a new commander (seq ${seq}) although its own was not killed`);
      if (state.phase !== "end")
        return breach(`${data.army} was given a new commander (seq ${seq}) outside the End phase`);
      const left = army.formations.find((f) => f.id === data.commander.formation)?.units[data.commander.unitType] ?? 0;
      if (left < 1)
        return breach(
          `${data.army}'s new commander (seq ${seq}) is a "${data.commander.unitType}" of "${data.commander.formation}", which has none left`,
        );
    }
    if (data.level !== allowed) {
      return breach(
        `${data.army}'s commander is appointed at level ${data.level} (seq ${seq}); the rules give level ${allowed}`,
      );
    }
    if (commandLimit(data.level) < army.points) {
      breach(
        `${data.army} (${pts(army.points)} points) is given a level ${data.level} commander (seq ${seq}), who leads armies of up to ${pts(commandLimit(data.level))}`,
      );
    }
  }

  /** The rank a unit of the army has reached: 1 for an HQ unit (0 standard), plus one per two battles fought. */
  private risenRank(army: ArmyState, hq: boolean): number {
    return Math.min((hq ? 1 : 0) + Math.floor(army.battles / BATTLES_PER_RANK), TOP_LEVEL + 1);
  }

  private leaderless(seq: number, data: EventData<"EndPhaseFinished">, state: CampaignState): void {
    if (!advancedRule(state.setup?.options ?? {}, "commanders")) return;
    for (const army of Object.values(state.armies)) {
      if (army.player !== data.player || army.status !== "active" || army.commanderLevel !== null) continue;
      this.report({
        verdict: V.commanderMismatch,
        rule: "A6",
        army: army.id,
        player: data.player,
        seqs: [seq],
        detail: `${data.player} finished the End phase of turn ${data.turn} (seq ${seq}) while its army ${army.id} had no commander: a new one is appointed or the army disbanded first`,
      });
    }
  }
}
