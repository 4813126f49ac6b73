import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Catalogue, MapDefinition, RosterFormation, Square } from "../events/common.js";
import { HOST, TERRAIN_LETTERS } from "../events/common.js";
import { toCurrent } from "../events/index.js";
import { onMap, squareKey } from "../projections/grid.js";
import { armyMoveRate, isMobilised } from "../projections/mobility.js";
import type { ArmyState } from "../projections/state.js";
import { sequenceRandomHex } from "../src/client/prepare.js";
import { MemorySecrets } from "../src/client/secrets.js";
import { Table } from "../src/client/table.js";
import { playCampaign } from "../src/demo/play.js";
import { Engine } from "../src/engine/engine.js";
import { searchMoves } from "../src/rules/move-search.js";
import { canLeave, checkPath, orthogonallyAdjacent } from "../src/rules/movement.js";
import type { Surroundings } from "../src/rules/surroundings.js";
import { Refused } from "../src/rules/refusal.js";
import {
  ONE_A_SQUARE,
  pointsLeft,
  pointsLeftOnPath,
  stepPricing,
  stepsPaid,
  type StepPricing,
  type TerrainSquare,
} from "../src/rules/terrain-costs.js";
import { checkSetupFile, setupCommands, type SetupFile } from "../src/setup/setup-file.js";
import { tempDir } from "./support/tmp.js";

const plain = (terrain: TerrainSquare["terrain"]): TerrainSquare => ({ terrain, road: false });
const road = (terrain: TerrainSquare["terrain"]): TerrainSquare => ({ terrain, road: true });

describe("A4 terrain costs", () => {
  it("A4 the seed's worked example: 8 Charge points spent through plains, hills, river, road, road over mountains, city, hills leave 7, 5, 3, 3, 2, 1, 0", () => {
    const squares = [
      plain("plains"),
      plain("hills"),
      plain("river"),
      road("plains"),
      road("mountains"),
      plain("city"),
      plain("hills"),
    ];
    expect(pointsLeft(8, squares)).toEqual([7, 5, 3, 3, 2, 1, 0]);
    expect(stepsPaid(pointsLeft(8, squares))).toBe(7);
    expect(stepsPaid(pointsLeft(8, [...squares, plain("plains")]))).toBe(7);
  });

  it("A4 the seed's 7,000 army (rate 1) moves one square into forest on Advance and one into hills on Charge", () => {
    expect(stepsPaid(pointsLeft(1, [plain("forest"), plain("plains")]))).toBe(1);
    expect(pointsLeft(2, [plain("hills")])).toEqual([0]);
    expect(stepsPaid(pointsLeft(2, [plain("hills"), plain("plains")]))).toBe(1);
  });

  it("A4 one free square per move, shared by roads and towns or cities, whichever comes first", () => {
    expect(pointsLeft(3, [road("plains"), plain("town"), plain("city")])).toEqual([3, 2, 1]);
    expect(pointsLeft(3, [plain("city"), road("forest"), road("plains")])).toEqual([3, 2, 1]);
  });

  it("A4 forest and river cost 2, mountains 3, plains 1; the second hills square of a move costs 1", () => {
    expect(pointsLeft(10, [plain("forest"), plain("river"), plain("mountains"), plain("plains")])).toEqual([
      8, 6, 3, 2,
    ]);
    expect(pointsLeft(10, [plain("hills"), plain("plains"), plain("hills"), plain("hills")])).toEqual([8, 7, 6, 5]);
  });

  it("A4 ruling: a road over hills is paid as road, so the first hills square off the road still costs 2", () => {
    expect(pointsLeft(6, [road("hills"), plain("hills"), plain("hills")])).toEqual([6, 4, 3]);
  });

  it("A4 always one square on Advance or Charge, and points that cannot pay the next square are lost", () => {
    expect(stepsPaid(pointsLeft(1, [plain("mountains")]))).toBe(1);
    // 1 of 2 points left after plains cannot pay for forest, and no later free square brings it back.
    expect(stepsPaid(pointsLeft(2, [plain("plains"), plain("forest"), road("plains")]))).toBe(1);
    expect(stepsPaid([])).toBe(0);
  });

  const terrainSquare: fc.Arbitrary<TerrainSquare> = fc.record({
    terrain: fc.constantFrom(...Object.values(TERRAIN_LETTERS)),
    road: fc.boolean(),
  });

  it("A4 a path's cost is monotone in its prefix: points left never rise, a prefix costs what it cost inside the path, each square 0 to 3", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.array(terrainSquare, { maxLength: 12 }),
        fc.nat(12),
        (allowance, squares, cut) => {
          const left = pointsLeft(allowance, squares);
          const prefix = squares.slice(0, cut);
          expect(pointsLeft(allowance, prefix)).toEqual(left.slice(0, cut));
          expect(stepsPaid(pointsLeft(allowance, prefix))).toBeLessThanOrEqual(stepsPaid(left));
          left.forEach((points, i) => {
            const cost = (i === 0 ? allowance : left[i - 1]!) - points;
            expect(cost).toBeGreaterThanOrEqual(0);
            expect(cost).toBeLessThanOrEqual(3);
          });
        },
      ),
    );
  });

  it("A4 off: every square costs one point, so the steps an allowance pays are the old step count", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.tuple(fc.nat(9), fc.nat(9)), { maxLength: 20 }),
        (allowance, path) => {
          const paid = stepsPaid(pointsLeftOnPath(ONE_A_SQUARE, allowance, path as Square[]));
          expect(paid).toBe(Math.min(path.length, allowance));
        },
      ),
    );
  });
});

// ---------- the move search (S7 ruling, the demo's path finding) ----------

function surroundingsOf(
  width: number,
  height: number,
  friends: Square[],
  enemies: Square[][],
  battles: Square[],
): Surroundings {
  const army = (id: string) => ({ id }) as ArmyState;
  return {
    width,
    height,
    friends: new Map(friends.map((at, i) => [squareKey(at), [army(`f${i}`)]])),
    enemies: new Map(enemies.map((stack, i) => [squareKey(stack[0]!), stack.map((_, j) => army(`e${i}-${j}`))])),
    battles: new Map(battles.map((at) => [squareKey(at), {} as never])),
  };
}

/** The breadth-first search the demo and the S7 ruling used before terrain costs: the reference for A4 off. */
function breadthFirst(around: Surroundings, from: Square, maxSteps: number) {
  const paths = new Map<string, Square[]>();
  const attacks: Array<{ path: Square[]; enemy: ArmyState }> = [];
  const seen = new Set([squareKey(from)]);
  let frontier: Array<{ at: Square; path: Square[] }> = [{ at: from, path: [] }];
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
        const key = squareKey(to);
        if (seen.has(key) || !onMap(around, to) || around.battles.has(key)) continue;
        seen.add(key);
        const enemies = around.enemies.get(key);
        if (enemies) {
          if (enemies.length === 1) attacks.push({ path: [...path, to], enemy: enemies[0]! });
          continue;
        }
        if (!around.friends.has(key)) paths.set(key, [...path, to]);
        next.push({ at: to, path: [...path, to] });
      }
    }
    frontier = next;
  }
  return { paths, attacks };
}

const W = 7;
const H = 6;
const square = fc.tuple(fc.nat(W - 1), fc.nat(H - 1)) as fc.Arbitrary<Square>;
const board = fc.record({
  from: square,
  friends: fc.array(square, { maxLength: 8 }),
  enemies: fc.array(fc.tuple(square, fc.integer({ min: 1, max: 2 })), { maxLength: 6 }),
  battles: fc.array(square, { maxLength: 3 }),
  terrain: fc.array(fc.stringMatching(/^[pfhmrtc]{7}$/), { minLength: H, maxLength: H }),
  roads: fc.array(square, { maxLength: 10 }),
});
type Board = typeof board extends fc.Arbitrary<infer B> ? B : never;

function layout(b: Board): { around: Surroundings; map: MapDefinition } {
  const taken = new Set([squareKey(b.from)]);
  const claim = (at: Square) => (taken.has(squareKey(at)) ? false : (taken.add(squareKey(at)), true));
  const friends = b.friends.filter(claim);
  const enemies = b.enemies.filter(([at]) => claim(at)).map(([at, n]) => Array.from({ length: n }, () => at));
  const battles = b.battles.filter(claim);
  const roads = [...new Map(b.roads.map((at) => [squareKey(at), at])).values()];
  return {
    around: surroundingsOf(W, H, friends, enemies, battles),
    map: { width: W, height: H, terrain: b.terrain, roads },
  };
}

/** Whether a path breaks none of M1-M4 and its allowance pays for it. */
function legal(
  around: Surroundings,
  from: Square,
  path: readonly Square[],
  allowance: number,
  pricing: StepPricing,
): boolean {
  let previous = from;
  for (const [i, step] of path.entries()) {
    const key = squareKey(step);
    if (
      !onMap(around, step) ||
      !orthogonallyAdjacent(previous, step) ||
      key === squareKey(from) ||
      around.battles.has(key)
    )
      return false;
    if (around.enemies.has(key) && (i < path.length - 1 || around.enemies.get(key)!.length > 1)) return false;
    previous = step;
  }
  return stepsPaid(pointsLeftOnPath(pricing, allowance, path)) === path.length;
}

describe("the move search", () => {
  it("A4 off: the search is the old breadth-first search, path for path, attack for attack", () => {
    fc.assert(
      fc.property(board, fc.integer({ min: 1, max: 8 }), (b, allowance) => {
        const { around } = layout(b);
        const found = searchMoves(around, b.from, allowance, ONE_A_SQUARE);
        const reference = breadthFirst(around, b.from, allowance);
        expect([...found.ends]).toEqual([...reference.paths]);
        expect(found.attacks).toEqual(reference.attacks);
      }),
    );
  });

  it("A4 every path the search finds is legal under terrain costs, and every legal walk's end is found", () => {
    const walk = fc.array(fc.constantFrom<Square>([0, -1], [1, 0], [0, 1], [-1, 0]), { minLength: 1, maxLength: 7 });
    fc.assert(
      fc.property(board, fc.integer({ min: 1, max: 8 }), walk, (b, allowance, steps) => {
        const { around, map } = layout(b);
        const pricing = stepPricing({ map, options: { advanced: { terrainCosts: true } } });
        const found = searchMoves(around, b.from, allowance, pricing);
        for (const path of found.ends.values()) expect(legal(around, b.from, path, allowance, pricing)).toBe(true);
        for (const { path } of found.attacks) expect(legal(around, b.from, path, allowance, pricing)).toBe(true);

        const path: Square[] = [];
        let [x, y] = b.from;
        for (const [dx, dy] of steps) path.push([(x += dx), (y += dy)]);
        if (!legal(around, b.from, path, allowance, pricing)) return;
        const end = squareKey(path[path.length - 1]!);
        if (around.enemies.has(end))
          expect(found.attacks.some((a) => squareKey(a.path[a.path.length - 1]!) === end)).toBe(true);
        else if (!around.friends.has(end)) expect(found.ends.has(end)).toBe(true);
      }),
    );
  });

  it("A4 the search's paths pass checkPath at the Charge allowance", () => {
    fc.assert(
      fc.property(board, fc.integer({ min: 1, max: 4 }), (b, rate) => {
        const { around, map } = layout(b);
        const pricing = stepPricing({ map, options: { advanced: { terrainCosts: true } } });
        for (const path of searchMoves(around, b.from, 2 * rate, pricing).ends.values()) {
          expect(() => checkPath(around, b.from, path, rate, pricing)).not.toThrow();
        }
      }),
    );
  });

  it("S7 A4 a stacked army whose only ways off are friends on mountains cannot leave with 2 points, though it could by squares", () => {
    const map: MapDefinition = { width: 3, height: 3, terrain: ["pmp", "mpp", "ppp"], roads: [] };
    const around = surroundingsOf(
      3,
      3,
      [
        [1, 0],
        [0, 1],
      ],
      [],
      [],
    );
    expect(canLeave(around, [0, 0], 2)).toBe(true);
    expect(canLeave(around, [0, 0], 2, stepPricing({ map, options: { advanced: { terrainCosts: true } } }))).toBe(
      false,
    );
  });

  it("A4 checkPath refuses a Charge the terrain does not pay for, naming A4, and not by counting squares", () => {
    const map: MapDefinition = { width: 6, height: 1, terrain: ["pfpppp"], roads: [[1, 0]] };
    const around = surroundingsOf(6, 1, [], [], []);
    const pricing = stepPricing({ map, options: { advanced: { terrainCosts: true } } });
    // Road over forest free, then four plains: 5 squares for Charge's 4 points at rate 2.
    expect(() =>
      checkPath(
        around,
        [0, 0],
        [
          [1, 0],
          [2, 0],
          [3, 0],
          [4, 0],
          [5, 0],
        ],
        2,
        pricing,
      ),
    ).not.toThrow();
    const refusal = (() => {
      try {
        checkPath(
          around,
          [1, 0],
          [
            [2, 0],
            [3, 0],
            [4, 0],
            [5, 0],
          ],
          1,
          pricing,
        );
      } catch (error) {
        return (error as Refused).refusal;
      }
      return null;
    })();
    expect(refusal).toMatchObject({ kind: "rule", rule: "A4" });
    expect(refusal?.message).toContain("step 3 into (4,0) costs 1 point but only 0 of Charge's 2 points");
  });
});

// ---------- A1 ----------

const catalogue: Catalogue = {
  name: "A1 test",
  unitTypes: {
    guardian: { name: "Guardian", moveCm: 10, abilities: ["infantry"] },
    aspect: { name: "Swooping aspect", moveCm: 25, abilities: ["infantry"] },
    falcon: { name: "Falcon", moveCm: 25, abilities: ["transport"], transportCapacity: 2 },
    cannon: { name: "Las-cannon", moveCm: 10, abilities: [] },
    tank: { name: "Tank", moveCm: 20, abilities: [] },
  },
  formations: {},
};
const roster = (units: Record<string, number>): RosterFormation[] => [{ id: "f", formation: "x", units }];
const mobilisedOn = { catalogue, options: { advanced: { mobilised: true } } };

describe("A1 mobilised", () => {
  it("A1 units of 20 cm count as fast; fast infantry need no seat; slow infantry need one seat each", () => {
    expect(isMobilised(roster({ tank: 3 }), catalogue)).toBe(true);
    expect(isMobilised(roster({ aspect: 5 }), catalogue)).toBe(true);
    expect(isMobilised(roster({ guardian: 4, falcon: 2 }), catalogue)).toBe(true);
    expect(isMobilised(roster({ guardian: 5, falcon: 2 }), catalogue)).toBe(false);
  });

  it("A1 a slow unit that is not infantry cannot be carried", () => {
    expect(isMobilised(roster({ cannon: 1, falcon: 9 }), catalogue)).toBe(false);
  });

  it("A1 only surviving units count: destroyed transports carry nobody, destroyed slow units slow nobody", () => {
    expect(isMobilised(roster({ guardian: 4, falcon: 1, tank: 0 }), catalogue)).toBe(false);
    expect(isMobilised(roster({ cannon: 0, tank: 2 }), catalogue)).toBe(true);
    expect(isMobilised(roster({ guardian: 0, falcon: 0 }), catalogue)).toBe(false);
  });

  it("A1 adds one to S5's rate only when the option is on", () => {
    expect(armyMoveRate(3000, roster({ tank: 3 }), mobilisedOn)).toBe(4);
    expect(armyMoveRate(7000, roster({ tank: 3 }), mobilisedOn)).toBe(2);
    expect(armyMoveRate(3000, roster({ tank: 3 }), { catalogue, options: {} })).toBe(3);
    expect(armyMoveRate(3000, roster({ cannon: 1 }), mobilisedOn)).toBe(3);
  });
});

// ---------- the demo under A1 and A4 ----------

describe("the demo's commanders with terrain costs", () => {
  it("A4 A1 the demo plays three turns on costly ground without a refused move or a recorded violation", async () => {
    const path = fileURLToPath(new URL("./golden/fixtures/advanced-movement.json", import.meta.url));
    const raw = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
    raw["catalogue"] = JSON.parse(readFileSync(join(dirname(path), String(raw["catalogue"])), "utf8"));
    const checked = checkSetupFile(raw);
    if (!checked.ok) throw new Error(checked.message);
    const setup = checked.setup as SetupFile & { catalogue: Catalogue };
    const engine = await Engine.open(await tempDir("epicwar-a4-demo-"), {
      clock: () => new Date("2026-01-01T00:00:00.000Z"),
    });
    try {
      expect((await engine.create(setupCommands(setup).map((step) => step.command))).ok).toBe(true);
      const parties = new Set([HOST, ...setup.players.map((p) => p.id)]);
      const table = new Table(engine, setup.campaign, {
        parties,
        secrets: new MemorySecrets(),
        random: sequenceRandomHex("a4-demo"),
        chores: true,
      });
      const state = await playCampaign(table, () => {}, 3);
      const events = (await engine.store.readAll(setup.campaign)).map(toCurrent);
      expect(events.filter((e) => e.type === "ArmyMoved").length).toBeGreaterThan(0);
      expect(state.violations).toEqual([]);
    } finally {
      await engine.close();
    }
  });
});
