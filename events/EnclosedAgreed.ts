import { Type } from "@sinclair/typebox";
import { Id } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** K3: a player agrees that a battle on a city square is fought enclosed; it is once both have agreed. */
export const EnclosedAgreed = defineEvent(
  "EnclosedAgreed",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      battle: Id,
      player: Id,
    },
    { additionalProperties: false },
  ),
);
export type EnclosedAgreed = DataOf<typeof EnclosedAgreed>;
