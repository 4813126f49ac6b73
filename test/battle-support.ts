import { expect } from "vitest";
import type { BattleResult, Order, Square, UnitCounts } from "../events/common.js";
import type { DomainEvent, EventData } from "../events/index.js";
import { evolveAll, replay } from "../projections/campaign.js";
import type { CampaignState } from "../projections/state.js";
import { checkCommand } from "../src/engine/command-schemas.js";
import { seedCommitment } from "../src/crypto/commitments.js";
import { decide } from "../src/engine/decide.js";
import { beginEndPhase } from "../src/rules/phases.js";
import type { Refusal } from "../src/rules/refusal.js";
import { mergePatch } from "./golden/format.js";
import { setupCommands } from "../src/setup/setup-file.js";
import { goldenSetup } from "./support/fixtures.js";

/** The time the commands here are decided at: none of their rules reads it (only O2's deadline does). */
const DECIDED_AT = "2026-01-01T00:00:00.000Z";

/**
 * Battle and End phase scenarios for the pure deciders, built before the Action phase rules exist: the set-up is
 * decided for real from a golden fixture, the Action phase is written as the events its rules will produce
 * (TurnStarted, ArmyActivated, ArmyMoved, BattleStarted, OrderRevealed, ActionPhaseEnded), and the commands under test
 * go through `decide` and are folded with `replay`.
 */

type Event = DomainEvent & { seq: number };

export const hostSeed = (turn: number): string => `${"5eed".repeat(8)}${turn.toString(16).padStart(32, "0")}`;
const COMMITMENT = "c".repeat(64);
const SALT = "ab".repeat(16);

export class Scenario {
  readonly events: Event[] = [];
  state: CampaignState = replay([]);
  private pendingOrders = new Map<string, Order>();

  /** The fixture's set-up, decided; `null` for an empty campaign (see fork). */
  constructor(fixture: string | null = "battle-ready.json", patch: unknown = {}) {
    if (fixture === null) return;
    const setup = mergePatch(goldenSetup(fixture), patch) as ReturnType<typeof goldenSetup>;
    for (const { command } of setupCommands(setup)) this.run(command);
  }

  /** A copy to branch from: what is done to it leaves this one as it was. */
  fork(): Scenario {
    const copy = new Scenario(null);
    copy.events.push(...this.events);
    copy.state = this.state;
    copy.pendingOrders = new Map(this.pendingOrders);
    return copy;
  }

  /** Appends events as the log would. */
  emit(...events: DomainEvent[]): this {
    const stored = events.map((event, i) => structuredClone({ ...event, seq: this.events.length + i + 1 }) as Event);
    this.events.push(...stored);
    // Folded from copies, as events read back from the log would be: immer freezes what it folds in.
    this.state = evolveAll(this.state, structuredClone(stored));
    return this;
  }

  decide(input: unknown): { ok: true; events: DomainEvent[] } | { ok: false; refusal: Refusal } {
    const checked = checkCommand(input);
    if (!checked.ok) return { ok: false, refusal: { kind: "field", field: checked.field, message: checked.message } };
    return decide(this.state, checked.command, DECIDED_AT);
  }

  /** Decides a command that must be accepted, appends its events and returns them. */
  run(input: unknown): DomainEvent[] {
    const decision = this.decide(input);
    if (!decision.ok) throw new Error(`refused: ${JSON.stringify(decision.refusal)} for ${JSON.stringify(input)}`);
    this.emit(...decision.events);
    return decision.events;
  }

  /** Decides a command that must be refused, naming `rule` (or a field) and a message fragment; nothing is appended. */
  refused(input: unknown, expected: { rule?: string; field?: string; message?: string }): Refusal {
    const decision = this.decide(input);
    expect(decision.ok, `expected a refusal for ${JSON.stringify(input)}`).toBe(false);
    if (decision.ok) throw new Error("accepted");
    // A rule's refusal may name the command's field it found wrong too.
    if (expected.rule) expect(decision.refusal).toMatchObject({ kind: "rule", rule: expected.rule });
    if (expected.field)
      expect(decision.refusal).toMatchObject({ kind: expected.rule ? "rule" : "field", field: expected.field });
    if (expected.message) expect(decision.refusal.message).toContain(expected.message);
    return decision.refusal;
  }

  // ---------- the Action phase, as events ----------

  startTurn(turn = this.state.turn + (this.state.turnState ? 1 : 0)): this {
    this.pendingOrders.clear();
    return this.emit({ type: "TurnStarted", data: { turn, hostSeedHash: seedCommitment(hostSeed(turn)) } });
  }

  /** Activates an army with an order and moves it along `path`. */
  activate(army: string, order: Order, path: Square[] = []): this {
    const state = this.state;
    const current = state.armies[army]!;
    this.emit({
      type: "ArmyActivated",
      data: {
        turn: state.turn,
        army,
        player: current.player,
        commitment: COMMITMENT,
        rate: current.moveRate,
        engaged: false,
        stacked: false,
      },
    });
    if (path.length > 0) this.emit({ type: "ArmyMoved", data: { turn: state.turn, army, from: current.at!, path } });
    this.pendingOrders.set(army, order);
    return this;
  }

  /** Activates `army`, moves it along `path` into the square of an enemy army: a battle, both orders revealed (T5). */
  attack(army: string, order: Order, path: Square[], battle?: string): this {
    const at = path[path.length - 1]!;
    const from = path.length > 1 ? path[path.length - 2]! : this.state.armies[army]!.at!;
    const defender = Object.values(this.state.armies).find(
      (a) => a.status === "active" && a.at && a.at[0] === at[0] && a.at[1] === at[1],
    )!;
    this.activate(army, order, path);
    const id =
      battle ??
      `t${this.state.turn}b${Object.values(this.state.battles).filter((b) => b.turn === this.state.turn).length + 1}`;
    this.emit({
      type: "BattleStarted",
      data: { turn: this.state.turn, battle: id, at, attacker: army, defender: defender.id, attackerFrom: from },
    });
    this.reveal(army, defender.id);
    return this;
  }

  private reveal(...armies: string[]): void {
    for (const army of armies) {
      const order = this.pendingOrders.get(army);
      if (!order) continue;
      this.pendingOrders.delete(army);
      this.emit({ type: "OrderRevealed", data: { turn: this.state.turn, army, order, salt: SALT } });
    }
  }

  /** Every order revealed, the Action phase over; with no battle this turn the End phase begins at once. */
  endActionPhase(): this {
    this.reveal(...this.pendingOrders.keys());
    const turn = this.state.turn;
    this.emit({ type: "ActionPhaseEnded", data: { turn, withheld: [] } });
    if (!Object.values(this.state.battles).some((b) => b.turn === turn)) this.emit(...beginEndPhase(this.state, turn));
    return this;
  }

  /** battle-ready.json's one battle of a turn: r1 advances on b1 at (1,3); b1, b2 and r2 on First Fire. */
  r1AttacksB1(): this {
    return this.activate("b1", "firstFire")
      .attack("r1", "advance", [
        [1, 1],
        [1, 2],
        [1, 3],
      ])
      .activate("b2", "firstFire")
      .activate("r2", "firstFire")
      .endActionPhase();
  }

  // ---------- the Battle phase and the End phase, as commands ----------

  /** Reports a result by `by` and confirms it by the other player; returns the confirmation's events. */
  fight(
    battle: string,
    result: Partial<BattleResult> & { outcome: BattleResult["outcome"] },
    by?: string,
  ): DomainEvent[] {
    const b = this.state.battles[battle]!;
    const reporter = by ?? b.attacker.player;
    const confirmer = reporter === b.attacker.player ? b.defender.player : b.attacker.player;
    this.run({ type: "ReportBattleResult", actor: reporter, battle, result: sideResult(result) });
    return this.run({ type: "ConfirmBattleResult", actor: confirmer, battle });
  }

  finishEndPhase(): this {
    for (const player of this.state.setup!.players) {
      if (!this.state.turnState!.endPhaseDone.includes(player.id))
        this.run({ type: "FinishEndPhase", actor: player.id });
    }
    return this;
  }

  endTurn(): DomainEvent[] {
    return this.run({ type: "EndTurn", actor: "host", hostSeed: hostSeed(this.state.turn) });
  }

  /** A quiet turn: every active army activated where it stands (First Fire), no battle; ends in the End phase. */
  quietTurn(orders: Record<string, Order> = {}): this {
    this.startTurn();
    for (const army of Object.values(this.state.armies)) {
      if (army.status === "active" && army.at && army.sinceTurn <= this.state.turn)
        this.activate(army.id, orders[army.id] ?? "firstFire");
    }
    return this.endActionPhase();
  }
}

export const side = (vp: number, losses: Record<string, UnitCounts> = {}, routed: Record<string, UnitCounts> = {}) => ({
  vp,
  losses,
  routed,
});

export function sideResult(result: Partial<BattleResult> & { outcome: BattleResult["outcome"] }): BattleResult {
  return { outcome: result.outcome, attacker: result.attacker ?? side(0), defender: result.defender ?? side(0) };
}

export const types = (events: readonly DomainEvent[]): string[] => events.map((e) => e.type);

export function eventOf<T extends DomainEvent["type"]>(events: readonly DomainEvent[], type: T): EventData<T> {
  const event = events.find((e) => e.type === type);
  if (!event) throw new Error(`no ${type} among ${types(events).join(", ")}`);
  return event.data as unknown as EventData<T>;
}
