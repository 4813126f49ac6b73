import { pts } from "../src/rules/refusal.js";
import type { EventData } from "../events/index.js";
import type { TitanDamage } from "../events/common.js";
import { advancedRule } from "../projections/advanced.js";
import type { CampaignState } from "../projections/state.js";
import { canonicalJson } from "../src/crypto/commitments.js";
import {
  ADVANCED_VERDICTS as V,
  type AdvancedCheck,
  type CheckedEvent,
  type ReportAdvanced,
} from "./audit-advanced.js";

/**
 * A8 titan damage, after the fact: with the war chest on, the damage each resolved battle result gives a side's titans
 * must be carried by a `TitanDamageCarried` of that battle, exactly, before the next battle is resolved, an End phase
 * is finished or the turn ends; nothing else may be carried. So checked, the damage the campaign shows on each titan
 * (the projection follows it from army to Reserves and back) is what the battles did, less the repairs; a repair may
 * not restore more shields/fields, or replace other weapons, than the titan carries, and a like-for-like replacement
 * is priced from the destroyed weapon's points.
 */

const ROLES = ["attacker", "defender"] as const;

/** The titan damage a resolved battle gave one army, kept until its `TitanDamageCarried` comes. */
interface DueDamage {
  battle: string;
  resolvedSeq: number;
  army: string;
  player: string;
  damage: Record<string, TitanDamage>;
}

const damaged = (damage: TitanDamage) => damage.shields > 0 || damage.weapons.length > 0;
const describe = (damage: Readonly<Record<string, TitanDamage>>) =>
  Object.entries(damage)
    .map(
      ([titan, d]) =>
        `${titan}: ${d.shields} shields/fields${d.weapons.length ? `, ${d.weapons.map((w) => w.name).join(", ")}` : ""}`,
    )
    .join("; ") || "none";

export class TitanDamageAudit implements AdvancedCheck {
  /** Damage of resolved battles not yet carried, by "battle:army". */
  private readonly due = new Map<string, DueDamage>();

  constructor(private readonly report: ReportAdvanced) {}

  before(event: CheckedEvent, state: CampaignState): void {
    switch (event.type) {
      case "BattleResolved":
        this.uncarried(event.seq);
        return this.resolved(event.seq, event.data, state);
      case "TitanDamageCarried":
        return this.carried(event.seq, event.data, state);
      case "TitanRepaired": {
        const { data } = event;
        const carried = state.armies[data.army]?.titanDamage?.[data.formation];
        return this.repaired(event.seq, data, `titan "${data.formation}" of army "${data.army}"`, carried);
      }
      case "ReserveTitanRepaired": {
        const { data } = event;
        const carried = state.ledgers[data.player]?.damagedTitans?.[data.unitType]?.[data.titan];
        return this.repaired(
          event.seq,
          data,
          `the ${data.unitType} titan #${data.titan} of ${data.player}'s Reserves`,
          carried,
        );
      }
      case "EndPhaseFinished":
      case "TurnEnded":
        return this.uncarried(event.seq);
      default:
        return;
    }
  }

  private resolved(seq: number, data: EventData<"BattleResolved">, state: CampaignState): void {
    const battle = state.battles[data.battle];
    // Without A8, B5 repairs titan damage for free: nothing is carried.
    if (!battle || !advancedRule(state.setup?.options ?? {}, "warChest")) return;
    for (const role of ROLES) {
      const damage = Object.fromEntries(
        Object.entries(data.result[role].titanDamage ?? {}).filter(([, d]) => damaged(d)),
      );
      if (Object.keys(damage).length === 0) continue;
      const { army, player } = battle[role];
      this.due.set(`${battle.id}:${army}`, { battle: battle.id, resolvedSeq: seq, army, player, damage });
    }
  }

  private carried(seq: number, data: EventData<"TitanDamageCarried">, state: CampaignState): void {
    const breach = (detail: string, seqs: number[] = []) =>
      this.report({
        verdict: V.titanDamageMismatch,
        rule: "A8",
        army: data.army,
        player: data.player,
        seqs: [seq, ...seqs],
        detail,
      });
    const what = `TitanDamageCarried (seq ${seq}) gives ${data.army}'s titans ${describe(data.damage)} from battle ${data.battle}`;
    if (!advancedRule(state.setup?.options ?? {}, "warChest"))
      return breach(`${what}, but this campaign does not play the war chest: B5 repairs titan damage for free`);
    const due = this.due.get(`${data.battle}:${data.army}`);
    if (!due)
      return breach(`${what}, but no resolved result of that battle gives the army titan damage still to carry`);
    this.due.delete(`${data.battle}:${data.army}`);
    if (canonicalJson(due.damage) !== canonicalJson(data.damage))
      breach(`${what}; its result (seq ${due.resolvedSeq}) gives ${describe(due.damage)}`, [due.resolvedSeq]);
  }

  /** Repairs restore at most what the titan carries; `carried` is its damage as the campaign stood. */
  private repaired(
    seq: number,
    data: EventData<"TitanRepaired" | "ReserveTitanRepaired">,
    titan: string,
    carried: TitanDamage | undefined,
  ): void {
    const army = "army" in data ? { army: data.army } : {};
    const breach = (verdict: typeof V.titanDamageMismatch | typeof V.priceMismatch, detail: string) =>
      this.report({ verdict, rule: "A8", ...army, player: data.player, seqs: [seq], detail });
    const what = `repairs to ${titan} (seq ${seq})`;
    const down = carried?.shields ?? 0;
    if (data.shields > down)
      breach(V.titanDamageMismatch, `${what} restore ${data.shields} shields/fields, but it carried ${down} down`);
    const left = [...(carried?.weapons ?? [])];
    for (const weapon of data.weapons) {
      const index = left.findIndex((w) => w.name === weapon.destroyed);
      const destroyed = index >= 0 ? left.splice(index, 1)[0]! : null;
      if (!destroyed) {
        breach(V.titanDamageMismatch, `${what} replace a destroyed "${weapon.destroyed}" it did not carry`);
      } else if (
        weapon.replacement === weapon.destroyed &&
        weapon.points !== Math.ceil(destroyed.points / 2) &&
        weapon.points !== destroyed.points
      ) {
        breach(
          V.priceMismatch,
          `${what} replace "${weapon.destroyed}" like for like at ${pts(weapon.points)}; half its ${pts(destroyed.points)} points, rounded up, is ${pts(Math.ceil(destroyed.points / 2))}`,
        );
      }
    }
  }

  /** Damage a resolved battle gave that was not carried when the next battle is resolved, an End phase ends or the turn ends. */
  private uncarried(seq: number): void {
    for (const due of this.due.values()) {
      this.report({
        verdict: V.titanDamageMismatch,
        rule: "A8",
        army: due.army,
        player: due.player,
        seqs: [due.resolvedSeq, seq],
        detail: `battle ${due.battle} (seq ${due.resolvedSeq}) gave ${due.army}'s titans ${describe(due.damage)}, but no TitanDamageCarried keeps it on them by seq ${seq}`,
      });
    }
    this.due.clear();
  }
}
