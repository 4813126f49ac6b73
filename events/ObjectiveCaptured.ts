import { Type } from "@sinclair/typebox";
import { Id } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** An army captured an objective or a home base for its side (E1, B6). */
export const ObjectiveCaptured = defineEvent(
  "ObjectiveCaptured",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      /** An objective id, or for a home base the id of the player whose base it is. */
      objective: Id,
      kind: Type.Union([Type.Literal("objective"), Type.Literal("homeBase")]),
      by: Id,
      army: Id,
      how: Type.Union([Type.Literal("moved"), Type.Literal("battle")]),
    },
    { additionalProperties: false },
  ),
);
export type ObjectiveCaptured = DataOf<typeof ObjectiveCaptured>;
