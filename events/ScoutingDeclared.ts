import { Type } from "@sinclair/typebox";
import { Id, Nonce, scoutingRevealVersions, Sha256 } from "./common.js";
import { defineEvent, type DataOf } from "./define.js";

const fields = {
  turn: Type.Integer({ minimum: 1 }),
  /** This scouting's id, "t<turn>s<n>". */
  scouting: Id,
  army: Id,
  player: Id,
  /** The enemy army scouted. */
  target: Id,
  commitment: Sha256,
  order: Type.Literal("advance"),
  salt: Nonce,
  /** +2 when the army has units with the scout ability. */
  bonus: Type.Union([Type.Literal(0), Type.Literal(2)]),
};

/**
 * A3: an army on Advance revealed its order before moving and scouts an enemy army it could reach and engage this move.
 * The commitment is the one its activation must carry; order and salt hash to it, and its activation logs the reveal.
 * Version 2 added `separateReveal`, set only on version 1 events (common.ts, `scoutingRevealVersions`).
 */
export const ScoutingDeclared = defineEvent(
  "ScoutingDeclared",
  2,
  Type.Object({ ...fields, ...scoutingRevealVersions.field }, { additionalProperties: false }),
  { 1: scoutingRevealVersions.upcaster },
  { 1: Type.Object(fields, { additionalProperties: false }) },
);
export type ScoutingDeclared = DataOf<typeof ScoutingDeclared>;
