import { Type } from "@sinclair/typebox";
import { Id, IdRecord } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** Both players rolled a d6 for initiative, ties rerolled (T2). Die i of the turn is rounds-major, players in set-up order, from firstDie on. */
export const InitiativeRolled = defineEvent(
  "InitiativeRolled",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      firstDie: Type.Integer({ minimum: 0 }),
      rounds: Type.Array(IdRecord(Type.Integer({ minimum: 1, maximum: 6 })), { minItems: 1, maxItems: 100 }),
      winner: Id,
    },
    { additionalProperties: false },
  ),
);
export type InitiativeRolled = DataOf<typeof InitiativeRolled>;
