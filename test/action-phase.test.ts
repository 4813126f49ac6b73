import fc from "fast-check";
import { produce } from "immer";
import { describe, expect, it } from "vitest";
import type { Order, Square } from "../events/common.js";
import { catalogue, type DomainEvent, type EventOf } from "../events/index.js";
import { initialState, type CampaignState } from "../projections/state.js";
import { checkCommand } from "../src/engine/command-schemas.js";
import { orderCommitment } from "../src/crypto/commitments.js";
import { decide } from "../src/engine/decide.js";
import { sha256Hex } from "../src/log/hash.js";
import { alternation } from "../src/rules/action-common.js";
import { canLeave } from "../src/rules/movement.js";
import type { Surroundings } from "../src/rules/surroundings.js";
import { predict } from "../src/rules/phases.js";
import type { Refusal } from "../src/rules/refusal.js";
import { setupCommands } from "../src/setup/setup-file.js";
import { goldenSetup } from "./support/fixtures.js";

/** The time the commands here are decided at: none of their rules reads it (only O2's deadline does). */
const DECIDED_AT = "2026-01-01T00:00:00.000Z";

/**
 * The Action phase (T1-T5, M1-M5, S7 ruling, E1 captures) through the pure `decide` + `predict`, on the golden
 * fixture fixtures/action-close.json: a 16 x 6 map, red on the north edge and blue on the south, three armies each,
 * r2 and r3 stacked on red's home base (7,0), b2 and b3 on blue's (8,5); r1 at (4,0) and b1 at (4,5) can reach each
 * other on turn 1. The expectations are restated from ../shared/RULES.md rather than taken from src/rules.
 */

type Event = DomainEvent & { seq: number };
type Outcome = { ok: true; events: Event[] } | { ok: false; refusal: Refusal };

const HOST_SEED = "5eed".repeat(16);
const SALT = "5a17".repeat(8);
const PLAYERS = ["red", "blue"] as const;
const HOME: Record<string, Square> = { red: [7, 0], blue: [8, 5] };
const WIDTH = 16;
const HEIGHT = 6;

/** One campaign, decided and predicted in memory, keeping every event with its seq. */
class Campaign {
  readonly events: Event[] = [];
  state: CampaignState = initialState;

  apply(input: unknown): Outcome {
    const checked = checkCommand(input);
    if (!checked.ok) return { ok: false, refusal: { kind: "field", field: checked.field, message: checked.message } };
    const decision = decide(this.state, checked.command, DECIDED_AT);
    if (!decision.ok) return decision;
    const events = decision.events.map((event, i) => ({ ...event, seq: this.state.seq + i + 1 }) as Event);
    this.state = predict(this.state, decision.events);
    this.events.push(...events);
    return { ok: true, events };
  }

  must(input: unknown): Event[] {
    const outcome = this.apply(input);
    if (!outcome.ok) throw new Error(`refused: ${JSON.stringify(outcome.refusal)} for ${JSON.stringify(input)}`);
    return outcome.events;
  }

  commitment(army: string, order: Order, salt = SALT): string {
    return orderCommitment({ campaign: this.state.campaign!, turn: this.state.turn, army, order, salt });
  }

  activate(army: string, order: Order, path: Square[], actor = army.startsWith("r") ? "red" : "blue"): Outcome {
    return this.apply({ type: "ActivateArmy", actor, army, commitment: this.commitment(army, order), path });
  }

  reveal(army: string, order: Order, salt = SALT): Outcome {
    return this.apply({ type: "RevealOrder", actor: army.startsWith("r") ? "red" : "blue", army, order, salt });
  }

  /** Test set-ups only: move things around in the state, as if earlier turns had put them there. */
  arrange(recipe: (draft: CampaignState) => void): void {
    this.state = produce(this.state, recipe);
  }
}

/** Turn 1 of the close fixture, initiative rolled, `first` chosen. */
function started(first: "red" | "blue" = "red"): Campaign {
  const campaign = new Campaign();
  for (const step of setupCommands(goldenSetup("action-close.json"))) campaign.must(step.command);
  campaign.must({ type: "CommitSeed", actor: "red", seedHash: sha256Hex("a1".repeat(16)) });
  campaign.must({ type: "CommitSeed", actor: "blue", seedHash: sha256Hex("b2".repeat(16)) });
  campaign.must({ type: "StartTurn", actor: "host", hostSeedHash: sha256Hex(HOST_SEED) });
  campaign.must({ type: "GiveSeed", actor: "red", seed: "a1".repeat(16) });
  campaign.must({ type: "GiveSeed", actor: "blue", seed: "b2".repeat(16) });
  campaign.must({ type: "RollInitiative", actor: "host", rounds: [{ red: 6, blue: 1 }] });
  campaign.must({ type: "ChooseFirst", actor: "red", first });
  return campaign;
}

const ofType = <T extends DomainEvent["type"]>(events: readonly Event[], type: T) =>
  events.filter((event): event is EventOf<T> & { seq: number } => event.type === type);

describe("T3 alternation", () => {
  const players = ["red", "blue"];
  it("T3 the player chosen first opens", () => {
    expect(alternation({ players, first: "blue", lastActivator: null, remaining: { red: 3, blue: 3 } })).toBe("blue");
  });
  it("T3 players alternate one army each", () => {
    expect(alternation({ players, first: "blue", lastActivator: "blue", remaining: { red: 3, blue: 2 } })).toBe("red");
    expect(alternation({ players, first: "blue", lastActivator: "red", remaining: { red: 2, blue: 2 } })).toBe("blue");
  });
  it("T3 when one player has no army left the other activates the rest one by one", () => {
    expect(alternation({ players, first: "red", lastActivator: "red", remaining: { red: 2, blue: 0 } })).toBe("red");
    expect(alternation({ players, first: "red", lastActivator: "blue", remaining: { blue: 1 } })).toBe("blue");
  });
  it("T3 a first player with no army at all gives way to the other", () => {
    expect(alternation({ players, first: "red", lastActivator: null, remaining: { red: 0, blue: 2 } })).toBe("blue");
  });
  it("T3 nobody activates once every army has been activated, or before first is chosen", () => {
    expect(alternation({ players, first: "red", lastActivator: "blue", remaining: { red: 0, blue: 0 } })).toBeNull();
    expect(alternation({ players, first: null, lastActivator: null, remaining: { red: 2, blue: 2 } })).toBeNull();
  });
});

describe("S7 ruling: can a stacked army leave its home base", () => {
  const around = (friends: Square[], enemies: Square[], battles: Square[] = []): Surroundings => ({
    width: 5,
    height: 3,
    friends: new Map(friends.map((at) => [`${at[0]},${at[1]}`, []])),
    enemies: new Map(enemies.map((at) => [`${at[0]},${at[1]}`, []])),
    battles: new Map(battles.map((at) => [`${at[0]},${at[1]}`, {} as never])),
  });
  it("S7 an empty neighbouring square is a legal square to end on", () => {
    expect(canLeave(around([[0, 0]], []), [0, 0], 2)).toBe(true);
  });
  it("S7 friends may be passed through to an empty square within reach", () => {
    expect(
      canLeave(
        around(
          [
            [0, 0],
            [1, 0],
            [0, 1],
          ],
          [],
        ),
        [0, 0],
        2,
      ),
    ).toBe(true);
    expect(
      canLeave(
        around(
          [
            [0, 0],
            [1, 0],
            [0, 1],
            [2, 0],
            [1, 1],
            [0, 2],
          ],
          [],
        ),
        [0, 0],
        2,
      ),
    ).toBe(false);
  });
  it("S7 enemy and battle squares are no way off: the ruling never forces an attack (M3, M4)", () => {
    expect(canLeave(around([[0, 0]], [[1, 0]], [[0, 1]]), [0, 0], 6)).toBe(false);
  });
});

describe("ActivateArmy and RevealOrder", () => {
  it("S7 a stacked army with no legal square to end on may stay on its home base; First Fire is still recorded", () => {
    const campaign = started("red");
    // Earlier turns left blue armies around red's home base (7,0): (6,0), (8,0) and (7,1).
    campaign.arrange((draft) => {
      draft.armies["b1"]!.at = [6, 0];
      draft.armies["b2"]!.at = [8, 0];
      draft.armies["b3"]!.at = [7, 1];
    });
    const [activated] = campaign.must({
      type: "ActivateArmy",
      actor: "red",
      army: "r2",
      commitment: campaign.commitment("r2", "firstFire"),
      path: [],
    });
    expect(activated).toMatchObject({ type: "ArmyActivated", data: { stacked: true } });
    const events = campaign.reveal("r2", "firstFire");
    expect(events.ok && events.events.map((e) => e.type)).toEqual(["OrderRevealed", "OrderViolated"]);
    expect(ofType(campaign.events, "OrderViolated")[0]!.data).toMatchObject({
      rule: "S7",
      evidenceSeq: activated!.seq,
    });
  });

  it("T4 a move First Fire forbids is recorded naming the ArmyMoved event's seq", () => {
    const campaign = started("red");
    campaign.activate("r1", "firstFire", [
      [3, 0],
      [2, 0],
    ]);
    const moved = ofType(campaign.events, "ArmyMoved")[0]!;
    campaign.reveal("r1", "firstFire");
    expect(ofType(campaign.events, "OrderViolated").map((e) => e.data)).toEqual([
      {
        turn: 1,
        army: "r1",
        player: "red",
        order: "firstFire",
        rule: "T4",
        evidenceSeq: moved.seq,
        detail: `moved 2 squares on First Fire, which may not move (ArmyMoved seq ${moved.seq})`,
      },
    ]);
  });

  it("M1 E1 objectives are captured in path order, once each, and not on the square entered to attack", () => {
    const campaign = started("red");
    // r1 stands by blue's home base; b2 and b3 have gone from it; red-com2 (5,4) is held by blue already.
    campaign.arrange((draft) => {
      draft.armies["r1"]!.at = [6, 4];
      draft.armies["b2"]!.at = [10, 5];
      draft.armies["b3"]!.at = [12, 5];
      draft.objectives["red-com2"]!.heldBy = "blue";
    });
    const outcome = campaign.activate("r1", "charge", [
      [5, 4],
      [6, 4],
      [7, 4],
      [8, 4],
      [8, 5],
      [9, 5],
    ]);
    expect(outcome.ok).toBe(true);
    expect(ofType(campaign.events, "ObjectiveCaptured").map((e) => e.data)).toEqual([
      { turn: 1, objective: "red-com2", kind: "objective", by: "red", army: "r1", how: "moved" },
      { turn: 1, objective: "blue", kind: "homeBase", by: "red", army: "r1", how: "moved" },
    ]);
    expect(campaign.state.homeBases["blue"]!.heldBy).toBe("red");
    expect(campaign.state.objectives["red-com2"]!.heldBy).toBe("red");
  });

  it("E1 moving through its own home base retakes it from the enemy", () => {
    const campaign = started("red");
    campaign.arrange((draft) => {
      draft.homeBases["red"]!.heldBy = "blue";
    });
    campaign.activate("r1", "advance", [
      [5, 0],
      [6, 0],
      [7, 0],
      [8, 0],
    ]);
    expect(ofType(campaign.events, "ObjectiveCaptured").map((e) => e.data)).toEqual([
      { turn: 1, objective: "red", kind: "homeBase", by: "red", army: "r1", how: "moved" },
    ]);
    expect(campaign.state.homeBases["red"]!.heldBy).toBe("red");
  });

  it("E1 passing an objective the side already holds captures nothing", () => {
    const campaign = started("red");
    campaign.arrange((draft) => {
      draft.objectives["blue-com2"]!.heldBy = "red";
    });
    campaign.activate("r1", "advance", [
      [4, 1],
      [4, 2],
    ]);
    expect(ofType(campaign.events, "ObjectiveCaptured")).toEqual([]);
  });

  it("M3 a one-step attack starts its battle from the attacker's own square; battles of a turn are numbered", () => {
    const campaign = started("red");
    campaign.arrange((draft) => {
      draft.armies["r1"]!.at = [4, 4];
      draft.armies["b2"]!.at = [10, 5];
      draft.armies["r2"]!.at = [10, 4];
    });
    campaign.activate("r1", "charge", [[4, 5]]);
    campaign.activate("b1", "firstFire", []);
    campaign.reveal("r1", "charge");
    campaign.reveal("b1", "firstFire");
    expect(campaign.activate("b3", "advance", [[8, 4]]).ok).toBe(true);
    expect(campaign.activate("r2", "charge", [[10, 5]]).ok).toBe(true);
    expect(ofType(campaign.events, "BattleStarted").map((e) => e.data)).toEqual([
      { turn: 1, battle: "t1b1", at: [4, 5], attacker: "r1", defender: "b1", attackerFrom: [4, 4] },
      { turn: 1, battle: "t1b2", at: [10, 5], attacker: "r2", defender: "b2", attackerFrom: [10, 4] },
    ]);
    expect(campaign.state.battles["t1b2"]!.index).toBe(1);
  });

  it("T5 the last reveal ends the Action phase with no army withheld", () => {
    const campaign = started("red");
    const moves: Array<[string, Order, Square[]]> = [
      ["r1", "advance", [[4, 1]]],
      ["b1", "advance", [[3, 5]]],
      ["r2", "advance", [[7, 1]]],
      ["b2", "advance", [[9, 5]]],
      ["r3", "fortify", []],
      ["b3", "charge", [[8, 4]]],
    ];
    for (const [army, order, path] of moves) expect(campaign.activate(army, order, path)).toMatchObject({ ok: true });
    for (const [army, order] of moves.slice(0, -1)) campaign.reveal(army, order);
    expect(campaign.state.phase).toBe("action");
    const last = campaign.reveal("b3", "charge");
    expect(last.ok && last.events.map((e) => e.type)).toEqual([
      "OrderRevealed",
      "ActionPhaseEnded",
      "BattlePhaseEnded",
    ]);
    expect(ofType(campaign.events, "ActionPhaseEnded")[0]!.data).toEqual({ turn: 1, withheld: [] });
    expect(campaign.state.phase).toBe("end");
  });
});

// ---------- property: random activations keep the board legal ----------

const ARMIES = ["r1", "r2", "r3", "b1", "b2", "b3"] as const;
const ORDERS: Order[] = ["firstFire", "advance", "charge", "fortify"];
/** Steps relative to the army's owner: forward is towards the enemy's base line. */
type Move = "forward" | "back" | "left" | "right" | "diagonal" | "jump";

type Step =
  | {
      kind: "activate";
      /** Which army: an index into the armies the rules would let move next, or into every army when `wild`. */
      pick: number;
      wild: boolean;
      order: Order;
      moves: Move[];
      /** null: the army's owner; otherwise someone else tries. */
      actor: string | null;
    }
  | { kind: "reveal"; pick: number; honest: boolean }
  | { kind: "close" }
  | { kind: "claim"; actor: "red" | "blue" };

const arbMove: fc.Arbitrary<Move> = fc.oneof(
  { weight: 12, arbitrary: fc.constant("forward" as const) },
  { weight: 3, arbitrary: fc.constantFrom("left" as const, "right" as const) },
  { weight: 1, arbitrary: fc.constant("back" as const) },
  { weight: 1, arbitrary: fc.constantFrom("diagonal" as const, "jump" as const) },
);

const arbStep: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant("activate" as const),
      pick: fc.nat(20),
      wild: fc.boolean().chain((b) => (b ? fc.boolean() : fc.constant(false))),
      order: fc.constantFrom(...ORDERS),
      moves: fc.oneof(
        { weight: 1, arbitrary: fc.constant([] as Move[]) },
        { weight: 4, arbitrary: fc.array(arbMove, { minLength: 1, maxLength: 8 }) },
      ),
      actor: fc.oneof(
        { weight: 9, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.constantFrom("red", "blue", "host") },
      ),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("reveal" as const),
      pick: fc.nat(20),
      honest: fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "close" as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("claim" as const),
      actor: fc.constantFrom("red" as const, "blue" as const),
    }),
  },
);

const key = ([x, y]: Square) => `${x},${y}`;
const owner = (army: string) => (army.startsWith("r") ? "red" : "blue");

function pathFrom(player: string, start: Square, moves: readonly Move[]): Square[] {
  const forward = player === "red" ? 1 : -1;
  const delta: Record<Move, Square> = {
    forward: [0, forward],
    back: [0, -forward],
    left: [-1, 0],
    right: [1, 0],
    diagonal: [1, forward],
    jump: [0, 2 * forward],
  };
  const path: Square[] = [];
  let [x, y] = start;
  for (const move of moves) {
    const [dx, dy] = delta[move];
    x += dx;
    y += dy;
    if (x < 0 || y < 0) break; // the command schema refuses negative squares before any rule
    path.push([x, y]);
  }
  return path;
}

/** The armies the rules let move next: a defender attacked before its activation, else the next player's unactivated armies. */
function candidates(state: CampaignState): string[] {
  const turn = state.turnState!;
  const onMap = Object.values(state.armies).filter(
    (army) => army.status === "active" && army.at !== null && !turn.activations[army.id],
  );
  const defenders = Object.values(state.battles)
    .filter((battle) => battle.turn === state.turn && !turn.activations[battle.defender.army])
    .map((battle) => battle.defender.army);
  if (defenders.length > 0) return defenders;
  const remaining: Record<string, number> = {};
  for (const army of onMap) remaining[army.player] = (remaining[army.player] ?? 0) + 1;
  const next = alternation({ players: [...PLAYERS], first: turn.first, lastActivator: turn.lastActivator, remaining });
  return onMap.filter((army) => army.player === next).map((army) => army.id);
}

/** The board rules of RULES.md, restated on the state after each accepted command. */
function checkBoard(state: CampaignState, initial: Record<string, Square>, events: readonly Event[]): void {
  const bySquare = new Map<string, string[]>();
  for (const army of Object.values(state.armies)) {
    if (army.status !== "active" || army.at === null) continue;
    expect(
      army.at[0] >= 0 && army.at[0] < WIDTH && army.at[1] >= 0 && army.at[1] < HEIGHT,
      `M1 ${army.id} on the map`,
    ).toBe(true);
    bySquare.set(key(army.at), [...(bySquare.get(key(army.at)) ?? []), army.id]);
  }
  for (const [square, armies] of bySquare) {
    for (const player of PLAYERS) {
      const mine = armies.filter((army) => owner(army) === player);
      // M2, S7: two armies of one side share a square only in a home-base stack that was there from the start.
      if (mine.length > 1) {
        expect(square, `M2 ${mine.join("+")} stacked off their home base`).toBe(key(HOME[player]!));
        for (const army of mine) expect(key(initial[army]!), `S7 ${army} joined a stack`).toBe(square);
      }
    }
    // M3: both sides on one square only where a battle started this turn, between exactly those two armies.
    if (new Set(armies.map(owner)).size > 1) {
      const battle = Object.values(state.battles).find((b) => b.turn === state.turn && key(b.at) === square);
      expect(battle, `M3 both sides on ${square} without a battle`).toBeDefined();
      expect([battle!.attacker.army, battle!.defender.army].sort()).toEqual([...armies].sort());
    }
  }
  // T3: every army is activated at most once a turn.
  const activated = ofType(events, "ArmyActivated").map((e) => e.data.army);
  expect(new Set(activated).size, "T3 an army activated twice").toBe(activated.length);
  for (const moved of ofType(events, "ArmyMoved")) {
    const activation = ofType(events, "ArmyActivated").find((e) => e.data.army === moved.data.army)!;
    // T4: no order allows more than 2R squares; M1: every step is orthogonal.
    expect(moved.data.path.length).toBeLessThanOrEqual(2 * activation.data.rate);
    let previous = moved.data.from;
    for (const step of moved.data.path) {
      expect(Math.abs(step[0] - previous[0]) + Math.abs(step[1] - previous[1]), "M1 orthogonal step").toBe(1);
      previous = step;
    }
  }
}

/** M3, M4, E1, restated: a move against the board as it stood before it. */
function checkMove(before: CampaignState, events: readonly Event[]): void {
  const moved = ofType(events as Event[], "ArmyMoved")[0];
  if (!moved) return;
  const mover = owner(moved.data.army);
  const standing = Object.values(before.armies).filter(
    (army) => army.status === "active" && army.at !== null && army.id !== moved.data.army,
  );
  const enemiesAt = (square: Square) =>
    standing.filter((army) => army.player !== mover && key(army.at!) === key(square));
  const battleSquares = new Set(
    Object.values(before.battles)
      .filter((b) => b.turn === before.turn)
      .map((b) => key(b.at)),
  );
  const { path, from } = moved.data;
  path.forEach((square, i) => {
    expect(battleSquares.has(key(square)), `M4 ${moved.data.army} entered a battle square ${key(square)}`).toBe(false);
    if (i < path.length - 1)
      expect(enemiesAt(square), `M3 ${moved.data.army} passed through an enemy at ${key(square)}`).toEqual([]);
  });
  const last = path[path.length - 1]!;
  const defenders = enemiesAt(last);
  const battles = ofType(events as Event[], "BattleStarted").map((e) => e.data);
  if (defenders.length === 0) {
    expect(battles).toEqual([]);
  } else {
    expect(defenders.length, "M3 attacked a stack").toBe(1);
    const n = Object.values(before.battles).filter((b) => b.turn === before.turn).length + 1;
    expect(battles).toEqual([
      {
        turn: before.turn,
        battle: `t${before.turn}b${n}`,
        at: last,
        attacker: moved.data.army,
        defender: defenders[0]!.id,
        attackerFrom: path[path.length - 2] ?? from,
      },
    ]);
  }
  // E1: every objective or home base moved into or through that the side did not hold is captured, in path order.
  const held = new Map<string, string | null>([
    ...Object.values(before.objectives).map((o) => [o.id, o.heldBy] as const),
    ...Object.values(before.homeBases).map((h) => [`home:${h.player}`, h.heldBy] as const),
  ]);
  const expected: string[] = [];
  const capture = (id: string, label: string) => {
    if (held.get(id) === mover) return;
    held.set(id, mover);
    expected.push(label);
  };
  for (const square of defenders.length > 0 ? path.slice(0, -1) : path) {
    for (const o of Object.values(before.objectives)) if (key(o.at) === key(square)) capture(o.id, o.id);
    for (const h of Object.values(before.homeBases))
      if (key(h.at) === key(square)) capture(`home:${h.player}`, h.player);
  }
  expect(ofType(events as Event[], "ObjectiveCaptured").map((e) => e.data.objective)).toEqual(expected);
}

/** T4, T5, S7 ruling, restated: what a reveal must record against the move the army made. */
function checkReveal(
  campaign: Campaign,
  events: readonly Event[],
  input: Record<string, unknown>,
  held: ReadonlyMap<string, Order>,
): void {
  if (input["type"] !== "RevealOrder") return;
  const army = String(input["army"]);
  const claimed = input["order"] as Order;
  const truth = held.get(army)!;
  if (claimed !== truth) {
    expect(
      events.map((e) => e.type),
      "T5 a false reveal is recorded, not accepted",
    ).toEqual(["RevealRejected"]);
    return;
  }
  const activation = ofType(campaign.events, "ArmyActivated").find(
    (e) => e.data.army === army && e.data.turn === campaign.state.turn,
  )!;
  const moved = ofType(campaign.events, "ArmyMoved").find(
    (e) => e.data.army === army && e.data.turn === campaign.state.turn,
  );
  const squares = moved?.data.path.length ?? 0;
  const expected: string[] = [];
  if ((truth === "firstFire" || truth === "fortify") && squares > 0) expected.push("T4");
  if (truth === "advance" && squares > activation.data.rate) expected.push("T4");
  if (activation.data.stacked && (truth === "firstFire" || truth === "fortify")) expected.push("S7");
  const violations = ofType(events as Event[], "OrderViolated");
  expect(violations.map((e) => e.data.rule)).toEqual(expected);
  for (const violation of violations) expect(violation.data.evidenceSeq).toBe(moved?.seq ?? activation.seq);
}

describe("property: random Action phases", () => {
  it("T3 M1 M2 M3 M4 S7 accepted activations keep the board legal; refusals name a rule or a field", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("red" as const, "blue" as const),
        fc.array(arbStep, { minLength: 5, maxLength: 40, size: "max" }),
        (first, steps) => {
          const campaign = started(first);
          const initial = Object.fromEntries(Object.values(campaign.state.armies).map((army) => [army.id, army.at!]));
          const held = new Map<string, Order>();
          const baseline = campaign.events.length;
          for (const step of steps) {
            let input: Record<string, unknown>;
            let given: [string, Order] | null = null;
            if (step.kind === "activate") {
              const choice = step.wild ? [...ARMIES] : candidates(campaign.state);
              const army = choice[step.pick % Math.max(choice.length, 1)] ?? "r1";
              const at = campaign.state.armies[army]!.at ?? [0, 0];
              input = {
                type: "ActivateArmy",
                actor: step.actor ?? owner(army),
                army,
                commitment: campaign.commitment(army, step.order),
                path: pathFrom(owner(army), at, step.moves),
              };
              given = [army, step.order];
            } else if (step.kind === "reveal") {
              const hidden = Object.values(campaign.state.turnState!.activations).filter((a) => a.order === null);
              const army = hidden[step.pick % Math.max(hidden.length, 1)]?.army ?? ARMIES[step.pick % ARMIES.length]!;
              const order = held.get(army) ?? "advance";
              const claimed = step.honest ? order : ORDERS[(ORDERS.indexOf(order) + 1) % ORDERS.length]!;
              input = { type: "RevealOrder", actor: owner(army), army, order: claimed, salt: SALT };
            } else if (step.kind === "claim") {
              input = { type: "ClaimStall", actor: step.actor };
            } else {
              input = { type: "CloseActionPhase", actor: "host" };
            }
            const before = campaign.state;
            const outcome = campaign.apply(input);
            if (!outcome.ok) {
              const { refusal } = outcome;
              if (refusal.kind === "rule") expect(refusal.rule).toMatch(/^[A-Z][0-9]+$/);
              else expect(refusal.kind === "field" && refusal.field.length > 0).toBe(true);
              expect(refusal.message.length).toBeGreaterThan(0);
              expect(campaign.state).toBe(before);
              continue;
            }
            if (given) held.set(...given);
            checkMove(before, outcome.events);
            checkReveal(campaign, outcome.events, input, held);
            for (const event of outcome.events) {
              expect(
                catalogue.check({
                  type: event.type,
                  version: catalogue.definition(event.type)!.version,
                  data: event.data,
                }),
                event.type,
              ).toBeUndefined();
            }
            checkBoard(campaign.state, initial, campaign.events.slice(baseline));
          }
          // T5: every cheat the log shows is a recorded violation.
          const turnEvents = campaign.events.slice(baseline);
          const withheld = ofType(turnEvents, "ActionPhaseEnded").flatMap((e) => e.data.withheld).length;
          const cheats =
            ofType(turnEvents, "RevealRejected").length + ofType(turnEvents, "OrderViolated").length + withheld;
          expect(campaign.state.violations.length).toBe(cheats);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("T3 T5 whatever is activated, the phase ends only once every army on the map has been activated, or is listed by the close of a claimed stall", () => {
    fc.assert(
      fc.property(fc.array(arbStep, { minLength: 5, maxLength: 40, size: "max" }), (steps) => {
        const campaign = started("red");
        const given = new Map<string, Order>();
        for (const step of steps) {
          if (step.kind !== "activate") {
            if (step.kind === "close") campaign.apply({ type: "CloseActionPhase", actor: "host" });
            if (step.kind === "claim") campaign.apply({ type: "ClaimStall", actor: step.actor });
            continue;
          }
          const choice = step.wild ? [...ARMIES] : candidates(campaign.state);
          const army = choice[step.pick % Math.max(choice.length, 1)] ?? "r1";
          const at = campaign.state.armies[army]!.at ?? [0, 0];
          if (campaign.activate(army, step.order, pathFrom(owner(army), at, step.moves)).ok)
            given.set(army, step.order);
          // Both players reveal as soon as they may: battle orders at once, so that the alternation goes on.
          for (const activation of Object.values(campaign.state.turnState!.activations)) {
            if (activation.order === null && campaign.state.phase === "action")
              campaign.reveal(activation.army, given.get(activation.army)!);
          }
        }
        if (campaign.state.phase !== "action") {
          // Every army was activated, unless the host closed a claimed stall: then each army left out is listed, as
          // kept from activating or as an attacked army that never gave its order.
          const activations = campaign.state.turnState!.activations;
          const [ended] = ofType(campaign.events as Event[], "ActionPhaseEnded");
          const excused = new Set([...(ended!.data.notActivated ?? []), ...ended!.data.withheld]);
          const claimed = ofType(campaign.events as Event[], "StallClaimed").some((claim) => claim.seq < ended!.seq);
          for (const army of Object.values(campaign.state.armies)) {
            if (!activations[army.id])
              expect(claimed && excused.has(army.id), `T3 ${army.id} not activated`).toBe(true);
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});
