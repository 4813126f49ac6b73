import { Type } from "@sinclair/typebox";
import { Id } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";
import { kitRollFields } from "./kit-common.js";

/**
 * K5, D1: the host rolled a volley's saving throws, one d6 per allocated hit in allocation order (a TK hit rolls its
 * damage instead, a d3); a unit is destroyed by a roll below its save.
 */
export const SavesRolled = defineEvent(
  "SavesRolled",
  1,
  Type.Object(
    {
      ...kitRollFields,
      volley: Id,
      /** Per allocated hit: the roll, and whether the unit saved it (TK: the damage rolled). */
      saves: Type.Array(
        Type.Object(
          {
            hit: Type.Integer({ minimum: 0 }),
            unit: Id,
            roll: Type.Integer({ minimum: 1, maximum: 6 }),
            saved: Type.Boolean(),
            damage: Type.Optional(Type.Integer({ minimum: 1, maximum: 6 })),
          },
          { additionalProperties: false },
        ),
        { maxItems: 500 },
      ),
      destroyed: Type.Array(Id, { maxItems: 200 }),
    },
    { additionalProperties: false },
  ),
);
export type SavesRolled = DataOf<typeof SavesRolled>;
