import { Type } from "@sinclair/typebox";
import { Id } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";
import { RepairedWeapon } from "./TitanRepaired.js";

/** A8: repairs paid from the war chest to a damaged titan held in the Reserves. */
export const ReserveTitanRepaired = defineEvent(
  "ReserveTitanRepaired",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      player: Id,
      /** The titan's unit type. */
      unitType: Id,
      /** Its place in the Reserves' list of damaged titans of that type, the most damaged first, from 0. */
      titan: Type.Integer({ minimum: 0 }),
      /** Shields/fields restored, 100 points each. */
      shields: Type.Integer({ minimum: 0, maximum: 100 }),
      weapons: Type.Array(RepairedWeapon, { maxItems: 50 }),
      cost: Type.Integer({ minimum: 0 }),
    },
    { additionalProperties: false },
  ),
);
export type ReserveTitanRepaired = DataOf<typeof ReserveTitanRepaired>;
