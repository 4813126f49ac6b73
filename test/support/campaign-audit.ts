/**
 * An independent audit of a campaign as it is played: it follows the stored events one by one, folds them with the
 * projection (`evolve`), and after every accepted command (one batch of events) checks the invariants the rules of
 * ../shared/RULES.md promise of every reachable state. What it compares against is restated from the rules and
 * recomputed from the log (S4 awards, holdings, unit totals), not read back from src/rules.
 *
 * Failures are thrown by vitest's `expect` with a message naming the rule, the batch and the army or square.
 */
import { expect } from "vitest";
import type { Order, RosterFormation, Square, UnitCounts } from "../../events/common.js";
import { type CurrentEvent, type EventData, type StoredEvent, toCurrent } from "../../events/index.js";
import { evolve } from "../../projections/campaign.js";
import { armyPoints } from "../../projections/units.js";
import { cvpTotals } from "../../projections/derived.js";
import { moveRate } from "../../projections/formulas.js";
import { initialState, type CampaignState } from "../../projections/state.js";
import { seedCommitment } from "../../src/crypto/commitments.js";
import { rollInitiative } from "../../src/crypto/dice.js";

/** What the random player meant when it activated an army: the audit checks the log against it (T4, T5, S7). */
export interface IntendedActivation {
  turn: number;
  army: string;
  player: string;
  order: Order;
  /** Squares in the path it gave. */
  moved: number;
  /** Its move rate when activated. */
  rate: number;
  /** S7 ruling: it began on its own home base with another of its armies there. */
  stacked: boolean;
}

/** S5, restated: <= 3,000 -> 3; 3,001-5,999 -> 2; >= 6,000 -> 1. */
export function ruleMoveRate(points: number): number {
  return points <= 3000 ? 3 : points < 6000 ? 2 : 1;
}

/** S8/E6, restated: catalogue points of every formation that still has a unit. */
export function rulePoints(
  formations: readonly RosterFormation[],
  catalogue: { formations: Record<string, { points: number }> },
): number {
  return formations
    .filter((f) => Object.values(f.units).some((n) => n > 0))
    .reduce((sum, f) => sum + (catalogue.formations[f.formation]?.points ?? 0), 0);
}

/** S4, restated: an award of `multiple` x k, k = F / 10,000, rounded half up. */
export function ruleAward(force: number, multiple: number): number {
  return Math.floor((multiple * force) / 10000 + 0.5);
}

/** S4, restated: overwhelming when the winner's VPs are at least 1.5 x the loser's; over 0 VPs, any VPs. */
export function ruleOverwhelming(winnerVp: number, loserVp: number): boolean {
  return loserVp === 0 ? winnerVp > 0 : 2 * winnerVp >= 3 * loserVp;
}

const key = ([x, y]: Square) => `${x},${y}`;
const same = (a: Square, b: Square) => a[0] === b[0] && a[1] === b[1];

function add(pool: Record<string, number>, units: Readonly<Record<string, number>>, sign = 1): void {
  for (const [type, count] of Object.entries(units)) pool[type] = (pool[type] ?? 0) + sign * count;
}

/** Drops zero counts so that pools compare by what they hold. */
function nonZero(pool: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(pool)
      .filter(([, n]) => n !== 0)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

export interface AuditStats {
  batches: number;
  battles: number;
  draws: number;
  violations: number;
  captures: number;
  reservesUsed: number;
  finished: number;
  turnsEnded: number;
}

export class CampaignAudit {
  state: CampaignState = initialState;
  readonly events: CurrentEvent[] = [];
  readonly stats: AuditStats = {
    batches: 0,
    battles: 0,
    draws: 0,
    violations: 0,
    captures: 0,
    reservesUsed: 0,
    finished: 0,
    turnsEnded: 0,
  };
  /** Filled by the player before each accepted activation, keyed "turn/army". */
  readonly intended = new Map<string, IntendedActivation>();

  private readonly owner = new Map<string, string>();
  private readonly battles = new Map<string, EventData<"BattleStarted">>();
  private readonly battleCvps: Record<string, number> = {};
  private readonly initialUnits: Record<string, Record<string, number>> = {};
  /** Units lost in battles, by side and unit type, summed from BattleResolved. */
  private readonly lost: Record<string, Record<string, number>> = {};
  /** Units bought (+) and traded in (-) through FormationsTraded. */
  private readonly traded: Record<string, Record<string, number>> = {};
  /** E1/B6 holdings recomputed from moves and battle winners: "objective:<id>" or "homeBase:<player>" -> side. */
  private readonly holders = new Map<string, string | null>();
  private readonly objectiveAt = new Map<string, Square>();
  private readonly activated = new Map<number, Set<string>>();
  private readonly violated = new Map<number, string[]>();
  private readonly lastRegular = new Map<number, string>();
  private readonly initiative = new Map<number, EventData<"InitiativeRolled">>();

  private get players(): string[] {
    return this.state.setup?.players.map((p) => p.id) ?? [];
  }

  /** Folds one accepted command's events, checking each against the state before it, then the invariants. */
  absorb(stored: readonly StoredEvent[], label = ""): void {
    const events = stored.map(toCurrent);
    expect(events.length, `${label}: an accepted command writes at least one event`).toBeGreaterThan(0);
    for (const [index, event] of events.entries()) {
      expect(event.seq, `${label}: seq follows the log`).toBe(this.state.seq + 1);
      this.observe(event, events.slice(index + 1), `${label} #${event.seq} ${event.type}`);
      this.state = evolve(this.state, event);
      this.events.push(event);
    }
    this.stats.batches++;
    if (this.state.status === "active" || this.state.status === "finished")
      this.checkInvariants(`${label} (after seq ${this.state.seq})`);
    for (const event of events)
      if (event.type === "BattleResolved") this.checkAftermath(event.data, `${label} #${event.seq} BattleResolved`);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Per event: the log shows only what the rules allow.

  private observe(event: CurrentEvent, rest: readonly CurrentEvent[], where: string): void {
    const state = this.state;
    switch (event.type) {
      case "CampaignCreated":
        for (const p of event.data.players) {
          this.battleCvps[p.id] = 0;
          this.initialUnits[p.id] = {};
          this.lost[p.id] = {};
          this.traded[p.id] = {};
        }
        break;
      case "ArmyRegistered":
        this.owner.set(event.data.army, event.data.player);
        for (const f of event.data.formations) add(this.initialUnits[event.data.player]!, f.units);
        break;
      case "ArmyRaised":
        this.owner.set(event.data.army, event.data.player);
        this.stats.reservesUsed++;
        break;
      case "HomeBasePlaced":
        this.holders.set(`homeBase:${event.data.player}`, event.data.player);
        this.objectiveAt.set(`homeBase:${event.data.player}`, event.data.at);
        break;
      case "ObjectivePlaced":
        this.holders.set(`objective:${event.data.objective}`, null);
        this.objectiveAt.set(`objective:${event.data.objective}`, event.data.at);
        break;
      case "TurnStarted":
        expect(event.data.turn, `${where}: T1 turns follow one another`).toBe(
          state.turnState === null ? state.turn : state.turn + 1,
        );
        break;
      case "InitiativeRolled":
        this.initiative.set(event.data.turn, event.data);
        break;
      case "FirstPlayerChosen":
        expect(event.data.chosenBy, `${where}: T2 the initiative winner chooses`).toBe(
          this.initiative.get(event.data.turn)?.winner,
        );
        break;
      case "ArmyActivated": {
        // f: T3 every army is activated at most once per turn.
        const seen = this.activated.get(event.data.turn) ?? new Set<string>();
        expect(
          seen.has(event.data.army),
          `${where}: T3 ${event.data.army} activated twice in turn ${event.data.turn}`,
        ).toBe(false);
        seen.add(event.data.army);
        this.activated.set(event.data.turn, seen);
        expect(this.owner.get(event.data.army), `${where}: T3 a player activates only its own armies`).toBe(
          event.data.player,
        );
        this.checkActivationOrder(event.data, where);
        break;
      }
      case "ArmyMoved":
        this.checkMove(event.data, rest, where);
        break;
      case "BattleStarted":
        this.battles.set(event.data.battle, event.data);
        this.stats.battles++;
        break;
      case "OrderRevealed": {
        // T5: an attacker's order is never revealed before the army it attacked has committed to its own.
        const waiting = Object.values(state.battles).find(
          (b) =>
            b.turn === state.turn &&
            b.attacker.army === event.data.army &&
            !state.turnState!.activations[b.defender.army],
        );
        expect(
          waiting?.id,
          `${where}: T5 ${event.data.army}'s order revealed before its defender committed`,
        ).toBeUndefined();
        const intended = this.intended.get(`${event.data.turn}/${event.data.army}`);
        expect(intended, `${where}: T5 ${event.data.army} revealed an order nobody gave`).toBeDefined();
        expect(event.data.order, `${where}: T5 the revealed order of ${event.data.army} is the one given`).toBe(
          intended!.order,
        );
        break;
      }
      case "RevealRejected":
        throw new Error(`${where}: T5 an honest reveal from the secrets was rejected: ${JSON.stringify(event.data)}`);
      case "OrderViolated":
        (this.violated.get(event.data.turn) ?? this.violated.set(event.data.turn, []).get(event.data.turn)!).push(
          `${event.data.army}:${event.data.rule}`,
        );
        this.stats.violations++;
        break;
      case "ActionPhaseEnded":
        this.checkActionPhaseEnded(event.data, where);
        break;
      case "ObjectiveCaptured":
        this.stats.captures++;
        break;
      case "BattleResolved":
        this.checkBattleResolved(event.data, where);
        break;
      case "TransitArrived":
        expect(
          event.data.sentTurn,
          `${where}: E4 units sent In Transit in turn t join the Reserves in turn t+1 or later`,
        ).toBeLessThan(event.data.turn);
        break;
      case "FormationsTraded":
        add(this.traded[event.data.player]!, event.data.unitsIn, +1);
        add(this.traded[event.data.player]!, event.data.unitsOut, -1);
        this.stats.reservesUsed++;
        break;
      case "FormationReinforced":
      case "FormationReplaced":
        this.stats.reservesUsed++;
        break;
      case "TurnEnded":
        this.checkTurnEnded(event.data, rest, where);
        break;
      case "CampaignFinished":
        this.stats.finished++;
        break;
      default:
        break;
    }
  }

  /**
   * T3 alternation (with the run-out ruling) and the engaged-activation ruling, restated: an army attacked before its
   * own activation gives its order next, out of turn; otherwise players alternate from `first`, and a player with no
   * army left to activate passes to the other. T5: no regular activation while a battle's orders are still hidden.
   */
  private checkActivationOrder(data: EventData<"ArmyActivated">, where: string): void {
    const state = this.state;
    const turn = state.turnState!;
    const battles = Object.values(state.battles).filter((b) => b.turn === state.turn);
    const attacked = battles.some((b) => b.defender.army === data.army);
    expect(data.engaged, `${where}: ${data.army} is engaged exactly when attacked before its activation`).toBe(
      attacked,
    );
    if (data.engaged) return;
    expect(
      battles.filter((b) => !turn.activations[b.defender.army]).map((b) => b.id),
      `${where}: T5 an attacked army gives its order before anyone else`,
    ).toEqual([]);
    for (const b of battles) {
      expect(
        [b.attacker.order, b.defender.order].includes(null),
        `${where}: T5 the orders of ${b.id} are revealed before the next activation`,
      ).toBe(false);
    }
    const remaining = (player: string) =>
      Object.values(state.armies).filter(
        (a) =>
          a.player === player &&
          a.status === "active" &&
          a.at !== null &&
          a.sinceTurn <= state.turn &&
          !turn.activations[a.id],
      ).length;
    const last = this.lastRegular.get(data.turn);
    const candidate = last === undefined ? turn.first! : this.players.find((p) => p !== last)!;
    const expected = remaining(candidate) > 0 ? candidate : this.players.find((p) => p !== candidate)!;
    expect(data.player, `${where}: T3 players alternate (last ${last ?? "none"}, first ${turn.first})`).toBe(expected);
    this.lastRegular.set(data.turn, data.player);
  }

  /** M1-M4, T4 upper bound, E1: a recorded move, against the map as it stood. */
  private checkMove(data: EventData<"ArmyMoved">, rest: readonly CurrentEvent[], where: string): void {
    const state = this.state;
    const { map } = state.setup!;
    const mover = state.armies[data.army]!;
    const activation = state.turnState!.activations[data.army];
    expect(activation, `${where}: a move belongs to an activation`).toBeDefined();
    expect(data.path.length, `${where}: T4 even Charge moves at most 2R`).toBeLessThanOrEqual(2 * activation!.rate);
    const battleSquares = new Set(
      Object.values(state.battles)
        .filter((b) => b.turn === state.turn)
        .map((b) => key(b.at)),
    );
    const armiesAt = (square: Square) =>
      Object.values(state.armies).filter(
        (a) => a.status === "active" && a.at && same(a.at, square) && a.id !== mover.id,
      );
    let previous = data.from;
    for (const [i, step] of data.path.entries()) {
      const last = i === data.path.length - 1;
      expect(
        step[0] >= 0 && step[1] >= 0 && step[0] < map.width && step[1] < map.height,
        `${where}: M1 step ${i + 1} on the map`,
      ).toBe(true);
      expect(
        Math.abs(step[0] - previous[0]) + Math.abs(step[1] - previous[1]),
        `${where}: M1 step ${i + 1} orthogonal`,
      ).toBe(1);
      expect(battleSquares.has(key(step)), `${where}: M4 step ${i + 1} enters a battle square`).toBe(false);
      const here = armiesAt(step);
      const enemies = here.filter((a) => a.player !== mover.player);
      if (!last)
        expect(
          enemies.map((a) => a.id),
          `${where}: M3 step ${i + 1} passes through an enemy`,
        ).toEqual([]);
      else {
        const attack = rest.find((e) => e.type === "BattleStarted" && e.data.attacker === data.army);
        if (enemies.length > 0) {
          expect(enemies.length, `${where}: M3 a stack is not attacked`).toBe(1);
          expect(attack, `${where}: M3 entering an enemy's square starts a battle`).toBeDefined();
        } else {
          expect(attack, `${where}: no battle without an enemy`).toBeUndefined();
          expect(
            here.map((a) => a.id),
            `${where}: M2 a move does not end on a friend`,
          ).toEqual([]);
        }
      }
      previous = step;
    }
    // E1: moving into or through an objective's square captures it (entering to attack does not: the battle decides).
    const attacking = rest.some((e) => e.type === "BattleStarted" && e.data.attacker === data.army);
    for (const step of attacking ? data.path.slice(0, -1) : data.path) {
      for (const [id, at] of this.objectiveAt) if (same(at, step)) this.holders.set(id, mover.player);
    }
  }

  private checkActionPhaseEnded(data: EventData<"ActionPhaseEnded">, where: string): void {
    const state = this.state;
    const turn = state.turnState!;
    expect(data.withheld, `${where}: T5 every order of an honest table is revealed`).toEqual([]);
    // f: T3 each army is activated exactly once per turn (none left out).
    const acting = Object.values(state.armies).filter(
      (a) => a.status === "active" && a.at !== null && a.sinceTurn <= state.turn,
    );
    expect(
      acting.filter((a) => !turn.activations[a.id]).map((a) => a.id),
      `${where}: T3 every army on the map was activated`,
    ).toEqual([]);
    // T4, S7 ruling: violations recorded are exactly those the orders given did not allow.
    const expected: string[] = [];
    for (const activation of Object.values(turn.activations)) {
      const intended = this.intended.get(`${data.turn}/${activation.army}`);
      expect(intended, `${where}: the player knows why ${activation.army} was activated`).toBeDefined();
      const { order, moved, rate, stacked } = intended!;
      expect(activation.path.length, `${where}: ${activation.army} moved as given`).toBe(moved);
      expect(activation.stacked, `${where}: S7 ${activation.army} stacked as the player saw it`).toBe(stacked);
      const still = order === "firstFire" || order === "fortify";
      if (still && moved > 0) expected.push(`${activation.army}:T4`);
      if (order === "advance" && moved > rate) expected.push(`${activation.army}:T4`);
      if (stacked && still) expected.push(`${activation.army}:S7`);
    }
    expect(
      [...(this.violated.get(data.turn) ?? [])].sort(),
      `${where}: T4 S7 recorded violations of turn ${data.turn}`,
    ).toEqual(expected.sort());
  }

  /** S4, B4-B6: a resolved battle's CVPs, recomputed from its result. */
  private checkBattleResolved(data: EventData<"BattleResolved">, where: string): void {
    const battle = this.battles.get(data.battle);
    expect(battle, `${where}: a resolved battle was started`).toBeDefined();
    const attacker = this.owner.get(battle!.attacker)!;
    const defender = this.owner.get(battle!.defender)!;
    const { force } = this.state.setup!;
    const F = force.maxArmyPoints * force.armies;
    const { result } = data;
    const cvps: Record<string, number> = {};
    let winner: string | null = null;
    let overwhelming = false;
    if (result.outcome === "draw") {
      cvps[attacker] = result.attacker.vp + ruleAward(F, 1);
      cvps[defender] = result.defender.vp + ruleAward(F, 1);
      this.stats.draws++;
    } else {
      const attackerWon = result.outcome === "attacker";
      winner = attackerWon ? attacker : defender;
      overwhelming = attackerWon
        ? ruleOverwhelming(result.attacker.vp, result.defender.vp)
        : ruleOverwhelming(result.defender.vp, result.attacker.vp);
      const award = ruleAward(F, overwhelming ? 3 : 2);
      cvps[attacker] = result.attacker.vp + (attackerWon ? award : 0);
      cvps[defender] = result.defender.vp + (attackerWon ? 0 : award);
      // B6: the winner of a battle on an objective's square captures it.
      for (const [id, at] of this.objectiveAt) if (same(at, battle!.at)) this.holders.set(id, winner);
    }
    expect(
      { winner: data.winner, overwhelming: data.overwhelming, cvps: data.cvps },
      `${where}: S4 CVPs of ${data.battle}`,
    ).toEqual({ winner, overwhelming, cvps });
    for (const [player, n] of Object.entries(data.cvps)) this.battleCvps[player] = (this.battleCvps[player] ?? 0) + n;
    for (const [side, army] of [
      [result.attacker, battle!.attacker],
      [result.defender, battle!.defender],
    ] as const) {
      for (const units of Object.values(side.losses)) add(this.lost[this.owner.get(army)!]!, units);
    }
  }

  /**
   * B5, restated: the loser is routed; a winning attacker stands on the battle's square, a winning defender stays there.
   * Draw ruling: both survive; the attacker is back on the square it entered from, unless that square was occupied
   * (other than by its own side on its own home base), in which case it is routed.
   */
  private checkAftermath(data: EventData<"BattleResolved">, where: string): void {
    const battle = this.battles.get(data.battle)!;
    const attacker = this.state.armies[battle.attacker]!;
    const defender = this.state.armies[battle.defender]!;
    const at = (army: typeof attacker) => (army.status === "active" ? army.at : army.status);
    if (data.winner === null) {
      expect(at(defender), `${where}: B5 after a draw the defender stays`).toEqual(battle.at);
      if (attacker.status === "active")
        expect(at(attacker), `${where}: B5 after a draw the attacker falls back`).toEqual(battle.attackerFrom);
      else {
        expect(attacker.status, `${where}: B5 a blocked attacker is routed`).toBe("routed");
        const home = this.state.homeBases[attacker.player]!;
        const blockers = Object.values(this.state.armies).filter(
          (a) =>
            a.id !== attacker.id &&
            a.status === "active" &&
            a.at &&
            same(a.at, battle.attackerFrom) &&
            !(a.player === attacker.player && same(home.at, battle.attackerFrom)),
        );
        expect(
          blockers.length,
          `${where}: B5 the attacker was routed although (${battle.attackerFrom}) was free`,
        ).toBeGreaterThan(0);
      }
      return;
    }
    const [winner, loser] = data.winner === attacker.player ? [attacker, defender] : [defender, attacker];
    expect(loser.status, `${where}: B5 the loser ${loser.id} is routed`).toBe("routed");
    expect(at(winner), `${where}: B5 the winner ${winner.id} holds the battle's square`).toEqual(battle.at);
  }

  /** E2: each side's CVPs as recomputed here; S3 target F / 100. */
  expectedCvps(): Record<string, number> {
    const { force } = this.state.setup!;
    const F = force.maxArmyPoints * force.armies;
    const totals: Record<string, number> = {};
    for (const p of this.players) {
      let total = this.battleCvps[p] ?? 0;
      for (const [id, holder] of this.holders) {
        if (holder !== p) continue;
        if (id.startsWith("objective:")) total += ruleAward(F, 5);
        else if (id !== `homeBase:${p}`) total += ruleAward(F, 10);
      }
      totals[p] = total;
    }
    return totals;
  }

  private checkTurnEnded(data: EventData<"TurnEnded">, rest: readonly CurrentEvent[], where: string): void {
    this.stats.turnsEnded++;
    // D1: the host's seed matches its commitment, and the initiative dice are those the turn's seeds give.
    const turn = this.state.turnState!;
    expect(seedCommitment(data.hostSeed), `${where}: D1 the host's seed matches its commitment`).toBe(
      turn.hostSeedHash,
    );
    const rolled = this.initiative.get(data.turn)!;
    const seeds = {
      campaign: this.state.campaign!,
      turn: data.turn,
      hostSeed: data.hostSeed,
      playerSeeds: this.players.map((p) => turn.playerSeeds[p]!),
    };
    expect(rolled.rounds, `${where}: D1 T2 the initiative dice follow from the seeds`).toEqual(
      rollInitiative(seeds, this.players, rolled.firstDie),
    );
    const final = rolled.rounds[rolled.rounds.length - 1]!;
    expect(rolled.winner, `${where}: T2 the higher die wins`).toBe(
      this.players.reduce((best, p) => (final[p]! > final[best]! ? p : best)),
    );
    const { force } = this.state.setup!;
    const target = Math.round((force.maxArmyPoints * force.armies) / 100);
    const expected = this.expectedCvps();
    expect(data.cvps, `${where}: E2 the turn's CVP totals`).toEqual(expected);
    const reached = this.players.filter((p) => expected[p]! >= target);
    const finished = rest.find((e) => e.type === "CampaignFinished");
    if (reached.length === 0)
      expect(finished, `${where}: E2 nobody reached ${target}: the campaign goes on`).toBeUndefined();
    else {
      expect(finished, `${where}: E2 ${reached.join(", ")} reached ${target}: the campaign is over`).toBeDefined();
      expect(
        finished!.type === "CampaignFinished" && finished!.data.winner,
        `${where}: E2 the winner (null: a draw)`,
      ).toBe(reached.length === 1 ? reached[0] : null);
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // After every accepted command: the state.

  checkInvariants(where: string): void {
    const state = this.state;
    const setup = state.setup!;
    const armies = Object.values(state.armies);
    const onMap = armies.filter((a) => a.status === "active" && a.at !== null);
    const openBattleSquares = new Set(
      Object.values(state.battles)
        .filter((b) => b.turn === state.turn && b.status !== "resolved")
        .map((b) => key(b.at)),
    );

    // a: M2/S7 stacking only on the side's own home base; b: M3/B5 both sides on one square only in an open battle.
    const bySquare = new Map<string, typeof onMap>();
    for (const army of onMap) bySquare.set(key(army.at!), [...(bySquare.get(key(army.at!)) ?? []), army]);
    for (const [square, here] of bySquare) {
      for (const player of this.players) {
        const mine = here.filter((a) => a.player === player);
        const home = state.homeBases[player];
        if (mine.length > 1) {
          expect(
            home && key(home.at) === square,
            `${where}: M2 S7 ${mine.map((a) => a.id).join(", ")} of ${player} share (${square}), not its home base`,
          ).toBe(true);
        }
      }
      const sides = new Set(here.map((a) => a.player));
      if (sides.size > 1) {
        expect(
          openBattleSquares.has(square),
          `${where}: M3 B5 both sides on (${square}) with no open battle there: ${here.map((a) => a.id).join(", ")}`,
        ).toBe(true);
        expect(here.length, `${where}: M3 a battle square holds its two armies`).toBe(2);
      }
    }

    // c: S5 S8 rosters, points and move rates; B5 E5 routed and disbanded armies are off the map.
    for (const army of armies) {
      for (const f of army.formations) {
        for (const [type, n] of Object.entries(f.units)) {
          expect(Number.isInteger(n) && n >= 0, `${where}: S8 ${army.id}/${f.id} has ${n} ${type}`).toBe(true);
        }
      }
      const points = rulePoints(army.formations, setup.catalogue);
      expect(army.points, `${where}: S8 points of ${army.id}`).toBe(points);
      expect(armyPoints(army.formations, setup.catalogue), `${where}: armyPoints(${army.id})`).toBe(points);
      expect(army.moveRate, `${where}: S5 move rate of ${army.id} at ${points} points`).toBe(ruleMoveRate(points));
      expect(moveRate(points), `${where}: moveRate(${points})`).toBe(ruleMoveRate(points));
      if (army.status === "active") expect(army.at, `${where}: ${army.id} is active and on the map`).not.toBeNull();
      else {
        expect(army.at, `${where}: B5 E5 ${army.id} is ${army.status} and off the map`).toBeNull();
        expect(rulePoints(army.formations, setup.catalogue), `${where}: ${army.id} left its units behind`).toBe(0);
      }
    }

    // d: E2 S4 battle CVPs from the log; totals with the objectives and enemy home bases held.
    for (const p of this.players)
      expect(state.ledgers[p]!.battleCvps, `${where}: E2 ${p}'s battle CVPs = sum of BattleResolved cvps`).toBe(
        this.battleCvps[p],
      );
    for (const [id, holder] of this.holders) {
      const [kind, name] = id.split(":") as ["objective" | "homeBase", string];
      const held = kind === "objective" ? state.objectives[name]!.heldBy : state.homeBases[name]!.heldBy;
      expect(held, `${where}: E1 B6 who holds ${id}`).toBe(holder);
    }
    expect(cvpTotals(state), `${where}: E2 S4 cvpTotals`).toEqual(this.expectedCvps());

    // e: E4-E6 units are conserved: initial - battle losses + units bought - units traded in.
    for (const p of this.players) {
      const ledger = state.ledgers[p]!;
      const now: Record<string, number> = {};
      add(now, ledger.reserves);
      for (const batch of ledger.inTransit) {
        add(now, batch.units);
        expect(
          batch.turn,
          `${where}: E4 ${p}'s units In Transit since turn ${batch.turn} should have joined the Reserves`,
        ).toBeGreaterThanOrEqual(state.phase === "end" ? state.turn : state.turn - 1);
      }
      for (const army of armies.filter((a) => a.player === p)) for (const f of army.formations) add(now, f.units);
      for (const [type, n] of Object.entries(now))
        expect(n, `${where}: ${p} holds ${n} ${type}`).toBeGreaterThanOrEqual(0);
      const expected: Record<string, number> = {};
      add(expected, this.initialUnits[p]!);
      add(expected, this.lost[p]!, -1);
      add(expected, this.traded[p]!);
      expect(nonZero(now), `${where}: E4-E6 ${p}'s units on armies + Reserves + In Transit`).toEqual(nonZero(expected));
    }
  }
}

export type { UnitCounts };
