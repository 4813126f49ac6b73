import { Type } from "@sinclair/typebox";
import { Id, Sha256 } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

/**
 * A player committed to its dice seed for a turn before the host drew its own (D1): only the seed's SHA-256 is shown,
 * and the seed it gives once the host has committed must hash to it.
 */
export const PlayerSeedCommitted = defineEvent(
  "PlayerSeedCommitted",
  1,
  Type.Object({ turn: Type.Integer({ minimum: 1 }), player: Id, seedHash: Sha256 }, { additionalProperties: false }),
);
export type PlayerSeedCommitted = DataOf<typeof PlayerSeedCommitted>;
