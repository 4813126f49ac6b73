import { Type } from "@sinclair/typebox";
import { Id, UnitCounts } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** An army lost a battle, or could not withdraw after a draw: its counter leaves the map and its survivors go In Transit (B5, E4). */
export const ArmyRouted = defineEvent(
  "ArmyRouted",
  1,
  Type.Object(
    { turn: Type.Integer({ minimum: 1 }), army: Id, player: Id, battle: Id, units: UnitCounts },
    { additionalProperties: false },
  ),
);
export type ArmyRouted = DataOf<typeof ArmyRouted>;
