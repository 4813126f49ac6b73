import type { MapDefinition, Options, Order, Square, Terrain } from "../../events/common.js";
import { advancedRule } from "../../projections/advanced.js";
import { squareKey, terrainAt } from "../../projections/grid.js";

/** A square as A4 prices it: its terrain, and whether a road runs through it. */
export interface TerrainSquare {
  terrain: Terrain;
  road: boolean;
}

/** What a move has done so far that changes the price of its later squares (A4). */
export interface MoveSoFar {
  /** The one free square of a move, shared by roads and towns/cities, has been taken. */
  freeSquareTaken: boolean;
  /** A hills square has been paid at the hills price: later hills squares of this move cost 1. */
  hillsEntered: boolean;
}

export const MOVE_START: MoveSoFar = { freeSquareTaken: false, hillsEntered: false };

/** The price of entering one square, and the move so far once it is entered. */
export interface StepPrice {
  cost: number;
  soFar: MoveSoFar;
}

const OPEN_GROUND: Record<"plains" | "forest" | "river" | "mountains", number> = {
  plains: 1,
  forest: 2,
  river: 2,
  mountains: 3,
};

/**
 * A4: the points it costs to enter a square. A road square, or a town or city, is free if the move has not yet taken
 * its free square, else 1, whatever the terrain under the road; hills cost 2 for the move's first hills square and 1
 * after; forest and river 2; mountains 3; plains 1.
 */
export function enterSquare(square: TerrainSquare, soFar: MoveSoFar): StepPrice {
  if (square.road || square.terrain === "town" || square.terrain === "city") {
    return soFar.freeSquareTaken ? { cost: 1, soFar } : { cost: 0, soFar: { ...soFar, freeSquareTaken: true } };
  }
  if (square.terrain === "hills")
    return soFar.hillsEntered ? { cost: 1, soFar } : { cost: 2, soFar: { ...soFar, hillsEntered: true } };
  return { cost: OPEN_GROUND[square.terrain], soFar };
}

/** The points left after each step, starting from `allowance`: negative once the steps cost more than it holds. */
function spend<T>(allowance: number, steps: readonly T[], price: (step: T, soFar: MoveSoFar) => StepPrice): number[] {
  let soFar = MOVE_START;
  let left = allowance;
  return steps.map((step) => {
    const paid = price(step, soFar);
    soFar = paid.soFar;
    left -= paid.cost;
    return left;
  });
}

/** A4: the points left after each square of a move (the seed's 8 on Charge: 7, 5, 3, 3, 2, 1, 0). */
export function pointsLeft(allowance: number, squares: readonly TerrainSquare[]): number[] {
  return spend(allowance, squares, enterSquare);
}

/**
 * How many of a move's leading steps its allowance pays for, from the points left after each step: an army on Advance
 * or Charge may always move one square (A4), and points that cannot pay for the next square are lost.
 */
export function stepsPaid(left: readonly number[]): number {
  let paid = 0;
  while (paid < left.length && left[paid]! >= 0) paid++;
  return left.length > 0 ? Math.max(1, paid) : 0;
}

/** How a campaign prices the steps of a move: one point a square (T4), or by terrain when A4 is in play. */
export interface StepPricing {
  byTerrain: boolean;
  enter(to: Square, soFar: MoveSoFar): StepPrice;
}

/** T4 without terrain costs: every square costs one point. */
export const ONE_A_SQUARE: StepPricing = { byTerrain: false, enter: (_to, soFar) => ({ cost: 1, soFar }) };

export function stepPricing(setup: { map: MapDefinition; options: Options }): StepPricing {
  if (!advancedRule(setup.options, "terrainCosts")) return ONE_A_SQUARE;
  const { map } = setup;
  const roads = new Set(map.roads.map(squareKey));
  return {
    byTerrain: true,
    enter: (to, soFar) => enterSquare({ terrain: terrainAt(map, to), road: roads.has(squareKey(to)) }, soFar),
  };
}

/** The points left after each step of a path (every square on the map). */
export function pointsLeftOnPath(pricing: StepPricing, allowance: number, path: readonly Square[]): number[] {
  return spend(allowance, path, (to, soFar) => pricing.enter(to, soFar));
}

/** T4: an order's allowance at move rate R: Advance R, Charge 2R; First Fire and Fortify may not move. */
export function orderAllowance(order: Order, rate: number): number {
  if (order === "advance") return rate;
  if (order === "charge") return 2 * rate;
  return 0;
}

/** How many leading squares of a path an Advance or Charge at move rate R pays for: by count (T4) or by terrain (A4). */
export function squaresPaid(
  pricing: StepPricing,
  order: "advance" | "charge",
  rate: number,
  path: readonly Square[],
): number {
  return stepsPaid(pointsLeftOnPath(pricing, orderAllowance(order, rate), path));
}
