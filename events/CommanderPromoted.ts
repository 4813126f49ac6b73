import { Type } from "@sinclair/typebox";
import { Commander, Id } from "./common.js";
import { CommanderLevel } from "./CommanderAppointed.js";
import { defineEvent, type DataOf } from "./define.js";

/** A6: an army's commander survived a second battle since its last rise and goes up one level. */
export const CommanderPromoted = defineEvent(
  "CommanderPromoted",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      army: Id,
      player: Id,
      battle: Id,
      commander: Commander,
      level: CommanderLevel,
    },
    { additionalProperties: false },
  ),
);
export type CommanderPromoted = DataOf<typeof CommanderPromoted>;
