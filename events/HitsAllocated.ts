import { Type } from "@sinclair/typebox";
import { Id } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";
import { TargetUnit, HitKind, AllocatedHit } from "./kit-common.js";

const volley = {
  turn: Type.Integer({ minimum: 1 }),
  battle: Id,
  player: Id,
  volley: Id,
  units: Type.Array(TargetUnit, { minItems: 1, maxItems: 200 }),
  /** The hits in the order they were scored. */
  hits: Type.Array(HitKind, { minItems: 1, maxItems: 500 }),
  /** Hits no eligible unit can take (an AT hit on a formation of infantry), whatever the dice. */
  unallocated: Type.Array(Type.Integer({ minimum: 0 }), { maxItems: 500 }),
};
const allocation = Type.Array(AllocatedHit, { maxItems: 500 });

/**
 * K5: the owner of a formation under fire gave the assistant a volley: its units as measured at the table and the
 * hits in the order scored. The hits are allocated in seed 003's order as the host rolls them (SavesRolled): a TK
 * hit's damage, rolled as soon as the hit is allocated, counts as that many hits on the war engine for the hits after
 * it, so the allocation is known only with the dice.
 *
 * Version 1 allocated every hit before any die was rolled, a TK hit counting as one, and recorded that `allocation`:
 * a version 1 volley keeps it, and its saves are rolled (and audited) on it, as it was played.
 */
export const HitsAllocated = defineEvent(
  "HitsAllocated",
  2,
  Type.Object(
    {
      ...volley,
      /** Version 1 only: every hit allocated before the dice. */
      allocation: Type.Optional(allocation),
    },
    { additionalProperties: false },
  ),
  // Version 2 no longer writes `allocation`; a version 1 volley keeps it, to be rolled as it was played.
  { 1: (data) => data },
  { 1: Type.Object({ ...volley, allocation }, { additionalProperties: false }) },
);
export type HitsAllocated = DataOf<typeof HitsAllocated>;
