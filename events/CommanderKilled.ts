import { Type } from "@sinclair/typebox";
import { Commander, Id } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/**
 * A6, S8: a battle left no unit of the commander's type in the commander's formation: the commander is dead and
 * known to both players from now on. The army has no commander until a new one is appointed.
 */
export const CommanderKilled = defineEvent(
  "CommanderKilled",
  1,
  Type.Object(
    { turn: Type.Integer({ minimum: 1 }), army: Id, player: Id, battle: Id, commander: Commander },
    { additionalProperties: false },
  ),
);
export type CommanderKilled = DataOf<typeof CommanderKilled>;
