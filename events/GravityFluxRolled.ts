import { Type } from "@sinclair/typebox";
import { defineEvent, type DataOf } from "./define.js";
import { kitRollFields, GravityLevel } from "./kit-common.js";

/** K3, D1: the host rolled gravity at a battle turn's End phase under Gravity Flux: the level for the next battle turn. */
export const GravityFluxRolled = defineEvent(
  "GravityFluxRolled",
  1,
  Type.Object(
    {
      ...kitRollFields,
      /** The battle turn whose End phase it was. */
      battleTurn: Type.Integer({ minimum: 1, maximum: 99 }),
      level: GravityLevel,
      /** Whether the level changed: every formation on the table then takes a Blast marker. */
      changed: Type.Boolean(),
    },
    { additionalProperties: false },
  ),
);
export type GravityFluxRolled = DataOf<typeof GravityFluxRolled>;
