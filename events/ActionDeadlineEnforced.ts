import { Type } from "@sinclair/typebox";
import { Id } from "./common.js";
import { DateTime } from "./ActionDeadlineSet.js";
import { defineEvent, type DataOf } from "./define.js";
import { OwedItem } from "./StallClaimed.js";

/**
 * The host closed the Action phase once its deadline had passed, with no stall claim covering what it waited on (O2,
 * T5 stall ruling): who was waited on, the orders and reveals owed and the armies not activated. The
 * ActionPhaseEnded that follows records the consequences, as after a claimed stall.
 */
export const ActionDeadlineEnforced = defineEvent(
  "ActionDeadlineEnforced",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      deadline: DateTime,
      owed: Type.Array(OwedItem),
      notActivated: Type.Array(Type.Object({ army: Id, player: Id }, { additionalProperties: false })),
    },
    { additionalProperties: false },
  ),
);
export type ActionDeadlineEnforced = DataOf<typeof ActionDeadlineEnforced>;
