import { Type } from "@sinclair/typebox";
import { Id } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** K2: the defender accepts the attacker's proposal (the scenario is settled) or declines it (the host rolls one). */
export const ScenarioAnswered = defineEvent(
  "ScenarioAnswered",
  1,
  Type.Object(
    {
      turn: Type.Integer({ minimum: 1 }),
      battle: Id,
      player: Id,
      accepted: Type.Boolean(),
    },
    { additionalProperties: false },
  ),
);
export type ScenarioAnswered = DataOf<typeof ScenarioAnswered>;
