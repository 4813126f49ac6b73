import { Type } from "@sinclair/typebox";
import { Id, Order } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A revealed order did not allow what the army did (T4, S7 ruling): cheating, naming the move's event. */
export const OrderViolated = defineEvent(
  "OrderViolated",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      army: Id,
      player: Id,
      order: Order,
      rule: Type.String({ pattern: "^[A-Z][0-9]+$" }),
      /** Seq of the ArmyMoved event that shows it, or of the activation when it did not move. */
      evidenceSeq: Type.Integer({ minimum: 1 }),
      detail: Type.String({ maxLength: 400 }),
    },
    { additionalProperties: false },
  ),
);
export type OrderViolated = DataOf<typeof OrderViolated>;
