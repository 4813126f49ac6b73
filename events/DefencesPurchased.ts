import { Type } from "@sinclair/typebox";
import { Id, Square } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A8: defences bought from the war chest at a square; like built ones they belong to the square (E3). */
export const DefencesPurchased = defineEvent(
  "DefencesPurchased",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      player: Id,
      at: Square,
      /** Points of defences, paid point for point from the war chest. */
      points: Type.Integer({ minimum: 1 }),
    },
    { additionalProperties: false },
  ),
);
export type DefencesPurchased = DataOf<typeof DefencesPurchased>;
