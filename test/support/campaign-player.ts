/**
 * A randomized player for whole turns of a campaign, every choice drawn from fast-check (`fc.gen()`), so that a failing
 * run replays from its seed and shrinks.
 *
 * - `legalDecision` picks a decision of the kind the demo's scripted commanders make (src/demo), each one legal under
 *   ../shared/RULES.md: who activates first, an order and a path from `reach()` (sometimes shortened, sometimes an
 *   order that does not allow the path: a recorded violation, not a refusal), battle results within the rosters,
 *   reported by one player and confirmed (sometimes first rejected) by the other, and End phase commands the Reserves
 *   allow. Orders are written in the clear: the Table commits to them and keeps them secret.
 * - `illegalCommand` mutates the state's legal options into commands the rules refuse, with the rule or field the
 *   refusal should name where it is certain.
 * - `commandsAfterFinish` are schema-valid commands of every kind, for E2.
 */
import { createHash } from "node:crypto";
import fc from "fast-check";
import { HOST, type Order, type RosterFormation, type Square, type UnitCounts } from "../../events/common.js";
import type { ArmyState, BattleState, CampaignState } from "../../projections/state.js";
import { reach } from "../../src/demo/pathing.js";
import { nextActivator, pendingDefenders, unactivatedArmies } from "../../src/rules/action-common.js";
import { commandersInPlay, commandLimit } from "../../src/rules/commanders.js";
import { rulePoints, type IntendedActivation } from "./campaign-audit.js";

export type Gen = fc.GeneratorValue;
export type Plain = Record<string, unknown> & { actor: string; type: string };

export interface Decision {
  command: Plain;
  why: string;
  /** For an activation: what the player meant, for the audit (T4, T5, S7). */
  intended?: IntendedActivation;
}

export interface Illegal {
  command: unknown;
  why: string;
  /** The refusal must name one of these rules, or one of these fields; when both are absent, any rule or field. */
  rules?: string[];
  fields?: string[];
}

const ORDERS: readonly Order[] = ["firstFire", "advance", "charge", "fortify"];

export const pick = <T>(g: Gen, items: readonly T[]): T => {
  if (items.length === 0) throw new Error("pick from nothing");
  return items[g(fc.nat, items.length - 1)]!;
};
export const chance = (g: Gen, percent: number): boolean => g(fc.nat, 99) < percent;
/** Lower-case hex of `chars` characters drawn from fast-check (a commitment, a seed or a salt nobody holds). */
const hex = (g: Gen, chars: number): string =>
  createHash("sha512")
    .update(String(g(fc.integer)))
    .digest("hex")
    .slice(0, chars);

const same = (a: Square, b: Square) => a[0] === b[0] && a[1] === b[1];
const key = ([x, y]: Square) => `${x},${y}`;
const onMapArmies = (state: CampaignState) =>
  Object.values(state.armies).filter((a) => a.status === "active" && a.at !== null);
const hasUnits = (f: RosterFormation) => Object.values(f.units).some((n) => n > 0);
const covers = (pool: Readonly<UnitCounts>, units: Readonly<UnitCounts>) =>
  Object.entries(units).every(([t, n]) => (pool[t] ?? 0) >= n);
const plus = (a: Readonly<UnitCounts>, b: Readonly<UnitCounts>): UnitCounts => {
  const sum: UnitCounts = { ...a };
  for (const [t, n] of Object.entries(b)) sum[t] = (sum[t] ?? 0) + n;
  return sum;
};
const rowsFromEdge = (state: CampaignState, player: string, [x, y]: Square): number => {
  const { map, players } = state.setup!;
  switch (players.find((p) => p.id === player)!.baseLine) {
    case "north":
      return y;
    case "south":
      return map.height - 1 - y;
    case "west":
      return x;
    case "east":
      return map.width - 1 - x;
  }
};
const ceiling = (state: CampaignState) => state.setup!.options.armySize ?? state.setup!.force.maxArmyPoints;
/** A6: whether the army's commander can lead it with these formations (always, without commanders). */
const commandCovers = (state: CampaignState, army: ArmyState, formations: readonly RosterFormation[]) =>
  !commandersInPlay(state.setup!) ||
  typeof army.commanderLevel !== "number" ||
  rulePoints(formations, state.setup!.catalogue) <= commandLimit(army.commanderLevel);
const other = (state: CampaignState, player: string) => state.setup!.players.find((p) => p.id !== player)!.id;

/** S7 ruling: the army stands on its own home base with another of its armies. */
export function isStacked(state: CampaignState, army: ArmyState): boolean {
  const home = state.homeBases[army.player];
  if (!home || !army.at || !same(home.at, army.at)) return false;
  return onMapArmies(state).some((a) => a.id !== army.id && a.player === army.player && same(a.at!, army.at!));
}

/** Orthogonal BFS from the army to the nearest square `isTarget` accepts, entering only squares `passable` accepts. */
function bfs(
  state: CampaignState,
  army: ArmyState,
  maxSteps: number,
  isTarget: (s: Square) => boolean,
  passable: (s: Square) => boolean,
): Square[] | undefined {
  const { width, height } = state.setup!.map;
  const seen = new Set([key(army.at!)]);
  let frontier: Array<{ at: Square; path: Square[] }> = [{ at: army.at!, path: [] }];
  for (let step = 0; step < maxSteps; step++) {
    const next: typeof frontier = [];
    for (const { at, path } of frontier) {
      for (const [dx, dy] of [
        [0, -1],
        [1, 0],
        [0, 1],
        [-1, 0],
      ] as const) {
        const to: Square = [at[0] + dx, at[1] + dy];
        if (to[0] < 0 || to[1] < 0 || to[0] >= width || to[1] >= height || seen.has(key(to))) continue;
        seen.add(key(to));
        if (isTarget(to)) return [...path, to];
        if (passable(to)) next.push({ at: to, path: [...path, to] });
      }
    }
    frontier = next;
  }
  return undefined;
}

/**
 * A random walk of up to `maxSteps` orthogonal steps that may revisit squares (M1 ruling), passing through friends but
 * never through an enemy or a battle square (M3, M4), cut back to its last square it may end on (M2; for a stacked
 * army, not its home base: S7). Sometimes it ends by attacking a lone enemy next to it (M3).
 */
function wander(g: Gen, state: CampaignState, army: ArmyState, maxSteps: number, stacked: boolean): Square[] {
  const { width, height } = state.setup!.map;
  const others = onMapArmies(state).filter((a) => a.id !== army.id);
  const battles = new Set(
    Object.values(state.battles)
      .filter((b) => b.turn === state.turn)
      .map((b) => key(b.at)),
  );
  const friendAt = (s: Square) => others.some((a) => a.player === army.player && same(a.at!, s));
  const enemiesAt = (s: Square) => others.filter((a) => a.player !== army.player && same(a.at!, s));
  const path: Square[] = [];
  let at = army.at!;
  for (let n = g(fc.integer, { min: 1, max: maxSteps }); n > 0; n--) {
    const steps = (
      [
        [at[0], at[1] - 1],
        [at[0] + 1, at[1]],
        [at[0], at[1] + 1],
        [at[0] - 1, at[1]],
      ] as Square[]
    ).filter((s) => s[0] >= 0 && s[1] >= 0 && s[0] < width && s[1] < height && !battles.has(key(s)));
    const open = steps.filter((s) => enemiesAt(s).length === 0);
    const targets = steps.filter((s) => enemiesAt(s).length === 1);
    if (targets.length > 0 && chance(g, 20)) return [...path, pick(g, targets)];
    if (open.length === 0) break;
    at = pick(g, open);
    path.push(at);
  }
  const endsOk = (s: Square) => !friendAt(s) && !(stacked && same(s, army.at!));
  while (path.length > 0 && !endsOk(path[path.length - 1]!)) path.pop();
  return path;
}

// =================================================================================================================
// Legal decisions

export class RandomPlayer {
  /** End phase commands each player has given this turn, to keep End phases short. */
  private readonly endActions = new Map<string, number>();

  constructor(
    private readonly g: Gen,
    /** Seek battles and win them big: campaigns then end in a victory within a few turns (E2). */
    private readonly options: { aggressive?: boolean } = {},
  ) {}

  /** A legal decision for the state, or undefined when the campaign waits only for protocol chores. */
  decide(state: CampaignState): Decision | undefined {
    const turn = state.turnState;
    if (state.status !== "active" || !turn || turn.hostSeed !== null) return undefined;
    const players = state.setup!.players.map((p) => p.id);
    if (state.phase === "action") {
      if (!turn.initiativeWinner) return undefined;
      if (!turn.first)
        return {
          command: { actor: turn.initiativeWinner, type: "ChooseFirst", first: pick(this.g, players) },
          why: "T2 the winner chooses",
        };
      const engaged = pendingDefenders(state)[0];
      if (engaged) return this.activation(state, state.armies[engaged.defender.army]!, true);
      const next = nextActivator(state);
      if (next)
        return this.activation(
          state,
          pick(
            this.g,
            unactivatedArmies(state).filter((a) => a.player === next),
          ),
          false,
        );
      return { command: { actor: HOST, type: "CloseActionPhase" }, why: "T3 no army left to activate" };
    }
    if (state.phase === "battle") return this.battle(state);
    return this.endPhase(state);
  }

  private activation(state: CampaignState, army: ArmyState, engaged: boolean): Decision {
    const g = this.g;
    const rate = army.moveRate;
    const stacked = isStacked(state, army);
    let path: Square[] = [];
    let order: Order;
    let why: string;
    if (engaged) {
      order = pick(g, ORDERS);
      why = "engaged defender gives its order";
    } else {
      const { paths, attacks } = reach(state, army, 2 * rate);
      const moves = [...paths.values()];
      const kinds: Array<"stay" | "move" | "attack" | "wander"> = [];
      // S7 ruling: a stacked army leaves its home base when any square allows it.
      if (!stacked || moves.length === 0) kinds.push("stay");
      if (moves.length > 0) kinds.push("move", "move");
      if (attacks.length > 0) kinds.push("attack", "attack");
      kinds.push("wander");
      const aggressive = this.options.aggressive === true;
      const kind =
        aggressive && attacks.length > 0 && chance(g, 90)
          ? "attack"
          : aggressive && moves.length > 0 && chance(g, 80)
            ? "close in"
            : pick(g, kinds);
      if (kind === "close in") {
        // The demo's way: march on the nearest enemy army.
        const enemies = onMapArmies(state).filter((a) => a.player !== army.player);
        const distance = (s: Square) =>
          Math.min(99, ...enemies.map((e) => Math.abs(e.at![0] - s[0]) + Math.abs(e.at![1] - s[1])));
        path = [...moves].sort(
          (a, b) => distance(a[a.length - 1]!) - distance(b[b.length - 1]!) || a.length - b.length,
        )[0]!;
      } else if (kind === "move") {
        path = pick(g, moves);
        if (path.length > 1 && chance(g, 30)) {
          // M5: a shorter move; it must still end on a square it may end on (no friend there).
          const ends = path.map((_, i) => i + 1).filter((n) => paths.has(key(path[n - 1]!)));
          path = path.slice(0, pick(g, ends));
        }
      } else if (kind === "attack") {
        path = pick(g, attacks).path;
      } else if (kind === "wander") {
        path = wander(g, state, army, 2 * rate, stacked);
        // S7 ruling: a stacked army that can leave may not stay.
        if (path.length === 0 && stacked && moves.length > 0) path = pick(g, moves);
      }
      const cheat = chance(g, 6);
      const allowed: Order[] =
        path.length === 0
          ? stacked
            ? ["advance", "charge"]
            : [...ORDERS, "firstFire", "fortify"]
          : path.length <= rate
            ? ["advance", "charge"]
            : ["charge"];
      const forbidden = ORDERS.filter((o) => !allowed.includes(o));
      order = cheat && forbidden.length > 0 ? pick(g, forbidden) : pick(g, allowed);
      why = `${kind}${cheat && forbidden.length > 0 ? " with an order that does not allow it" : ""}`;
    }
    return {
      command: { actor: army.player, type: "ActivateArmy", army: army.id, order, path },
      why,
      intended: { turn: state.turn, army: army.id, player: army.player, order, moved: path.length, rate, stacked },
    };
  }

  private battle(state: CampaignState): Decision | undefined {
    const g = this.g;
    const open = Object.values(state.battles).filter((b) => b.turn === state.turn && b.status !== "resolved");
    if (open.length === 0) return undefined;
    // B1: results may be entered in any order the players agree.
    const battle = pick(g, open);
    if (battle.status === "pending" || !battle.report) {
      const reporter = pick(g, [battle.attacker.player, battle.defender.player]);
      const result = randomResult(g, state, battle, this.options.aggressive ? 2 : 0);
      return { command: { actor: reporter, type: "ReportBattleResult", battle: battle.id, result }, why: "B4 report" };
    }
    const answerer = battle.report.by === battle.attacker.player ? battle.defender.player : battle.attacker.player;
    if (chance(g, 25))
      return { command: { actor: answerer, type: "RejectBattleResult", battle: battle.id }, why: "B4 reject" };
    return { command: { actor: answerer, type: "ConfirmBattleResult", battle: battle.id }, why: "B4 confirm" };
  }

  private endPhase(state: CampaignState): Decision | undefined {
    const g = this.g;
    const turn = state.turnState!;
    const waiting = state.setup!.players.map((p) => p.id).filter((p) => !turn.endPhaseDone.includes(p));
    if (waiting.length === 0) return undefined;
    const player = pick(g, waiting);
    const done = `${state.turn}/${player}`;
    const finish: Decision = { command: { actor: player, type: "FinishEndPhase" }, why: "T1 done" };
    const count = this.endActions.get(done) ?? 0;
    if (count >= 5 || chance(g, 30)) return finish;
    const options = [
      () => disband(g, state, player),
      () => breakDown(g, state, player),
      () => reinforce(g, state, player),
      () => replace(g, state, player),
      () => raise(g, state, player),
      () => trade(g, state, player),
    ];
    const available = options.map((option) => option()).filter((d): d is Decision => d !== undefined);
    if (available.length === 0) return finish;
    this.endActions.set(done, count + 1);
    return pick(g, available);
  }
}

/** B4: a random result within both rosters: losses at most the units present, routed at most the survivors. */
export function randomResult(g: Gen, state: CampaignState, battle: BattleState, boost = 0) {
  const side = (army: ArmyState) => {
    const losses: Record<string, UnitCounts> = {};
    const routed: Record<string, UnitCounts> = {};
    for (const formation of army.formations) {
      const wiped = chance(g, 12);
      for (const [type, present] of Object.entries(formation.units)) {
        if (present <= 0) continue;
        const lost = wiped ? present : chance(g, 50) ? g(fc.nat, present) : 0;
        const fled = lost < present && chance(g, 25) ? g(fc.nat, present - lost) : 0;
        if (lost > 0) (losses[formation.id] ??= {})[type] = lost;
        if (fled > 0) (routed[formation.id] ??= {})[type] = fled;
      }
    }
    return { vp: boost * battle.vpTarget + g(fc.nat, battle.vpTarget + 20), losses, routed };
  };
  return {
    outcome: pick(g, ["attacker", "defender", "draw"] as const),
    attacker: side(state.armies[battle.attacker.army]!),
    defender: side(state.armies[battle.defender.army]!),
  };
}

// ----- End phase (E5, E6) -----

const ownActive = (state: CampaignState, player: string) =>
  Object.values(state.armies).filter((a) => a.player === player && a.status === "active");
const kindOf = (state: CampaignState, f: RosterFormation) => state.setup!.catalogue.formations[f.formation]?.kind;
const fullUnits = (state: CampaignState, formation: string): UnitCounts => ({
  ...state.setup!.catalogue.formations[formation]!.units,
});

function disband(g: Gen, state: CampaignState, player: string): Decision | undefined {
  const fought = ownActive(state, player).filter((a) => a.battles > 0);
  if (fought.length === 0 || !chance(g, 40)) return undefined;
  return { command: { actor: player, type: "DisbandArmy", army: pick(g, fought).id }, why: "E5 disband" };
}

function breakDown(g: Gen, state: CampaignState, player: string): Decision | undefined {
  const fought = ownActive(state, player).filter((a) => a.battles > 0 && a.formations.length > 1);
  if (fought.length === 0) return undefined;
  const army = pick(g, fought);
  const chosen = army.formations.filter(() => chance(g, 40));
  if (chosen.length === 0 || chosen.length === army.formations.length) return undefined;
  const kept = army.formations.filter((f) => !chosen.includes(f));
  if (!kept.some(hasUnits)) return undefined;
  const command: Plain = { actor: player, type: "BreakDown", army: army.id, formations: chosen.map((f) => f.id) };
  // E5: a live company with a live formation attached goes only if a company from the Reserves replaces it, one
  // company at a time.
  const carrying = chosen.filter(
    (company) =>
      hasUnits(company) &&
      kindOf(state, company) === "company" &&
      kept.some((f) => f.attachedTo === company.id && hasUnits(f)),
  );
  if (carrying.length > 1) return undefined;
  if (carrying.length === 1) {
    if (state.turn < 2) return undefined;
    const reserves = state.ledgers[player]!.reserves;
    const companies = Object.entries(state.setup!.catalogue.formations).filter(
      ([id, f]) =>
        f.kind === "company" &&
        covers(reserves, f.units) &&
        rulePoints([...kept, { id: "new", formation: id, units: { ...f.units } }], state.setup!.catalogue) <=
          ceiling(state) &&
        commandCovers(state, army, [...kept, { id: "new", formation: id, units: { ...f.units } }]),
    );
    if (companies.length === 0) return undefined;
    command["replacement"] = { id: `${carrying[0]!.id}-c${state.turn}`, formation: pick(g, companies)[0] };
    if (kept.some((f) => f.id === (command["replacement"] as { id: string }).id)) return undefined;
  }
  return { command, why: "E5 break down" };
}

function reinforce(g: Gen, state: CampaignState, player: string): Decision | undefined {
  if (state.turn < 2) return undefined;
  const reserves = state.ledgers[player]!.reserves;
  const options: Array<[ArmyState, RosterFormation]> = [];
  for (const army of ownActive(state, player)) {
    for (const f of army.formations) {
      if (!hasUnits(f)) continue;
      const missing: UnitCounts = {};
      for (const [t, n] of Object.entries(fullUnits(state, f.formation)))
        if ((f.units[t] ?? 0) < n) missing[t] = n - (f.units[t] ?? 0);
      if (Object.keys(missing).length > 0 && covers(reserves, missing)) options.push([army, f]);
    }
  }
  if (options.length === 0) return undefined;
  const [army, f] = pick(g, options);
  return {
    command: { actor: player, type: "ReinforceFormation", army: army.id, formation: f.id },
    why: "E6b reinforce",
  };
}

function replace(g: Gen, state: CampaignState, player: string): Decision | undefined {
  if (state.turn < 2) return undefined;
  const reserves = state.ledgers[player]!.reserves;
  const { catalogue } = state.setup!;
  const options: Decision[] = [];
  for (const army of ownActive(state, player)) {
    for (const lost of army.formations.filter((f) => !hasUnits(f))) {
      const others = army.formations.filter((f) => f.id !== lost.id);
      const id = `${lost.id}-r${state.turn}`;
      if (army.formations.some((f) => f.id === id)) continue;
      for (const [formation, entry] of Object.entries(catalogue.formations)) {
        if (formation === lost.formation || !covers(reserves, entry.units)) continue;
        const after = [...others, { id, formation, units: { ...entry.units } }];
        if (rulePoints(after, catalogue) > ceiling(state) || !commandCovers(state, army, after)) continue;
        options.push({
          command: {
            actor: player,
            type: "ReplaceFormation",
            army: army.id,
            formation: lost.id,
            with: { id, formation },
          },
          why: "E6c replace",
        });
      }
    }
  }
  return options.length > 0 ? pick(g, options) : undefined;
}

function raise(g: Gen, state: CampaignState, player: string): Decision | undefined {
  if (state.turn < 2) return undefined;
  const { catalogue, options } = state.setup!;
  const reserves = state.ledgers[player]!.reserves;
  const ids = Object.keys(catalogue.formations);
  let pool: UnitCounts = {};
  let points = 0;
  const formations: Array<{ id: string; formation: string }> = [];
  for (let tries = 0; tries < 12; tries++) {
    const formation = pick(g, ids);
    const entry = catalogue.formations[formation]!;
    const wanted = plus(pool, entry.units);
    if (!covers(reserves, wanted) || points + entry.points > ceiling(state)) continue;
    pool = wanted;
    points += entry.points;
    formations.push({ id: `f${formations.length + 1}`, formation });
  }
  if (points < 1000 || (options.armySize !== undefined && points !== options.armySize)) return undefined;
  // E6a: on the owner's base line (a free square) or its home base (no enemy there).
  const armies = onMapArmies(state);
  const home = state.homeBases[player];
  const squares: Square[] = [];
  if (home && !armies.some((a) => a.player !== player && same(a.at!, home.at))) squares.push(home.at);
  const { width, height } = state.setup!.map;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const square: Square = [x, y];
      if (
        rowsFromEdge(state, player, square) === 0 &&
        !armies.some((a) => same(a.at!, square)) &&
        !(home && same(home.at, square))
      )
        squares.push(square);
    }
  }
  if (squares.length === 0) return undefined;
  const first = formations[0]!;
  const unitType = Object.keys(catalogue.formations[first.formation]!.units)[0]!;
  let n = Object.keys(state.armies).length + 1;
  while (state.armies[`${player}-n${n}`]) n++;
  return {
    command: {
      actor: player,
      type: "RaiseArmy",
      army: `${player}-n${n}`,
      name: `New army ${n}`,
      formations,
      commander: { formation: first.id, unitType },
      at: pick(g, squares),
    },
    why: "E6a raise",
  };
}

function trade(g: Gen, state: CampaignState, player: string): Decision | undefined {
  if (state.turn < 2 || !chance(g, 50)) return undefined;
  const { catalogue } = state.setup!;
  const reserves = state.ledgers[player]!.reserves;
  const coverable = Object.keys(catalogue.formations).filter((f) => covers(reserves, catalogue.formations[f]!.units));
  if (coverable.length === 0) return undefined;
  const tradeIn = [pick(g, coverable)];
  const second = pick(g, coverable);
  if (chance(g, 30) && covers(reserves, plus(fullUnits(state, tradeIn[0]!), fullUnits(state, second))))
    tradeIn.push(second);
  let budget = tradeIn.reduce((sum, f) => sum + catalogue.formations[f]!.points, 0);
  const buy: string[] = [];
  for (let i = g(fc.nat, 3); i > 0; i--) {
    const f = pick(g, Object.keys(catalogue.formations));
    if (catalogue.formations[f]!.points > budget) continue;
    budget -= catalogue.formations[f]!.points;
    buy.push(f);
  }
  return { command: { actor: player, type: "TradeFormations", tradeIn, buy }, why: "E6d trade" };
}

// =================================================================================================================
// Illegal commands

type Maker = () => Illegal | undefined;

/** An engine-ready activation (a commitment instead of an order in the clear). */
const activate = (g: Gen, actor: string, army: string, path: unknown): Plain => ({
  actor,
  type: "ActivateArmy",
  army,
  commitment: hex(g, 64),
  path,
});

/**
 * A command the rules must refuse in this state, made by mutating the legal options. `legal` is the decision the
 * player is about to make (if any).
 */
export function illegalCommand(g: Gen, state: CampaignState, legal: Decision | undefined): Illegal | undefined {
  const setup = state.setup!;
  const players = setup.players.map((p) => p.id);
  const turn = state.turnState!;
  const someone = pick(g, players);
  const armies = Object.values(state.armies);
  const unactivated = state.phase === "action" ? unactivatedArmies(state) : [];
  const legalArmy = legal?.command.type === "ActivateArmy" ? state.armies[String(legal.command["army"])]! : undefined;
  const engaged = legalArmy !== undefined && pendingDefenders(state).some((b) => b.defender.army === legalArmy.id);
  const pathRule = (rule: string) => [engaged ? "M3" : rule];

  const makers: Maker[] = [
    // Wrong types, unknown types, missing and extra fields: the schema names the field.
    () => ({
      command: { actor: someone, type: pick(g, ["Teleport", "activateArmy", "Surrender"]) },
      why: "unknown type",
      fields: ["type"],
    }),
    () => ({ command: pick(g, [null, "ActivateArmy", [1, 2], 42]), why: "not an object", fields: ["command"] }),
    () => ({ command: { actor: someone, type: "ChooseFirst" }, why: "missing field", fields: ["first"] }),
    () => ({
      command: { actor: someone, type: "ActivateArmy", army: 5, commitment: hex(g, 64), path: [] },
      why: "army of the wrong type",
      fields: ["army"],
    }),
    () => ({
      command: { actor: someone, type: "ActivateArmy", army: armies[0]!.id, commitment: hex(g, 64), path: "north" },
      why: "path of the wrong type",
      fields: ["path"],
    }),
    () => ({
      command: { actor: someone, type: "ActivateArmy", army: armies[0]!.id, commitment: "advance", path: [] },
      why: "an order in the clear in the log",
      fields: ["commitment"],
    }),
    () => ({
      command: { actor: someone, type: "ActivateArmy", army: armies[0]!.id, commitment: hex(g, 64), path: [[1.5, 0]] },
      why: "a fractional square",
      fields: ["path[0][0]"],
    }),
    () => ({ command: { actor: 7, type: "FinishEndPhase" }, why: "actor of the wrong type", fields: ["actor"] }),
    () => ({
      command: { actor: someone, type: "FinishEndPhase", cheat: true },
      why: "unknown field",
      fields: ["cheat"],
    }),
    () => ({
      command: {
        actor: someone,
        type: "ReportBattleResult",
        battle: "t1b1",
        result: {
          outcome: "victory",
          attacker: { vp: 1, losses: {}, routed: {} },
          defender: { vp: 1, losses: {}, routed: {} },
        },
      },
      why: "an outcome that is not one",
      fields: ["result.outcome"],
    }),
    () => ({
      command: {
        actor: someone,
        type: "ReportBattleResult",
        battle: "t1b1",
        result: {
          outcome: "draw",
          attacker: { vp: -3, losses: {}, routed: {} },
          defender: { vp: 1, losses: {}, routed: {} },
        },
      },
      why: "negative VPs",
      fields: ["result.attacker.vp"],
    }),
    // Who may act.
    () => {
      if (!legal) return undefined;
      const actor = legal.command.actor === HOST ? someone : pick(g, ["ghost", HOST]);
      const command =
        legal.command.type === "ActivateArmy"
          ? activate(g, actor, String(legal.command["army"]), legal.command["path"])
          : { ...legal.command, actor };
      return { command, why: `the legal ${legal.command.type} by ${actor}`, fields: ["actor"] };
    },
    () => ({
      command: { actor: someone, type: "StartTurn", hostSeedHash: hex(g, 64) },
      why: "a player starts a turn",
      fields: ["actor"],
    }),
    () => ({
      command: { actor: someone, type: "EndTurn", hostSeed: hex(g, 64) },
      why: "a player ends the turn",
      fields: ["actor"],
    }),
    // The protocol's own steps, out of place.
    () => ({
      command: { actor: HOST, type: "StartTurn", hostSeedHash: hex(g, 64) },
      why: "a turn started while one is under way",
      rules: ["T1"],
    }),
    () => ({
      command: { actor: someone, type: "GiveSeed", seed: hex(g, 64) },
      why: "a second dice seed",
      rules: state.phase === "action" ? ["D1"] : ["T1"],
    }),
    () => ({
      command: { actor: HOST, type: "RollInitiative", rounds: [Object.fromEntries(players.map((p, i) => [p, 6 - i]))] },
      why: "initiative rolled twice",
      rules: state.phase === "action" ? ["T2"] : ["T1"],
    }),
    () =>
      turn.endPhaseDone.length === players.length
        ? undefined
        : {
            command: { actor: HOST, type: "EndTurn", hostSeed: hex(g, 64) },
            why: "the turn ended early",
            rules: ["T1"],
          },
    () =>
      state.phase === "action" && turn.first && unactivated.length === 0
        ? undefined
        : {
            command: { actor: HOST, type: "CloseActionPhase" },
            why: "the Action phase closed early",
            rules: state.phase !== "action" ? ["T1"] : turn.first ? ["T3"] : ["T2"],
          },
    // Unknown ids.
    () => ({
      command: activate(g, someone, "ghost-army", []),
      why: "an unknown army",
      ...(state.phase === "action" && turn.first ? { fields: ["army"] } : { rules: ["T1", "T2"] }),
    }),
    () =>
      state.phase === "battle"
        ? {
            command: { actor: someone, type: "ConfirmBattleResult", battle: "t99b9" },
            why: "an unknown battle",
            fields: ["battle"],
          }
        : undefined,
  ];

  if (state.phase === "action") {
    const notWinner = turn.initiativeWinner ? other(state, turn.initiativeWinner) : someone;
    makers.push(
      () => ({
        command: { actor: turn.first ? someone : notWinner, type: "ChooseFirst", first: someone },
        why: "ChooseFirst by the loser or twice",
        rules: ["T2"],
      }),
      // End phase and Battle phase commands in the Action phase.
      () => ({
        command: { actor: someone, type: "FinishEndPhase" },
        why: "End phase command in the Action phase",
        rules: ["T1"],
      }),
      () => ({
        command: { actor: someone, type: "DisbandArmy", army: pick(g, armies).id },
        why: "End phase command in the Action phase",
        rules: ["T1"],
      }),
      () => ({
        command: { actor: someone, type: "ReinforceFormation", army: pick(g, armies).id, formation: "line" },
        why: "End phase command in the Action phase",
        rules: ["T1"],
      }),
      () => ({
        command: {
          actor: someone,
          type: "TradeFormations",
          tradeIn: [Object.keys(setup.catalogue.formations)[0]!],
          buy: [],
        },
        why: "End phase command in the Action phase",
        rules: ["T1"],
      }),
      () => ({
        command: { actor: someone, type: "ConfirmBattleResult", battle: "t1b1" },
        why: "a Battle phase command in the Action phase",
        rules: ["T1"],
      }),
    );
    if (turn.first) {
      const activated = Object.keys(turn.activations);
      const revealed = Object.values(turn.activations).filter((a) => a.order !== null);
      makers.push(
        // T3: a second activation.
        () => {
          if (activated.length === 0) return undefined;
          const army = state.armies[pick(g, activated)]!;
          return { command: activate(g, army.player, army.id, []), why: "a second activation", rules: ["T3"] };
        },
        // T3/T5: out of turn.
        () => {
          if (!legalArmy) return undefined;
          const pending = new Set(pendingDefenders(state).map((b) => b.defender.army));
          const others = unactivated.filter(
            (a) => a.id !== legalArmy.id && !pending.has(a.id) && (engaged || a.player !== legalArmy.player),
          );
          if (others.length === 0) return undefined;
          const army = pick(g, others);
          return {
            command: activate(g, army.player, army.id, []),
            why: "an activation out of turn",
            rules: ["T3", "T5"],
          };
        },
        // The enemy's army.
        () => {
          if (!legalArmy) return undefined;
          const enemies = armies.filter((a) => a.player !== legalArmy.player);
          if (enemies.length === 0) return undefined;
          return {
            command: activate(g, legalArmy.player, pick(g, enemies).id, []),
            why: "activating an enemy army",
            fields: ["actor"],
          };
        },
        // Moves no order allows.
        () => {
          if (!legalArmy) return undefined;
          const [x, y] = legalArmy.at!;
          const { width, height } = setup.map;
          const diagonals = (
            [
              [x + 1, y + 1],
              [x - 1, y + 1],
              [x + 1, y - 1],
              [x - 1, y - 1],
            ] as Square[]
          ).filter(([a, b]) => a >= 0 && b >= 0 && a < width && b < height);
          if (diagonals.length === 0) return undefined;
          return {
            command: activate(g, legalArmy.player, legalArmy.id, [pick(g, diagonals)]),
            why: "a diagonal step",
            rules: pathRule("M1"),
          };
        },
        () => {
          if (!legalArmy) return undefined;
          const [x, y] = legalArmy.at!;
          const { width, height } = setup.map;
          const jumps = (
            [
              [x + 2, y],
              [x - 2, y],
              [x, y + 2],
              [x, y - 2],
            ] as Square[]
          ).filter(([a, b]) => a >= 0 && b >= 0 && a < width && b < height);
          if (jumps.length === 0) return undefined;
          return {
            command: activate(g, legalArmy.player, legalArmy.id, [pick(g, jumps)]),
            why: "a jump over a square",
            rules: pathRule("M1"),
          };
        },
        () =>
          legalArmy
            ? {
                command: activate(g, legalArmy.player, legalArmy.id, [[setup.map.width + g(fc.nat, 5), 0]]),
                why: "a step off the map",
                rules: pathRule("M1"),
              }
            : undefined,
        () => {
          if (!legalArmy) return undefined;
          const at = legalArmy.at!;
          const { width, height } = setup.map;
          const neighbour = (
            [
              [at[0] + 1, at[1]],
              [at[0] - 1, at[1]],
              [at[0], at[1] + 1],
              [at[0], at[1] - 1],
            ] as Square[]
          ).find(([a, b]) => a >= 0 && b >= 0 && a < width && b < height)!;
          const steps = 2 * legalArmy.moveRate + 1 + g(fc.nat, 3);
          const path = Array.from({ length: steps }, (_, i) => (i % 2 === 0 ? neighbour : at));
          return {
            command: activate(g, legalArmy.player, legalArmy.id, path),
            why: "a path longer than Charge allows",
            rules: pathRule("T4"),
          };
        },
        () => {
          if (!legalArmy || engaged) return undefined;
          const { attacks } = reach(state, legalArmy, 2 * legalArmy.moveRate);
          if (attacks.length === 0) return undefined;
          const attack = pick(g, attacks);
          const enemyAt = attack.path[attack.path.length - 1]!;
          const { width, height } = setup.map;
          const beyond = (
            [
              [enemyAt[0] + 1, enemyAt[1]],
              [enemyAt[0] - 1, enemyAt[1]],
              [enemyAt[0], enemyAt[1] + 1],
              [enemyAt[0], enemyAt[1] - 1],
            ] as Square[]
          ).filter(([a, b]) => a >= 0 && b >= 0 && a < width && b < height);
          const path = [...attack.path, pick(g, beyond)];
          return {
            command: activate(g, legalArmy.player, legalArmy.id, path),
            why: "a path through an enemy army",
            rules: path.length > 2 * legalArmy.moveRate ? ["T4"] : ["M3"],
          };
        },
        () => {
          if (!legalArmy || engaged) return undefined;
          const battles = new Set(
            Object.values(state.battles)
              .filter((b) => b.turn === state.turn)
              .map((b) => key(b.at)),
          );
          if (battles.size === 0) return undefined;
          const enemies = new Set(
            onMapArmies(state)
              .filter((a) => a.player !== legalArmy.player)
              .map((a) => key(a.at!)),
          );
          const path = bfs(
            state,
            legalArmy,
            2 * legalArmy.moveRate,
            (s) => battles.has(key(s)),
            (s) => !enemies.has(key(s)) && !battles.has(key(s)),
          );
          return path
            ? {
                command: activate(g, legalArmy.player, legalArmy.id, path),
                why: "a path into a battle's square",
                rules: ["M4"],
              }
            : undefined;
        },
        () => {
          if (!legalArmy || engaged) return undefined;
          const battles = new Set(
            Object.values(state.battles)
              .filter((b) => b.turn === state.turn)
              .map((b) => key(b.at)),
          );
          const enemies = new Set(
            onMapArmies(state)
              .filter((a) => a.player !== legalArmy.player)
              .map((a) => key(a.at!)),
          );
          const friends = new Set(
            onMapArmies(state)
              .filter((a) => a.player === legalArmy.player && a.id !== legalArmy.id)
              .map((a) => key(a.at!)),
          );
          const path = bfs(
            state,
            legalArmy,
            2 * legalArmy.moveRate,
            (s) => friends.has(key(s)) && !battles.has(key(s)),
            (s) => !enemies.has(key(s)) && !battles.has(key(s)),
          );
          return path
            ? {
                command: activate(g, legalArmy.player, legalArmy.id, path),
                why: "a move ending on a friend",
                rules: ["M2"],
              }
            : undefined;
        },
        () => {
          if (!legalArmy || engaged || !isStacked(state, legalArmy)) return undefined;
          if (reach(state, legalArmy, 2 * legalArmy.moveRate).paths.size === 0) return undefined;
          return {
            command: activate(g, legalArmy.player, legalArmy.id, []),
            why: "a stacked army staying on its home base",
            rules: ["S7"],
          };
        },
        () =>
          engaged && legalArmy
            ? {
                command: activate(g, legalArmy.player, legalArmy.id, [pick(g, [[0, 0], legalArmy.at!] as Square[])]),
                why: "a pinned defender moving",
                rules: ["M3"],
              }
            : undefined,
        // T5: nothing to reveal.
        () => {
          const candidates = [...unactivated, ...revealed.map((a) => state.armies[a.army]!)];
          if (candidates.length === 0) return undefined;
          const army = pick(g, candidates);
          return {
            command: {
              actor: army.player,
              type: "RevealOrder",
              army: army.id,
              order: pick(g, ORDERS),
              salt: hex(g, 32),
            },
            why: "a reveal of no hidden order",
            rules: ["T5"],
          };
        },
      );
    }
  }

  if (state.phase === "battle") {
    const thisTurn = Object.values(state.battles).filter((b) => b.turn === state.turn);
    const pending = thisTurn.filter((b) => b.status === "pending");
    const reported = thisTurn.filter((b) => b.status === "reported");
    const resolved = Object.values(state.battles).filter((b) => b.status === "resolved");
    makers.push(
      () => ({
        command: activate(g, someone, pick(g, armies).id, []),
        why: "an activation in the Battle phase",
        rules: ["T1"],
      }),
      () => ({
        command: { actor: someone, type: "DisbandArmy", army: pick(g, armies).id },
        why: "End phase command in the Battle phase",
        rules: ["T1"],
      }),
      () => ({
        command: { actor: someone, type: "FinishEndPhase" },
        why: "End phase command in the Battle phase",
        rules: ["T1"],
      }),
      () => {
        if (pending.length === 0) return undefined;
        const battle = pick(g, pending);
        const result = randomResult(g, state, battle);
        const role = pick(g, ["attacker", "defender"] as const);
        const army = state.armies[battle[role].army]!;
        const formation = pick(g, army.formations);
        const types = Object.keys(formation.units);
        const variant = g(fc.nat, 3);
        const sideResult = result[role];
        if (variant === 0 && types.length > 0) {
          const type = pick(g, types);
          sideResult.losses = {
            ...sideResult.losses,
            [formation.id]: {
              ...(sideResult.losses[formation.id] ?? {}),
              [type]: (formation.units[type] ?? 0) + 1 + g(fc.nat, 3),
            },
          };
          return {
            command: { actor: battle.attacker.player, type: "ReportBattleResult", battle: battle.id, result },
            why: "losses over the roster",
            rules: ["B4"],
          };
        }
        if (variant === 1 && types.length > 0) {
          const type = pick(g, types);
          const present = formation.units[type] ?? 0;
          const lost = Math.min(present, sideResult.losses[formation.id]?.[type] ?? 0);
          sideResult.losses = {
            ...sideResult.losses,
            [formation.id]: { ...(sideResult.losses[formation.id] ?? {}), [type]: lost },
          };
          sideResult.routed = { ...sideResult.routed, [formation.id]: { [type]: present - lost + 1 } };
          return {
            command: { actor: battle.defender.player, type: "ReportBattleResult", battle: battle.id, result },
            why: "more routed than survived",
            rules: ["B4"],
          };
        }
        if (variant === 2) {
          sideResult.losses = { ...sideResult.losses, "no-such-formation": { "battle-tank": 1 } };
          return {
            command: { actor: battle.attacker.player, type: "ReportBattleResult", battle: battle.id, result },
            why: "losses of a formation the army lacks",
            rules: ["B4"],
          };
        }
        sideResult.routed = { ...sideResult.routed, [formation.id]: { "no-such-unit": 1 } };
        return {
          command: { actor: battle.defender.player, type: "ReportBattleResult", battle: battle.id, result },
          why: "a unit type the formation lacks",
          rules: ["B4"],
        };
      },
      () =>
        pending.length > 0
          ? {
              command: { actor: pick(g, players), type: "ConfirmBattleResult", battle: pick(g, pending).id },
              why: "confirming what nobody reported",
              rules: ["B4"],
            }
          : undefined,
      () => {
        if (reported.length === 0) return undefined;
        const battle = pick(g, reported);
        return {
          command: {
            actor: battle.report!.by,
            type: pick(g, ["ConfirmBattleResult", "RejectBattleResult"]),
            battle: battle.id,
          },
          why: "the reporter answers itself",
          fields: ["actor"],
        };
      },
      () => {
        if (reported.length === 0) return undefined;
        const battle = pick(g, reported);
        return {
          command: {
            actor: pick(g, players),
            type: "ReportBattleResult",
            battle: battle.id,
            result: randomResult(g, state, battle),
          },
          why: "a second report",
          rules: ["B4"],
        };
      },
      () => {
        if (resolved.length === 0) return undefined;
        const battle = pick(g, resolved);
        return {
          command: {
            actor: battle.attacker.player,
            type: "ReportBattleResult",
            battle: battle.id,
            result: randomResult(g, state, battle),
          },
          why: "a resolved battle reported again",
          rules: ["B4"],
        };
      },
      () => ({
        command: {
          actor: HOST,
          type: "ReportBattleResult",
          battle: pending[0]?.id ?? "t1b1",
          result: {
            outcome: "draw",
            attacker: { vp: 0, losses: {}, routed: {} },
            defender: { vp: 0, losses: {}, routed: {} },
          },
        },
        why: "the host reports",
        ...(pending[0] ? { fields: ["actor"] } : {}),
      }),
    );
  }

  if (state.phase === "end") {
    const waiting = players.filter((p) => !turn.endPhaseDone.includes(p));
    const doneAlready = players.filter((p) => turn.endPhaseDone.includes(p));
    const actor = waiting.length > 0 ? pick(g, waiting) : someone;
    const own = armies.filter((a) => a.player === actor);
    const enemy = armies.filter((a) => a.player !== actor);
    const reserves = state.ledgers[actor]!.reserves;
    const { catalogue } = setup;
    makers.push(
      () => ({
        command: activate(g, someone, pick(g, armies).id, []),
        why: "an activation in the End phase",
        rules: ["T1"],
      }),
      () => ({
        command: { actor: someone, type: "ConfirmBattleResult", battle: "t1b1" },
        why: "a Battle phase command in the End phase",
        rules: ["T1"],
      }),
      () =>
        doneAlready.length > 0
          ? { command: { actor: pick(g, doneAlready), type: "FinishEndPhase" }, why: "finishing twice", rules: ["T1"] }
          : undefined,
      () =>
        doneAlready.length > 0
          ? {
              command: { actor: pick(g, doneAlready), type: "DisbandArmy", army: pick(g, armies).id },
              why: "acting after finishing",
              rules: ["E5"],
            }
          : undefined,
      () => {
        if (waiting.length === 0) return undefined;
        const unfought = own.filter((a) => a.status === "active" && a.battles === 0);
        const gone = own.filter((a) => a.status !== "active");
        const variant = g(fc.nat, 2);
        if (variant === 0 && unfought.length > 0)
          return {
            command: { actor, type: "DisbandArmy", army: pick(g, unfought).id },
            why: "disbanding an army that has not fought",
            rules: ["E5"],
          };
        if (variant === 1 && gone.length > 0)
          return {
            command: { actor, type: "DisbandArmy", army: pick(g, gone).id },
            why: "disbanding an army no longer on the map",
            rules: ["E5"],
          };
        if (enemy.length > 0)
          return {
            command: { actor, type: "DisbandArmy", army: pick(g, enemy).id },
            why: "disbanding the enemy's army",
            fields: ["actor"],
          };
        return undefined;
      },
      () => {
        const active = own.filter((a) => a.status === "active");
        if (waiting.length === 0 || active.length === 0) return undefined;
        const army = pick(g, active);
        return {
          command: { actor, type: "BreakDown", army: army.id, formations: army.formations.map((f) => f.id) },
          why: "breaking down a whole army",
          rules: ["E5"],
        };
      },
      () =>
        waiting.length > 0
          ? {
              command: { actor, type: "BreakDown", army: "ghost-army", formations: ["line"] },
              why: "an unknown army",
              fields: ["army"],
            }
          : undefined,
      () => {
        if (waiting.length === 0) return undefined;
        const options: Array<[ArmyState, RosterFormation]> = [];
        for (const army of own.filter((a) => a.status === "active")) {
          for (const f of army.formations) {
            const full = catalogue.formations[f.formation]!.units;
            const atFull = Object.entries(full).every(([t, n]) => (f.units[t] ?? 0) >= n);
            if (atFull || !hasUnits(f)) options.push([army, f]);
          }
        }
        if (options.length === 0) return undefined;
        const [army, f] = pick(g, options);
        return {
          command: { actor, type: "ReinforceFormation", army: army.id, formation: f.id },
          why: "reinforcing a full or wiped-out formation",
          rules: ["E6"],
        };
      },
      () => {
        if (waiting.length === 0) return undefined;
        const options: Array<[ArmyState, RosterFormation]> = [];
        for (const army of own.filter((a) => a.status === "active"))
          for (const f of army.formations) if (hasUnits(f)) options.push([army, f]);
        if (options.length === 0) return undefined;
        const [army, f] = pick(g, options);
        const formation = pick(g, Object.keys(catalogue.formations));
        return {
          command: {
            actor,
            type: "ReplaceFormation",
            army: army.id,
            formation: f.id,
            with: { id: `${f.id}-x`, formation },
          },
          why: "replacing a formation that still has units",
          rules: ["E6", "S8"],
        };
      },
      () => {
        if (waiting.length === 0) return undefined;
        // E6a: an army the Reserves cannot build (or any army in turn 1).
        const entries = Object.entries(catalogue.formations).sort(([, a], [, b]) => b.points - a.points);
        const formations: Array<{ id: string; formation: string }> = [];
        let points = 0;
        let units: UnitCounts = {};
        for (const [id, entry] of entries) {
          while (points + entry.points <= ceiling(state) && formations.length < 8) {
            formations.push({ id: `g${formations.length}`, formation: id });
            points += entry.points;
            units = plus(units, entry.units);
          }
        }
        if (points < 1000 || (state.turn >= 2 && covers(reserves, units))) return undefined;
        const home = state.homeBases[actor]!;
        const first = formations[0]!;
        return {
          command: {
            actor,
            type: "RaiseArmy",
            army: `${actor}-ghost`,
            name: "Paper army",
            formations,
            commander: { formation: first.id, unitType: Object.keys(catalogue.formations[first.formation]!.units)[0]! },
            at: home.at,
          },
          why: "raising an army the Reserves cannot build",
          rules: ["E6", "E4", "S2", "S7"],
        };
      },
      () => {
        if (waiting.length === 0) return undefined;
        const missing = Object.keys(catalogue.formations).filter(
          (f) => !covers(reserves, catalogue.formations[f]!.units),
        );
        if (missing.length === 0 && state.turn >= 2) return undefined;
        const tradeIn = missing.length > 0 ? pick(g, missing) : pick(g, Object.keys(catalogue.formations));
        return {
          command: { actor, type: "TradeFormations", tradeIn: [tradeIn], buy: [] },
          why: "trading in what the Reserves lack",
          rules: ["E6", "E4"],
        };
      },
      () => {
        if (waiting.length === 0 || state.turn < 2) return undefined;
        const held = Object.keys(catalogue.formations).filter((f) => covers(reserves, catalogue.formations[f]!.units));
        if (held.length === 0) return undefined;
        const tradeIn = pick(g, held);
        const points = catalogue.formations[tradeIn]!.points;
        const dearer = Object.keys(catalogue.formations).filter((f) => catalogue.formations[f]!.points > points);
        if (dearer.length === 0) return undefined;
        return {
          command: { actor, type: "TradeFormations", tradeIn: [tradeIn], buy: [pick(g, dearer)] },
          why: "buying more than was traded in",
          rules: ["E6"],
        };
      },
    );
  }

  for (let tries = 0; tries < 8; tries++) {
    const result = pick(g, makers)();
    if (result) return result;
  }
  return undefined;
}

/** E2: schema-valid commands of every kind, which a finished campaign must all refuse. */
export function commandsAfterFinish(g: Gen, state: CampaignState, hostSeed: string | undefined): Plain[] {
  const players = state.setup!.players.map((p) => p.id);
  const p = pick(g, players);
  const army = pick(g, Object.values(state.armies));
  const battle = Object.values(state.battles)[0]?.id ?? "t1b1";
  const formation = Object.keys(state.setup!.catalogue.formations)[0]!;
  const nil = { vp: 0, losses: {}, routed: {} };
  return [
    { actor: p, type: "CommitSeed", seedHash: hex(g, 64) },
    { actor: HOST, type: "StartTurn", hostSeedHash: hex(g, 64) },
    { actor: p, type: "GiveSeed", seed: hex(g, 64) },
    { actor: HOST, type: "RollInitiative", rounds: [Object.fromEntries(players.map((id, i) => [id, 6 - i]))] },
    { actor: p, type: "ChooseFirst", first: p },
    activate(g, army.player, army.id, []),
    { actor: army.player, type: "RevealOrder", army: army.id, order: "advance", salt: hex(g, 32) },
    { actor: HOST, type: "CloseActionPhase" },
    { actor: p, type: "ReportBattleResult", battle, result: { outcome: "draw", attacker: nil, defender: nil } },
    { actor: p, type: "ConfirmBattleResult", battle },
    { actor: p, type: "RejectBattleResult", battle },
    { actor: army.player, type: "DisbandArmy", army: army.id },
    { actor: army.player, type: "BreakDown", army: army.id, formations: [army.formations[0]!.id] },
    { actor: army.player, type: "ReinforceFormation", army: army.id, formation: army.formations[0]!.id },
    {
      actor: army.player,
      type: "ReplaceFormation",
      army: army.id,
      formation: army.formations[0]!.id,
      with: { id: "fresh", formation },
    },
    {
      actor: p,
      type: "RaiseArmy",
      army: "late",
      name: "Too late",
      formations: [{ id: "a", formation }],
      commander: { formation: "a", unitType: Object.keys(state.setup!.catalogue.formations[formation]!.units)[0]! },
      at: [0, 0],
    },
    { actor: p, type: "TradeFormations", tradeIn: [formation], buy: [] },
    { actor: p, type: "FinishEndPhase" },
    { actor: HOST, type: "EndTurn", hostSeed: hostSeed ?? hex(g, 64) },
    { actor: p, type: "PlaceObjective", at: [0, 0] },
  ];
}
