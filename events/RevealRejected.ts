import { Type } from "@sinclair/typebox";
import { Id, Order } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A claimed reveal did not match the army's commitment: recorded as cheating; the order stays hidden (T5). */
export const RevealRejected = defineEvent(
  "RevealRejected",
  1,
  Type.Object(
    { turn: Type.Integer({ minimum: 1 }), army: Id, player: Id, order: Order, salt: Type.String({ maxLength: 256 }) },
    { additionalProperties: false },
  ),
);
export type RevealRejected = DataOf<typeof RevealRejected>;
