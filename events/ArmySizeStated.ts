import { Type } from "@sinclair/typebox";
import { Id } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A3: the scouted player told the scout its army's size, within the band the roll allows around the true size. */
export const ArmySizeStated = defineEvent(
  "ArmySizeStated",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      scouting: Id,
      army: Id,
      player: Id,
      /** The size as stated: what the scout is told. */
      points: Type.Integer({ minimum: 0, maximum: 10000000 }),
    },
    { additionalProperties: false },
  ),
);
export type ArmySizeStated = DataOf<typeof ArmySizeStated>;
