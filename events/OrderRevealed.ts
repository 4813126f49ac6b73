import { Type } from "@sinclair/typebox";
import { Id, Nonce, Order } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A player revealed an army's order and salt, matching its commitment (T5). */
export const OrderRevealed = defineEvent(
  "OrderRevealed",
  1,
  Type.Object(
    { turn: Type.Integer({ minimum: 1 }), army: Id, order: Order, salt: Nonce },
    { additionalProperties: false },
  ),
);
export type OrderRevealed = DataOf<typeof OrderRevealed>;
