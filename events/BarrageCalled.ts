import { Type } from "@sinclair/typebox";
import { Id } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** K5 (Heresy profile): a player calls a barrage: its total barrage points and the models under the template. */
export const BarrageCalled = defineEvent(
  "BarrageCalled",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      battle: Id,
      player: Id,
      barrage: Id,
      barragePoints: Type.Integer({ minimum: 1, maximum: 1000 }),
      models: Type.Integer({ minimum: 1, maximum: 200 }),
      /** Seed 004's barrage point table: the d10 score that hits. */
      toHit: Type.Integer({ minimum: 2, maximum: 10 }),
    },
    { additionalProperties: false },
  ),
);
export type BarrageCalled = DataOf<typeof BarrageCalled>;
