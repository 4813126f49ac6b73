import { Type } from "@sinclair/typebox";
import { Id, UnitCounts } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A player disbanded a whole army that has fought: it leaves the map, its units go In Transit (E5). */
export const ArmyDisbanded = defineEvent(
  "ArmyDisbanded",
  1,
  Type.Object(
    { turn: Type.Integer({ minimum: 1 }), army: Id, player: Id, units: UnitCounts },
    { additionalProperties: false },
  ),
);
export type ArmyDisbanded = DataOf<typeof ArmyDisbanded>;
