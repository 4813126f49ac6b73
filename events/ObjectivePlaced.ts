import { Type } from "@sinclair/typebox";
import { Id, Square } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A player placed a campaign objective marker in the opponent's half (S6). */
export const ObjectivePlaced = defineEvent(
  "ObjectivePlaced",
  1,
  Type.Object({ objective: Id, placedBy: Id, at: Square }, { additionalProperties: false }),
);
export type ObjectivePlaced = DataOf<typeof ObjectivePlaced>;
