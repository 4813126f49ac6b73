import { Type } from "@sinclair/typebox";
import { BattleResult, Id, IdRecord, ModelDice } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/**
 * Both players agreed a battle's result: losses, VPs and CVPs (B4-B6, S4); or, in a campaign whose battles are
 * resolved by the battle model (`options.battles: "model"`), the host drew it by the forecast's battle model from the
 * turn's dice (D1): `resolvedBy: "model"`, with the d10s it read from `firstDie` on, which the audit recomputes.
 */
export const BattleResolved = defineEvent(
  "BattleResolved",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      battle: Id,
      result: BattleResult,
      /** The winner's side, or null for a draw. */
      winner: Type.Union([Id, Type.Null()]),
      overwhelming: Type.Boolean(),
      /** CVPs each player gained from this battle: VPs one for one plus the S4 award. */
      cvps: IdRecord(Type.Integer({ minimum: 0 })),
      /** Present when the battle model drew the result rather than the players. */
      resolvedBy: Type.Optional(Type.Literal("model")),
      /** With `resolvedBy`: the turn's die the model's dice start at (D1). */
      firstDie: Type.Optional(Type.Integer({ minimum: 0 })),
      /** With `resolvedBy`: the faces of the d10s the model read, in order (MODEL_DIE_SIDES). */
      dice: Type.Optional(ModelDice),
    },
    { additionalProperties: false },
  ),
);
export type BattleResolved = DataOf<typeof BattleResolved>;
