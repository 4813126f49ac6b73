import { Type } from "@sinclair/typebox";
import { Id, Sha256 } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A player activated an army with a hidden order: only its commitment is logged (T3, T5). */
export const ArmyActivated = defineEvent(
  "ArmyActivated",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      army: Id,
      player: Id,
      commitment: Sha256,
      /** Its move rate R at activation (T4). */
      rate: Type.Integer({ minimum: 0, maximum: 20 }),
      /** Activated out of sequence because a battle started against it before its turn (ruling: pinned, may not move). */
      engaged: Type.Boolean(),
      /** It began this activation stacked on its home base (S7 ruling: must take Advance or Charge and leave). */
      stacked: Type.Boolean(),
    },
    { additionalProperties: false },
  ),
);
export type ArmyActivated = DataOf<typeof ArmyActivated>;
