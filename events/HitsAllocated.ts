import { Type } from "@sinclair/typebox";
import { Id } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";
import { TargetUnit, HitKind, AllocatedHit } from "./kit-common.js";

/**
 * K5: the battle assistant allocated a volley's hits on a formation in seed 003's order: closest eligible unit first,
 * no unit a second hit before every eligible unit has one, each hit only to a unit it can affect. The units are as the
 * owner of the formation measured them; the host then rolls the saves.
 */
export const HitsAllocated = defineEvent(
  "HitsAllocated",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      battle: Id,
      player: Id,
      volley: Id,
      units: Type.Array(TargetUnit, { minItems: 1, maxItems: 200 }),
      /** The hits in the order they were scored. */
      hits: Type.Array(HitKind, { minItems: 1, maxItems: 500 }),
      allocation: Type.Array(AllocatedHit, { maxItems: 500 }),
      /** Hits no eligible unit could take (an AT hit on a formation of infantry). */
      unallocated: Type.Array(Type.Integer({ minimum: 0 }), { maxItems: 500 }),
    },
    { additionalProperties: false },
  ),
);
export type HitsAllocated = DataOf<typeof HitsAllocated>;
