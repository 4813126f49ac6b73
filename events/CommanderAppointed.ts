import { Type } from "@sinclair/typebox";
import { Commander, Id } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A6: Commander level 1 to 5; level n leads armies of up to 2,000 x n points, level 5 any army. */
export const CommanderLevel = Type.Integer({ minimum: 1, maximum: 5 });

/**
 * A6: an army has a commander of this level: at registration or raising, or in the End phase after its commander was
 * killed. `formerArmy` names the army a spare commander led before (its place in the player's spare commanders ends).
 */
export const CommanderAppointed = defineEvent(
  "CommanderAppointed",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 0 }),
      army: Id,
      player: Id,
      commander: Commander,
      level: CommanderLevel,
      formerArmy: Type.Optional(Id),
    },
    { additionalProperties: false },
  ),
);
export type CommanderAppointed = DataOf<typeof CommanderAppointed>;
