import { Type } from "@sinclair/typebox";
import { Id, SupportKind } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/**
 * A7: a player bought an off-table support item in the End phase; it joins the player's artillery roster and may be
 * called in from the next turn on. Paid from the war chest (A8 in play) or from the support fund that buys nothing else.
 */
export const SupportPurchased = defineEvent(
  "SupportPurchased",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      player: Id,
      item: Id,
      kind: SupportKind,
      cost: Type.Integer({ minimum: 1 }),
      paidFrom: Type.Union([Type.Literal("warChest"), Type.Literal("supportFund")]),
    },
    { additionalProperties: false },
  ),
);
export type SupportPurchased = DataOf<typeof SupportPurchased>;
