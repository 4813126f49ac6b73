import { Type } from "@sinclair/typebox";
import { Id, Nonce, scoutingRevealVersions, Sha256 } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

const fields = {
  turn: Type.Integer({ minimum: 1 }),
  scouting: Id,
  army: Id,
  player: Id,
  firstFire: Type.Optional(Type.Object({ commitment: Sha256, salt: Nonce }, { additionalProperties: false })),
  /** +2 when it revealed First Fire. */
  bonus: Type.Union([Type.Literal(0), Type.Literal(2)]),
};

/**
 * A3: the scouted player answered a scouting: either it revealed a First Fire order for the +2 (its commitment and
 * salt; for an army not yet activated, the commitment its activation must then carry, and with which it logs the
 * reveal), or it took no bonus. Version 2 added `separateReveal`, set only on version 1 events (common.ts,
 * `scoutingRevealVersions`).
 */
export const ScoutingAnswered = defineEvent(
  "ScoutingAnswered",
  2,
  Type.Object({ ...fields, ...scoutingRevealVersions.field }, { additionalProperties: false }),
  { 1: scoutingRevealVersions.upcaster },
  { 1: Type.Object(fields, { additionalProperties: false }) },
);
export type ScoutingAnswered = DataOf<typeof ScoutingAnswered>;
