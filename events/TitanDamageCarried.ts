import { Type } from "@sinclair/typebox";
import { Id, IdRecord, TitanDamage } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A8: titan damage from a battle stays on the army's titans until paid for (B5 repairs it for free only without A8). */
export const TitanDamageCarried = defineEvent(
  "TitanDamageCarried",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      battle: Id,
      army: Id,
      player: Id,
      /** The damage this battle added, by titan formation id. */
      damage: IdRecord(TitanDamage),
    },
    { additionalProperties: false },
  ),
);
export type TitanDamageCarried = DataOf<typeof TitanDamageCarried>;
