/**
 * mapRenderMs: the time renderMap takes for a large map in Node, on a view made here: 40 x 30 squares of mixed terrain
 * and roads, 80 armies (40 a side, some stacked), 16 objectives, both home bases, defences, 10 battles to fight and
 * 40 moves this turn, drawn as one player sees it under fog of war. Its goal (16 ms) is for Chromium, which the browser
 * test measures (test/slow/web-play.test.ts); this is the Node figure beside it, with no baseline of its own.
 */
import type { Order, Square } from "../events/common.js";
import { initialState, type ActivationState, type ArmyState, type BattleState } from "../projections/state.js";
import { seededRandom } from "../src/demo/rng.js";
import { renderMap } from "../src/map/render-map.js";
import { viewState, type CampaignView } from "../src/views/view.js";

const WIDTH = 40;
const HEIGHT = 30;
const ARMIES = 80;
const ORDERS: readonly Order[] = ["firstFire", "advance", "charge", "fortify"];

/** The big map's view, as the first player sees it (the other side's points fogged, its orders hidden). */
export function bigMapView(): CampaignView {
  const random = seededRandom("bench-map");
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const square = (): Square => [Math.floor(random() * WIDTH), Math.floor(random() * HEIGHT)];
  const terrain = Array.from({ length: HEIGHT }, () =>
    Array.from({ length: WIDTH }, () => pick("pppppfhmrtc".split(""))).join(""),
  );
  const roads: Square[] = [
    ...Array.from({ length: HEIGHT }, (_, y): Square => [12, y]),
    ...Array.from({ length: WIDTH }, (_, x): Square => [x, 15]),
  ];
  const players = ["red", "blue"];
  const armies: Record<string, ArmyState> = {};
  const activations: Record<string, ActivationState> = {};
  for (let i = 0; i < ARMIES; i++) {
    const id = `army-${String(i).padStart(2, "0")}`;
    const player = players[i % 2]!;
    const at = square();
    armies[id] = {
      id,
      player,
      name: `Army ${i} <"of ${player}"> & co`,
      formations: [],
      commander: { formation: "hq", unitType: "hq" },
      points: 1000 + Math.floor(random() * 9000),
      moveRate: 1 + Math.floor(random() * 3),
      at,
      status: "active",
      battles: 0,
      sinceTurn: 1,
    };
    if (i % 2 === 0) {
      const from: Square = [Math.max(at[0] - 3, 0), at[1]];
      const path = [1, 2, 3].map((step): Square => [Math.min(from[0] + step, at[0]), at[1]]);
      activations[id] = {
        army: id,
        player,
        seq: 100 + i,
        commitment: "0".repeat(64),
        rate: 3,
        engaged: false,
        stacked: false,
        from,
        path,
        moveSeq: 101 + i,
        order: i % 4 === 0 ? pick(ORDERS) : null,
      };
    }
  }
  const battles: Record<string, BattleState> = {};
  for (let i = 0; i < 10; i++) {
    const attacker = armies[`army-${String(i * 2).padStart(2, "0")}`]!;
    const defender = armies[`army-${String(i * 2 + 1).padStart(2, "0")}`]!;
    battles[`b${i}`] = {
      id: `b${i}`,
      turn: 3,
      index: i,
      at: defender.at!,
      attacker: {
        army: attacker.id,
        player: attacker.player,
        points: attacker.points,
        order: null,
        from: attacker.at!,
      },
      defender: { army: defender.id, player: defender.player, points: defender.points, order: null },
      averagePoints: (attacker.points + defender.points) / 2,
      vpTarget: 10,
      defences: 450,
      status: "pending",
      report: null,
      result: null,
      winner: null,
      overwhelming: false,
    };
  }
  const state = {
    ...initialState,
    campaign: "bench-map",
    status: "active",
    turn: 3,
    phase: "action",
    setup: {
      name: "The bench's big map",
      map: { width: WIDTH, height: HEIGHT, terrain, roads },
      players: players.map((id, i) => ({ id, name: id, baseLine: i === 0 ? "north" : "south" })),
      force: { maxArmyPoints: 10000, armies: 40, total: 400000 },
      options: { advanced: { fogOfWar: true } },
      catalogue: {},
      cvpTarget: 4000,
      awards: {},
    },
    armies,
    objectives: Object.fromEntries(
      Array.from({ length: 16 }, (_, i) => [
        `o${i}`,
        { id: `o${i}`, placedBy: players[i % 2]!, at: square(), heldBy: i % 3 === 0 ? players[i % 2]! : null },
      ]),
    ),
    homeBases: {
      red: { player: "red", at: [20, 0], heldBy: "red" },
      blue: { player: "blue", at: [20, 29], heldBy: "red" },
    },
    defences: Object.fromEntries(Array.from({ length: 20 }, () => [square().join(","), 450])),
    battles,
    turnState: {
      hostSeedHash: "",
      hostSeed: null,
      playerSeedHashes: {},
      playerSeeds: {},
      diceUsed: 0,
      initiativeWinner: "red",
      first: "red",
      lastActivator: "blue",
      activations,
      endPhaseDone: [],
    },
  } as unknown as Parameters<typeof viewState>[0];
  return viewState(state, "red");
}

/** Renders the big map `runs` times (after a few warm-up renders) and gives the median and p90 times in ms. */
export function timeMapRender(runs: number): { medianMs: number; p90Ms: number; bytes: number } {
  const view = bigMapView();
  const render = () => renderMap(view, { viewer: "red" });
  for (let i = 0; i < 20; i++) render();
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    bytes = render().length;
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { medianMs: times[Math.floor(runs / 2)]!, p90Ms: times[Math.floor(runs * 0.9)]!, bytes };
}
