import { Type } from "@sinclair/typebox";
import { Id, Sha256 } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/**
 * T5 on a branch: a player committed afresh to the order of an army whose order the fork voided (LineForked), with a
 * salt of its own: a decision on the branch, not the parent's order. Its reveal must match this commitment.
 */
export const OrderRecommitted = defineEvent(
  "OrderRecommitted",
  1,
  Type.Object(
    { turn: Type.Integer({ minimum: 1 }), army: Id, player: Id, commitment: Sha256 },
    { additionalProperties: false },
  ),
);
export type OrderRecommitted = DataOf<typeof OrderRecommitted>;
