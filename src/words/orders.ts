import type { Order } from "../../events/common.js";

/**
 * The four orders of T4 in players' words, for every message, sheet and map that names one. It imports nothing but a
 * type, so that a browser bundle (the map, src/map) takes it alone.
 */
export const ORDER_NAMES = {
  firstFire: "First Fire",
  advance: "Advance",
  charge: "Charge",
  fortify: "Fortify",
} as const satisfies Record<Order, string>;
