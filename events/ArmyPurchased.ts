import { Type } from "@sinclair/typebox";
import { Commander, Id, RosterFormation, Square } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A8: a new army of full-strength catalogue formations bought from the war chest, placed at its home base. */
export const ArmyPurchased = defineEvent("ArmyPurchased", 1, Type.Object({
      turn: Type.Integer({ minimum: 1 }),
      army: Id,
      player: Id,
      name: Type.String({ minLength: 1, maxLength: 80 }),
      formations: Type.Array(RosterFormation, { minItems: 1, maxItems: 200 }),
      commander: Commander,
      at: Square,
      /** War chest points paid: the formations' catalogue points. */
      cost: Type.Integer({ minimum: 1 }),
    }, { additionalProperties: false }));
export type ArmyPurchased = DataOf<typeof ArmyPurchased>;
