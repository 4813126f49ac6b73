import { Type } from "@sinclair/typebox";
import { Id, Square } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A8: where one line of a side's war chest income came from. */
export const WarChestSource = Type.Union([
  Type.Literal("objective"),
  Type.Literal("homeBase"),
  Type.Literal("city"),
  Type.Literal("overwhelmingWin"),
  Type.Literal("win"),
  Type.Literal("draw"),
  Type.Literal("defeat"),
  Type.Literal("overwhelmingDefeat"),
]);

/**
 * A8: one itemised line of the income: an objective, enemy home base (`objective` is its owner) or city held, or a
 * battle of this turn.
 */
export const WarChestItem = Type.Object(
  {
    source: WarChestSource,
    amount: Type.Integer({ minimum: -100000, maximum: 100000 }),
    objective: Type.Optional(Id),
    at: Type.Optional(Square),
    battle: Type.Optional(Id),
  },
  { additionalProperties: false },
);

/**
 * A8: a side's war chest income at the start of the End phase, itemised. `total` is the sum of the items; `ceilingCut`
 * is the income not paid because the campaign's income would pass 20% of F; `floorCut` is the deduction not taken
 * because the balance never goes below 0. `change` is what the balance moved by, `earned` what counts toward the
 * 20% ceiling.
 */
export const WarChestIncomeRecorded = defineEvent(
  "WarChestIncomeRecorded",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      player: Id,
      items: Type.Array(WarChestItem, { maxItems: 10000 }),
      total: Type.Integer(),
      ceilingCut: Type.Integer({ minimum: 0 }),
      floorCut: Type.Integer({ minimum: 0 }),
      change: Type.Integer(),
      earned: Type.Integer({ minimum: 0 }),
      balance: Type.Integer({ minimum: 0 }),
    },
    { additionalProperties: false },
  ),
);
export type WarChestIncomeRecorded = DataOf<typeof WarChestIncomeRecorded>;
