import { Type, type Static } from "@sinclair/typebox";
import { Actor, Id } from "./common.js";

const Hash = Type.String({ pattern: "^[0-9a-f]{64}$" });

/** What a writer supplies for each event: the log adds stream, seq and the hash chain. */
export const NewEventSchema = Type.Object(
  {
    type: Type.String({ pattern: "^[A-Z][A-Za-z]+$" }),
    version: Type.Integer({ minimum: 1 }),
    /** Recorded time, injected by the command handler, never read by rules or reducers. */
    at: Type.String({ format: "date-time" }),
    actor: Actor,
    data: Type.Unknown(),
  },
  { additionalProperties: false },
);
export type NewEvent = Static<typeof NewEventSchema>;

/** An event as the log stores it: the envelope hashed into the chain. */
export const StoredEventSchema = Type.Object(
  {
    stream: Id,
    seq: Type.Integer({ minimum: 1 }),
    ...NewEventSchema.properties,
    prev: Hash,
    hash: Hash,
  },
  { additionalProperties: false },
);
export type StoredEvent = Static<typeof StoredEventSchema>;

/** The link the first event of every stream chains from. */
export const GENESIS_HASH = "0".repeat(64);
