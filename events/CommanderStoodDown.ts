import { Type } from "@sinclair/typebox";
import { Commander, Id } from "./common.js";
import { CommanderLevel } from "./CommanderAppointed.js";
import { defineEvent, type DataOf } from "./define.js";

/**
 * A6: the army left the map (routed or disbanded) with its commander alive: the commander joins its player's spare
 * commanders at its level, able to lead a new army.
 */
export const CommanderStoodDown = defineEvent(
  "CommanderStoodDown",
  1,
  Type.Object(
    { turn: Type.Integer({ minimum: 1 }), army: Id, player: Id, commander: Commander, level: CommanderLevel },
    { additionalProperties: false },
  ),
);
export type CommanderStoodDown = DataOf<typeof CommanderStoodDown>;
