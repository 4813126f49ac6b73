import { Type } from "@sinclair/typebox";
import { Id, UnitCounts } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** Units that went In Transit in an earlier turn joined the Reserves (E4). */
export const TransitArrived = defineEvent(
  "TransitArrived",
  1,
  Type.Object(
    { turn: Type.Integer({ minimum: 1 }), player: Id, sentTurn: Type.Integer({ minimum: 1 }), units: UnitCounts },
    { additionalProperties: false },
  ),
);
export type TransitArrived = DataOf<typeof TransitArrived>;
