import { Type, type Static } from "@sinclair/typebox";
import { Actor, Id } from "./common.js";

const Hash = Type.String({ pattern: "^[0-9a-f]{64}$" });

/**
 * D2: on the first event of a signed command, the command as its party signed it, so that anyone can check from the
 * log alone that the party gave it: `signed` is the exact text signed (src/crypto/signatures.ts: the campaign, line,
 * seq, view and the command as submitted), `signature` the Ed25519 signature over its UTF-8 bytes by the party's key
 * in force, as hex. Named so that it sorts before `prev`: the canonical envelope still ends with prev, seq, stream,
 * type and version, which the chain's quick check reads (src/log/chain-batch.ts).
 */
export const SignedCommandSchema = Type.Object(
  {
    signed: Type.String({ minLength: 2, maxLength: 1_000_000 }),
    signature: Type.String({ pattern: "^[0-9a-f]{128}$" }),
  },
  { additionalProperties: false },
);
export type SignedCommand = Static<typeof SignedCommandSchema>;

/** What a writer supplies for each event: the log adds stream, seq and the hash chain. */
export const NewEventSchema = Type.Object(
  {
    type: Type.String({ pattern: "^[A-Z][A-Za-z]+$" }),
    version: Type.Integer({ minimum: 1 }),
    /** Recorded time, injected by the command handler, never read by rules or reducers. */
    at: Type.String({ format: "date-time" }),
    actor: Actor,
    data: Type.Unknown(),
    command: Type.Optional(SignedCommandSchema),
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

/** Every member a stored envelope may have, hash aside (docs/storage.md): no reader takes any other. */
export const ENVELOPE_MEMBERS: ReadonlySet<string> = new Set([
  "stream",
  "seq",
  "type",
  "version",
  "at",
  "actor",
  "command",
  "data",
  "prev",
]);

/** The link the first event of every stream chains from. */
export const GENESIS_HASH = "0".repeat(64);
