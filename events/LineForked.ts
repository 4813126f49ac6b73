import { Type } from "@sinclair/typebox";
import { HOST, Id } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/**
 * D1, T5: a branch's first event, written when it forks its parent where commitments were open: it names what is void
 * on the branch, whose secrets stay on the parent line. The seeds of the turn under way (the host's and the players')
 * are made afresh from die `fromDie` on; players' seeds committed for a turn not yet started are committed again; and
 * each order committed and not yet revealed is committed again by its player (OrderRecommitted), never copied.
 */
export const LineForked = defineEvent(
  "LineForked",
  1,
  Type.Object(
    {
      /** The turn under way at the fork, or the turn about to start. */
      turn: Type.Integer({ minimum: 1 }),
      /** Dice of the turn drawn on the parent line before the fork: the branch's own dice are numbered from here. */
      fromDie: Type.Integer({ minimum: 0 }),
      /** The parties whose seed commitments are void ("host" and the players). */
      voidedSeeds: Type.Array(Type.Union([Id, Type.Literal(HOST)]), { maxItems: 16 }),
      /** The armies whose committed orders are void, with their players. */
      voidedOrders: Type.Array(Type.Object({ army: Id, player: Id }, { additionalProperties: false }), {
        maxItems: 200,
      }),
    },
    { additionalProperties: false },
  ),
);
export type LineForked = DataOf<typeof LineForked>;
