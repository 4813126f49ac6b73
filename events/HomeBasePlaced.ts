import { Type } from "@sinclair/typebox";
import { Id, Square } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A player placed its home base on its base line or one row in (S6). */
export const HomeBasePlaced = defineEvent(
  "HomeBasePlaced",
  1,
  Type.Object({ player: Id, at: Square }, { additionalProperties: false }),
);
export type HomeBasePlaced = DataOf<typeof HomeBasePlaced>;
