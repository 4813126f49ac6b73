import { Type } from "@sinclair/typebox";
import { Id } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/**
 * A7: items a side called in during a resolved battle are struck off its artillery roster: barrages once the battle is
 * over, one-shot weapons as soon as they are used (both are gone once the result is resolved).
 */
export const SupportExpended = defineEvent(
  "SupportExpended",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      battle: Id,
      player: Id,
      items: Type.Array(Id, { minItems: 1, maxItems: 100 }),
    },
    { additionalProperties: false },
  ),
);
export type SupportExpended = DataOf<typeof SupportExpended>;
