import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Catalogue, Edge, Square } from "../events/common.js";
import type { DomainEvent } from "../events/index.js";
import { replay } from "../projections/campaign.js";
import type { CampaignState } from "../projections/state.js";
import { checkCommand } from "../src/engine/command-schemas.js";
import { decide } from "../src/engine/decide.js";
import type { Refusal } from "../src/rules/refusal.js";
import { setupCommands, type SetupFile } from "../src/setup/setup-file.js";

/** The time the commands here are decided at: none of their rules reads it (only O2's deadline does). */
const DECIDED_AT = "2026-01-01T00:00:00.000Z";

/**
 * Property tests of the pure set-up deciders (no store): random commands on the golden blank fixture's map, decided
 * with `decide` and folded with `replay`. The expectations below are written from ../shared/RULES.md, not from
 * projections/formulas.ts, so that they check the engine rather than repeat it.
 */

const readJson = (path: string): unknown => JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8"));
const blank = readJson("./golden/fixtures/blank.json") as SetupFile;
const catalogue = readJson("./golden/fixtures/catalogue.json") as Catalogue;

const WIDTH = 12;
const HEIGHT = 8;
const TERRAIN = blank.map.terrain;
const BASE_LINE: Record<string, Edge> = { red: "north", blue: "south" };
const OPPONENT: Record<string, string> = { red: "blue", blue: "red" };
const PLAYERS = ["red", "blue"] as const;
const ARMIES_PER_PLAYER = 3;

type Event = DomainEvent & { seq: number };
type Outcome = { ok: true } | { ok: false; refusal: Refusal };

/** One campaign driven command by command: the state is always `replay` of the events `decide` produced. */
class Campaign {
  readonly events: Event[] = [];
  state: CampaignState = replay([]);

  apply(input: unknown): Outcome {
    const checked = checkCommand(input);
    if (!checked.ok) return { ok: false, refusal: { kind: "field", field: checked.field, message: checked.message } };
    const decision = decide(this.state, checked.command, DECIDED_AT);
    if (!decision.ok) return decision;
    for (const event of decision.events) this.events.push({ ...event, seq: this.events.length + 1 } as Event);
    this.state = replay(this.events);
    return { ok: true };
  }

  applyAll(inputs: readonly unknown[]): void {
    for (const input of inputs) {
      const outcome = this.apply(input);
      if (!outcome.ok) throw new Error(`set-up refused: ${JSON.stringify(outcome.refusal)}`);
    }
  }
}

const armyOf = (player: string, n: number) => ({
  type: "RegisterArmy",
  actor: player,
  army: `${player[0]}${n}`,
  name: `${player} army ${n}`,
  formations: [
    { id: "line", formation: "line-company" },
    { id: "armour", formation: "armour-company" },
  ],
  commander: { formation: "line", unitType: "command-stand" },
});

/** The blank fixture with N = 3 and every army registered but not deployed. */
function registeredCampaign(): Campaign {
  const campaign = new Campaign();
  const setup = { ...blank, force: { ...blank.force, armies: ARMIES_PER_PLAYER }, catalogue };
  campaign.applyAll(setupCommands(setup).map((step) => step.command));
  campaign.applyAll(PLAYERS.flatMap((player) => [1, 2, 3].map((n) => armyOf(player, n))));
  return campaign;
}

// ---------- the rules, restated for the blank map (north/south base lines, 12 x 8) ----------

const king = (a: Square, b: Square) => Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]));
const same = (a: Square, b: Square) => a[0] === b[0] && a[1] === b[1];
const onMap = ([x, y]: Square) => x >= 0 && y >= 0 && x < WIDTH && y < HEIGHT;
const isPlains = ([x, y]: Square) => TERRAIN[y]![x] === "p";
/** S1: red's half is rows 0-3, blue's rows 4-7. */
const inHalfOf = (player: string, [, y]: Square) => (BASE_LINE[player] === "north" ? y < HEIGHT / 2 : y >= HEIGHT / 2);
/** Rows from a player's own base line: 0 on it. */
const rowsIn = (player: string, [, y]: Square) => (BASE_LINE[player] === "north" ? y : HEIGHT - 1 - y);
const isPlayer = (actor: string) => actor === "red" || actor === "blue";

/** Every objective and home base on the map (S6 counts both for spacing). */
const markers = (state: CampaignState): Square[] => [
  ...Object.values(state.objectives).map((o) => o.at),
  ...Object.values(state.homeBases).map((h) => h.at),
];
const spaced = (state: CampaignState, at: Square) => markers(state).every((other) => king(other, at) >= 3);
const objectivesOf = (state: CampaignState, player: string) =>
  Object.values(state.objectives).filter((o) => o.placedBy === player);

/** What RULES.md says should happen to one set-up command: accepted or not. */
function allowed(state: CampaignState, command: Step & { actor: string }, at: Square | undefined): boolean {
  if (state.status !== "setup") return false;
  switch (command.kind) {
    case "objective":
      return (
        isPlayer(command.actor) &&
        onMap(at!) &&
        objectivesOf(state, command.actor).length < 4 &&
        inHalfOf(OPPONENT[command.actor]!, at!) &&
        !isPlains(at!) &&
        spaced(state, at!)
      );
    case "home":
      return (
        isPlayer(command.actor) &&
        onMap(at!) &&
        !state.homeBases[command.actor] &&
        rowsIn(command.actor, at!) <= 1 &&
        spaced(state, at!)
      );
    case "deploy":
    case "deployHome": {
      const army = Object.values(state.armies).find((a) => a.id === command.army);
      if (!isPlayer(command.actor) || !army || army.player !== command.actor || !onMap(at!)) return false;
      const home = state.homeBases[command.actor];
      if (home && same(home.at, at!)) return true;
      const taken = Object.values(state.armies).some(
        (other) => other.id !== army.id && other.at && same(other.at, at!),
      );
      return rowsIn(command.actor, at!) === 0 && !taken;
    }
    case "start":
      return (
        command.actor === "host" &&
        PLAYERS.every(
          (player) =>
            state.homeBases[player] !== undefined &&
            objectivesOf(state, player).length === 4 &&
            Object.values(state.armies).filter((a) => a.player === player && a.at !== null).length ===
              ARMIES_PER_PLAYER,
        )
      );
  }
}

/** S6 and S7 as invariants of any state the deciders let through. */
function expectSetupInvariants(state: CampaignState): void {
  const all = markers(state);
  all.forEach((a, i) =>
    all.slice(i + 1).forEach((b) => expect(king(a, b), `objectives at ${a} and ${b}`).toBeGreaterThanOrEqual(3)),
  );
  for (const objective of Object.values(state.objectives)) {
    expect(isPlains(objective.at), `objective ${objective.id} at ${objective.at} on plains`).toBe(false);
    expect(
      inHalfOf(OPPONENT[objective.placedBy]!, objective.at),
      `objective ${objective.id} at ${objective.at} in the opponent's half`,
    ).toBe(true);
  }
  for (const player of PLAYERS) {
    expect(objectivesOf(state, player).length).toBeLessThanOrEqual(4);
    const home = state.homeBases[player];
    if (home) expect(rowsIn(player, home.at), `${player}'s home base at ${home.at}`).toBeLessThanOrEqual(1);
  }
  const deployed = Object.values(state.armies).filter((a) => a.at !== null);
  for (const army of deployed) {
    const home = state.homeBases[army.player];
    const onHome = home !== undefined && same(home.at, army.at!);
    expect(
      onHome || rowsIn(army.player, army.at!) === 0,
      `army ${army.id} at ${army.at} on its base line or home base`,
    ).toBe(true);
    for (const other of deployed) {
      if (other.id === army.id || !same(other.at!, army.at!)) continue;
      expect(
        onHome && other.player === army.player,
        `armies ${army.id} and ${other.id} share ${army.at} off a home base`,
      ).toBe(true);
    }
  }
  if (state.status === "active") {
    for (const player of PLAYERS) {
      expect(state.homeBases[player]).toBeDefined();
      expect(objectivesOf(state, player)).toHaveLength(4);
      expect(Object.values(state.armies).filter((a) => a.player === player && a.at !== null)).toHaveLength(
        ARMIES_PER_PLAYER,
      );
    }
  }
}

/** Every refusal names the rule of RULES.md it enforces (an S rule during set-up) or the field that is wrong. */
function expectNamedRefusal(refusal: Refusal, type: string, status: CampaignState["status"]): void {
  expect(refusal.message.length).toBeGreaterThan(0);
  if (refusal.kind === "field") {
    expect(refusal.field).toMatch(/^[A-Za-z]/);
    return;
  }
  expect(refusal.kind).toBe("rule");
  if (refusal.kind !== "rule") return;
  // Once turn 1 has begun a second StartCampaign breaks the turn sequence (T1), not a set-up rule.
  const expected = status === "active" && type === "StartCampaign" ? /^T1$/ : /^S[1-8]$/;
  expect(refusal.rule).toMatch(expected);
}

/** What a refusal names: its rule ID, "field <path>", or "conflict". */
const named = (refusal: Refusal): string =>
  refusal.kind === "rule" ? refusal.rule : refusal.kind === "field" ? `field ${refusal.field}` : refusal.kind;

// ---------- random set-up steps ----------

type Step =
  | { kind: "objective"; actor: string; at: Square }
  | { kind: "home"; actor: string; at: Square }
  | { kind: "deploy"; actor?: string; army: string; at: Square }
  | { kind: "deployHome"; actor?: string; army: string }
  | { kind: "start"; actor: string };

const ARMY_IDS = ["r1", "r2", "r3", "b1", "b2", "b3", "x9"];
const ownerOf = (army: string) => (army.startsWith("b") ? "blue" : "red");

const player = fc.constantFrom("red", "blue");
/** Mostly a player, sometimes the host or a stranger (field "actor"). */
const anyActor = fc.oneof({ arbitrary: player, weight: 8 }, { arbitrary: fc.constantFrom("host", "green"), weight: 1 });
/** Anywhere on the map or one square beyond it (field "at"), biased to the edge rows where home bases and armies go. */
const square: fc.Arbitrary<Square> = fc.oneof(
  fc.tuple(fc.integer({ min: 0, max: WIDTH }), fc.integer({ min: 0, max: HEIGHT })),
  fc.tuple(fc.integer({ min: 0, max: WIDTH - 1 }), fc.constantFrom(0, 1, HEIGHT - 2, HEIGHT - 1)),
);
/** Squares of any terrain but plains, where objectives may go, to make accepted placements common. */
const noteSquare: fc.Arbitrary<Square> = fc.constantFrom(
  ...TERRAIN.flatMap((row, y) => [...row].flatMap((letter, x): Square[] => (letter === "p" ? [] : [[x, y]]))),
);
const objectiveSquare = fc.oneof({ arbitrary: square, weight: 1 }, { arbitrary: noteSquare, weight: 2 });
/** Deploy actor: undefined (the army's owner) five times in six, else any actor. */
const deployActor = fc.oneof({ arbitrary: fc.constant(undefined), weight: 5 }, { arbitrary: anyActor, weight: 1 });
const army = fc.constantFrom(...ARMY_IDS);

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    arbitrary: fc.record({ kind: fc.constant("objective" as const), actor: anyActor, at: objectiveSquare }),
    weight: 6,
  },
  { arbitrary: fc.record({ kind: fc.constant("home" as const), actor: anyActor, at: square }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant("deploy" as const), actor: deployActor, army, at: square }), weight: 6 },
  { arbitrary: fc.record({ kind: fc.constant("deployHome" as const), actor: deployActor, army }), weight: 3 },
  {
    arbitrary: fc.record({ kind: fc.constant("start" as const), actor: fc.constantFrom("host", "host", "red") }),
    weight: 1,
  },
);

/** The JSON command a step stands for in the given state; `at` is resolved for "deploy to my home base". */
function toCommand(
  state: CampaignState,
  s: Step,
): { command: Record<string, unknown>; resolved: Step & { actor: string }; at?: Square } {
  switch (s.kind) {
    case "objective":
      return { command: { type: "PlaceObjective", actor: s.actor, at: s.at }, resolved: s, at: s.at };
    case "home":
      return { command: { type: "PlaceHomeBase", actor: s.actor, at: s.at }, resolved: s, at: s.at };
    case "deploy":
    case "deployHome": {
      const actor = s.actor ?? ownerOf(s.army);
      const at: Square = s.kind === "deploy" ? s.at : (state.homeBases[actor]?.at ?? [0, 0]);
      return { command: { type: "DeployArmy", actor, army: s.army, at }, resolved: { ...s, actor }, at };
    }
    case "start":
      return { command: { type: "StartCampaign", actor: s.actor }, resolved: s };
  }
}

interface Visit {
  before: CampaignState;
  after: CampaignState;
  command: Record<string, unknown>;
  resolved: Step & { actor: string };
  at: Square | undefined;
  outcome: Outcome;
}

function play(steps: readonly Step[], visit: (v: Visit) => void): void {
  const campaign = registeredCampaign();
  for (const s of steps) {
    const before = campaign.state;
    const { command, resolved, at } = toCommand(before, s);
    const outcome = campaign.apply(command);
    visit({ before, after: campaign.state, command, resolved, at, outcome });
  }
}

// size "max": sequences of about 30 steps on average, long enough to crowd the map with objectives and armies.
const steps = fc.array(step, { minLength: 1, maxLength: 60, size: "max" });
const RUNS = { numRuns: 250 };

describe("set-up rules, property-based (pure deciders)", () => {
  it("S6 S7 every accepted set-up sequence keeps objectives spaced, off plains, in the opponent's half, and armies unstacked except on a home base", () => {
    const seen = { objectives: 0, homeBases: 0, deployments: 0, stacked: 0 };
    fc.assert(
      fc.property(steps, (s) =>
        play(s, ({ after, command, outcome }) => {
          if (!outcome.ok) return;
          expectSetupInvariants(after);
          if (command["type"] === "PlaceObjective") seen.objectives++;
          if (command["type"] === "PlaceHomeBase") seen.homeBases++;
          if (command["type"] === "DeployArmy") {
            seen.deployments++;
            const at = command["at"] as Square;
            if (Object.values(after.armies).filter((a) => a.at && same(a.at, at)).length > 1) seen.stacked++;
          }
        }),
      ),
      RUNS,
    );
    // The generator must reach the interesting states, or the invariants above hold vacuously.
    expect(seen.objectives).toBeGreaterThan(100);
    expect(seen.homeBases).toBeGreaterThan(50);
    expect(seen.deployments).toBeGreaterThan(200);
    expect(seen.stacked).toBeGreaterThan(20);
  });

  it("S6 S7 a placement, deployment or start is accepted exactly when the rules allow it", () => {
    const outcomes = { accepted: 0, refused: 0 };
    fc.assert(
      fc.property(steps, (s) =>
        play(s, ({ before, command, resolved, at, outcome }) => {
          const expected = allowed(before, resolved, at);
          expect(
            outcome.ok,
            `${JSON.stringify(command)} -> ${outcome.ok ? "accepted" : JSON.stringify(outcome.refusal)}`,
          ).toBe(expected);
          outcomes[outcome.ok ? "accepted" : "refused"]++;
        }),
      ),
      RUNS,
    );
    expect(outcomes.accepted).toBeGreaterThan(200);
    expect(outcomes.refused).toBeGreaterThan(200);
  });

  it("S2 S6 S7 a complete set-up, its objectives and deployments made in any order, starts turn 1; after that every set-up command is refused", () => {
    // The ready fixture's placements, with a third army each: two on the base line, the rest stacked on the home base.
    const homeBases: Step[] = [
      { kind: "home", actor: "red", at: [6, 0] },
      { kind: "home", actor: "blue", at: [4, 7] },
    ];
    const rest: Step[] = [
      ...(
        [
          [0, 0],
          [3, 0],
          [9, 0],
          [0, 3],
        ] as Square[]
      ).map((at) => ({ kind: "objective" as const, actor: "blue", at })),
      ...(
        [
          [0, 7],
          [7, 7],
          [10, 7],
          [3, 4],
        ] as Square[]
      ).map((at) => ({ kind: "objective" as const, actor: "red", at })),
      { kind: "deploy", army: "r1", at: [1, 0] },
      { kind: "deployHome", army: "r2" },
      { kind: "deploy", army: "r3", at: [11, 0] },
      { kind: "deploy", army: "b1", at: [2, 7] },
      { kind: "deployHome", army: "b2" },
      { kind: "deployHome", army: "b3" },
    ];
    const setupLength = homeBases.length + rest.length + 1;
    fc.assert(
      fc.property(fc.shuffledSubarray(rest, { minLength: rest.length }), steps, (order, later) => {
        let index = 0;
        play(
          [...homeBases, ...order, { kind: "start", actor: "host" }, ...later],
          ({ before, after, command, outcome }) => {
            if (index++ < setupLength) {
              expect(
                outcome.ok,
                `${JSON.stringify(command)} ${outcome.ok ? "" : JSON.stringify(outcome.refusal)}`,
              ).toBe(true);
            } else {
              expect(outcome.ok, `${JSON.stringify(command)} after the start`).toBe(false);
              if (!outcome.ok) expectNamedRefusal(outcome.refusal, String(command["type"]), before.status);
            }
            if (index === setupLength) expect(after).toMatchObject({ status: "active", turn: 1, phase: "action" });
          },
        );
      }),
      { numRuns: 100 },
    );
  });

  it("S1-S8 every refused set-up command names an S rule or a field", () => {
    const rules = new Set<string>();
    fc.assert(
      fc.property(steps, (s) =>
        play(s, ({ before, command, outcome }) => {
          if (outcome.ok) return;
          expectNamedRefusal(outcome.refusal, String(command["type"]), before.status);
          rules.add(named(outcome.refusal));
        }),
      ),
      RUNS,
    );
    for (const expected of ["S6", "S7", "field actor", "field at"]) expect(rules).toContain(expected);
  });

  it("S2 S5 S8 every accepted roster is 1,000 to M points of full-strength catalogue formations, its commander among them, at most N per player", () => {
    const formationIds = ["f1", "f2", "f3", "f4", "f5", "f6"];
    const catalogueFormation = fc.constantFrom(...Object.keys(catalogue.formations), "heavy-company");
    const formations = fc.uniqueArray(
      fc.record({ id: fc.constantFrom(...formationIds), formation: catalogueFormation }),
      {
        minLength: 1,
        maxLength: 6,
        selector: (f) => f.id,
      },
    );
    /** Mostly a unit the roster really has, sometimes any id (S8 refusals). */
    const commanderFor = (list: Array<{ id: string; formation: string }>) =>
      fc.oneof(
        {
          weight: 3,
          arbitrary: fc.constantFrom(...list).chain((f) =>
            fc.record({
              formation: fc.constant(f.id),
              unitType: fc.constantFrom(
                ...Object.keys(catalogue.formations[f.formation]?.units ?? { "rifle-stand": 1 }),
              ),
            }),
          ),
        },
        {
          weight: 1,
          arbitrary: fc.record({
            formation: fc.constantFrom(...formationIds),
            unitType: fc.constantFrom(...Object.keys(catalogue.unitTypes), "plasma-gun"),
          }),
        },
      );
    const roster = fc
      .record({ actor: anyActor, army: fc.constantFrom("a1", "a2", "a3", "a4", "a5"), formations })
      .chain((r) => commanderFor(r.formations).map((commander) => ({ ...r, commander })));
    let accepted = 0;
    const refusedBy = new Set<string>();
    fc.assert(
      fc.property(fc.array(roster, { minLength: 1, maxLength: 12, size: "max" }), (rosters) => {
        const campaign = new Campaign();
        campaign.applyAll(setupCommands({ ...blank, catalogue }).map((s) => s.command));
        const { maxArmyPoints: M, armies: N } = blank.force;
        for (const r of rosters) {
          const before = campaign.state;
          const outcome = campaign.apply({ type: "RegisterArmy", name: `Army ${r.army}`, ...r });
          if (!outcome.ok) {
            expectNamedRefusal(outcome.refusal, "RegisterArmy", before.status);
            refusedBy.add(named(outcome.refusal).split(" ")[0]!);
            continue;
          }
          accepted++;
          const registered = campaign.state.armies[r.army]!;
          let points = 0;
          for (const [i, f] of registered.formations.entries()) {
            const entry = catalogue.formations[f.formation];
            expect(entry, `formation ${f.formation} is in the catalogue`).toBeDefined();
            // E5: a support, special or titan formation is attached to the roster's first company, if it has one.
            const firstCompany = r.formations.find((g) => catalogue.formations[g.formation]?.kind === "company")?.id;
            const attached = entry!.kind !== "company" && firstCompany !== undefined;
            expect(f).toEqual({
              id: r.formations[i]!.id,
              formation: r.formations[i]!.formation,
              units: entry!.units,
              ...(attached && { attachedTo: firstCompany }),
            });
            points += entry!.points;
          }
          expect(points).toBeGreaterThanOrEqual(1000);
          expect(points).toBeLessThanOrEqual(M);
          expect(registered.points).toBe(points);
          expect(registered.moveRate).toBe(points <= 3000 ? 3 : points <= 5999 ? 2 : 1);
          const commander = registered.formations.find((f) => f.id === r.commander.formation);
          expect(
            commander?.units[r.commander.unitType] ?? 0,
            "the commander is a unit of its formation",
          ).toBeGreaterThan(0);
          expect(Object.values(campaign.state.armies).filter((a) => a.player === r.actor).length).toBeLessThanOrEqual(
            N,
          );
        }
      }),
      RUNS,
    );
    expect(accepted).toBeGreaterThan(50);
    for (const rule of ["S2", "S8", "field"]) expect(refusedBy).toContain(rule);
  });

  it("S1 a map and base lines are accepted exactly when the rows fit the size, the roads lie on it once each and the base lines are opposite long edges", () => {
    const edge = fc.constantFrom<Edge>("north", "south", "east", "west");
    const mapCase = fc
      .record({
        width: fc.integer({ min: 2, max: 6 }),
        height: fc.integer({ min: 2, max: 6 }),
        rowDelta: fc.constantFrom(0, 0, 0, 1, -1),
        widthDelta: fc.constantFrom(0, 0, 0, 1, -1),
        badRow: fc.nat(),
        roads: fc.array(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 6 })), { maxLength: 4 }),
        first: edge,
        second: edge,
        letter: fc.constantFrom("p", "f", "h", "m", "r", "t", "c"),
      })
      .filter((c) => c.height + c.rowDelta >= 2);
    fc.assert(
      fc.property(mapCase, (c) => {
        const rows = c.height + c.rowDelta;
        const bad = c.badRow % rows;
        const terrain = Array.from({ length: rows }, (_, y) =>
          c.letter.repeat(y === bad ? Math.max(1, c.width + c.widthDelta) : c.width),
        );
        const campaign = new Campaign();
        const outcome = campaign.apply({
          type: "CreateCampaign",
          actor: "host",
          campaign: "prop",
          name: "Property map",
          map: { width: c.width, height: c.height, terrain, roads: c.roads },
          players: [
            { id: "red", name: "Red", baseLine: c.first },
            { id: "blue", name: "Blue", baseLine: c.second },
          ],
          force: blank.force,
          catalogue,
        });
        const opposite = { north: "south", south: "north", east: "west", west: "east" }[c.first] === c.second;
        const northSouth = c.first === "north" || c.first === "south";
        const longEdges = c.width === c.height || northSouth === c.width > c.height;
        const roadsOk =
          c.roads.every(([x, y]) => x < c.width && y < c.height) &&
          new Set(c.roads.map(String)).size === c.roads.length;
        const rowsOk = terrain.length === c.height && terrain.every((row) => row.length === c.width);
        expect(outcome.ok, JSON.stringify({ c, outcome })).toBe(rowsOk && roadsOk && opposite && longEdges);
        if (!outcome.ok) {
          const { refusal } = outcome;
          if (refusal.kind === "field") expect(refusal.field).toMatch(/^map\.roads\[\d+\]$/);
          else expect(refusal).toMatchObject({ kind: "rule", rule: "S1" });
        }
      }),
      { numRuns: 500 },
    );
  });
});
