import { Type } from "@sinclair/typebox";
import { Id, Nonce } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/** A player gave its dice seed for the turn, after the host's commitment (D1). */
export const PlayerSeedGiven = defineEvent(
  "PlayerSeedGiven",
  1,
  Type.Object({ turn: Type.Integer({ minimum: 1 }), player: Id, seed: Nonce }, { additionalProperties: false }),
);
export type PlayerSeedGiven = DataOf<typeof PlayerSeedGiven>;
