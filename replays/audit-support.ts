import type { SupportUse } from "../events/common.js";
import type { EventData } from "../events/index.js";
import { advancedRule } from "../projections/advanced.js";
import type { BattleState, CampaignState } from "../projections/state.js";
import { SUPPORT_PRICES, usableInTurn } from "../projections/support.js";
import {
  ADVANCED_VERDICTS as V,
  type AdvancedCheck,
  type CheckedEvent,
  type ReportAdvanced,
} from "./audit-advanced.js";

/**
 * A7 off-table support in battle, after the fact: what each resolved battle says a side called in is checked against
 * that side's artillery roster as it stood (owned, bought in an earlier turn, not used up, a barrage once per battle
 * turn, a one-shot once), and every item called in must be struck off by a `SupportExpended` of that battle before the
 * next battle is resolved, an End phase is finished or the turn ends. A `SupportExpended` may strike off only what
 * the battle used.
 */

const ROLES = ["attacker", "defender"] as const;

/** An item a resolved battle used, kept until it is struck off. */
interface Use {
  battle: string;
  resolvedSeq: number;
  player: string;
  item: string;
}

const key = (player: string, item: string) => `${player}:${item}`;

export class SupportUseAudit implements AdvancedCheck {
  /** Items called in by resolved battles and not yet struck off, by "player:item". */
  private readonly due = new Map<string, Use>();
  /** Every item called in so far, by "player:item", until an item of that id is bought again. */
  private readonly used = new Map<string, Use>();

  constructor(private readonly report: ReportAdvanced) {}

  before(event: CheckedEvent, state: CampaignState): void {
    switch (event.type) {
      case "BattleResolved":
        this.unstruck(event.seq);
        return this.resolved(event.seq, event.data, state);
      case "SupportExpended":
        return this.expended(event.seq, event.data);
      case "SupportPurchased":
        this.used.delete(key(event.data.player, event.data.item));
        return;
      case "EndPhaseFinished":
      case "TurnEnded":
        return this.unstruck(event.seq);
      default:
        return;
    }
  }

  private resolved(seq: number, data: EventData<"BattleResolved">, state: CampaignState): void {
    const battle = state.battles[data.battle];
    if (!battle) return;
    const playing = advancedRule(state.setup?.options ?? {}, "offTableSupport");
    for (const role of ROLES) {
      const uses = data.result[role].support ?? [];
      const player = battle[role].player;
      const breach = (detail: string, seqs: number[] = []) =>
        this.report({ verdict: V.supportMisused, rule: "A7", player, seqs: [seq, ...seqs], detail });
      if (uses.length > 0 && !playing)
        breach(
          `the ${role} ${player} called in off-table support in battle ${battle.id} (seq ${seq}), but this campaign does not play it`,
        );
      const listed = new Set<string>();
      for (const use of uses) {
        if (listed.has(use.item))
          breach(`"${use.item}" is listed twice in the ${role}'s support of battle ${battle.id} (seq ${seq})`);
        listed.add(use.item);
        this.checkUse(seq, battle, player, use, state, breach);
      }
    }
  }

  private checkUse(
    seq: number,
    battle: BattleState,
    player: string,
    use: SupportUse,
    state: CampaignState,
    breach: (detail: string, seqs?: number[]) => void,
  ): void {
    const where = `in battle ${battle.id} (seq ${seq})`;
    const earlier = this.used.get(key(player, use.item));
    if (earlier) {
      breach(
        `${player} called in "${use.item}" ${where}, but it was used up in battle ${earlier.battle} (seq ${earlier.resolvedSeq})`,
        [earlier.resolvedSeq],
      );
      return;
    }
    const item = state.ledgers[player]?.artillery.find((owned) => owned.id === use.item);
    if (!item) {
      breach(
        `${player} called in "${use.item}" ${where}, but it was not on ${player}'s artillery roster: it was never bought, or was struck off`,
      );
      return;
    }
    const thisUse = { battle: battle.id, resolvedSeq: seq, player, item: use.item };
    this.used.set(key(player, use.item), thisUse);
    this.due.set(key(player, use.item), thisUse);
    if (!usableInTurn(item, battle.turn)) {
      breach(
        `${player} called in "${item.id}" ${where} in turn ${battle.turn}, the turn it was bought: off-table support may be called in from the turn after`,
      );
    }
    const price = SUPPORT_PRICES[item.kind];
    if (price.use === "oneShot" && use.turns.length > 1) {
      breach(
        `"${item.id}" is a ${price.name}, a one-shot weapon, yet ${player} called it in ${where} in battle turns ${use.turns.join(", ")}`,
      );
    }
    const repeated = use.turns.find((turn, i) => use.turns.indexOf(turn) !== i);
    if (repeated !== undefined)
      breach(
        `"${item.id}" is a ${price.name}, called in ${where} twice in battle turn ${repeated}: a barrage fires once per battle turn`,
      );
  }

  /** A struck-off item must be one the battle used: a host may not take items off a side's roster. */
  private expended(seq: number, data: EventData<"SupportExpended">): void {
    for (const item of data.items) {
      const use = this.due.get(key(data.player, item));
      if (use && use.battle === data.battle) {
        this.due.delete(key(data.player, item));
        continue;
      }
      this.report({
        verdict: V.supportRosterMismatch,
        rule: "A7",
        player: data.player,
        seqs: [seq],
        detail: `SupportExpended (seq ${seq}) strikes "${item}" off ${data.player}'s artillery roster, but ${data.player} did not call it in battle ${data.battle}`,
      });
    }
  }

  /** Items used in a battle but still on the roster when the next battle is resolved, an End phase ends or the turn ends. */
  private unstruck(seq: number): void {
    for (const use of this.due.values()) {
      this.report({
        verdict: V.supportRosterMismatch,
        rule: "A7",
        player: use.player,
        seqs: [use.resolvedSeq, seq],
        detail: `${use.player} called in "${use.item}" in battle ${use.battle} (seq ${use.resolvedSeq}), but no SupportExpended struck it off its artillery roster by seq ${seq}`,
      });
    }
    this.due.clear();
  }
}
