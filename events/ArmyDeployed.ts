import { Type } from "@sinclair/typebox";
import { Id, Square } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** Before turn 1 an army took its starting square (S7). A later deployment of the same army replaces it. */
export const ArmyDeployed = defineEvent(
  "ArmyDeployed",
  1,
  Type.Object({ army: Id, at: Square }, { additionalProperties: false }),
);
export type ArmyDeployed = DataOf<typeof ArmyDeployed>;
