import { Type } from "@sinclair/typebox";
import { Id, Square } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** An army moved square by square (M1-M3): `path` lists each square it entered, in order. */
export const ArmyMoved = defineEvent(
  "ArmyMoved",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      army: Id,
      from: Square,
      path: Type.Array(Square, { minItems: 1, maxItems: 100 }),
    },
    { additionalProperties: false },
  ),
);
export type ArmyMoved = DataOf<typeof ArmyMoved>;
