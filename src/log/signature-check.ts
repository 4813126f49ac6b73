import { HOST, ORGANISER } from "../../events/common.js";
import type { SignedCommand } from "../../events/index.js";
import type { Command } from "../engine/command-schemas.js";
import { requiredKey } from "../rules/seat-keys.js";
import { COMMAND_DOMAIN } from "../crypto/signatures.js";
import { verifySignature } from "../crypto/verify-node.js";
import type { EventStore, ReadPoint } from "./event-store.js";
import { HASH_LENGTH, type Segment } from "./layout.js";

/** What `verify --signatures` counted on a line whose every signature holds (docs/signatures.md). */
export interface SignatureCounts {
  /** Events that carry a signed command, each verified against the key it must verify with. */
  signed: number;
  /**
   * Events without a signature of a party with no key in force at them, by party: every event of a log from before
   * keys, and the set-up before the first key.
   */
  unsigned: Record<string, number>;
  /**
   * Events without a signature of their own of a party with a key in force: those a signed command wrote after its
   * first event. Whether each follows from its command is the audit's check (it decides the command again).
   */
  unsignedWithKey: number;
}

/**
 * The first event whose signature does not hold (or, on a line the quick check passed, whose body is not JSON): its
 * seq in the line, the stream that stores it, and why.
 */
export interface SignatureFailure {
  seq: number;
  inStream: string;
  problem: "signature" | "unreadable";
  message: string;
}

/** The members of a stored body this check reads. */
interface Envelope {
  actor: string;
  type: string;
  data: unknown;
  command?: SignedCommand;
}

/** What a signed command's text holds (src/crypto/signatures.ts, signedText). */
interface SignedText {
  domain?: unknown;
  campaign?: unknown;
  line?: unknown;
  command?: { actor?: unknown; type?: unknown; publicKey?: unknown; role?: unknown };
}

/**
 * D2 on a line whose chain holds: every signed command is for this campaign and the line that stores it, is its
 * event's actor's, and verifies against the key it must (the one a RegisterSeatKey registers, else the party's key in
 * force at that event, tracked from SeatKeyRegistered); and every SeatKeyRegistered is its party's own and replaces
 * exactly the key in force. One walk in seq order on this thread (the keys in force depend on every event before),
 * reading ahead while it checks; a signature costs node:crypto's verification with one KeyObject per key
 * (src/crypto/verify-node.ts, as the engine and the audit check). What this leaves to `epicwar audit`: that every
 * event of a keyed party follows from a signed command, that it was signed at its batch's seq, and recorded times.
 */
export async function checkSignatures(
  store: EventStore,
  segments: readonly Segment[],
  headSeq: number,
  readPoint: ReadPoint,
): Promise<{ ok: true; counts: SignatureCounts } | { ok: false; failure: SignatureFailure }> {
  const keys = new Map<string, string>();
  const counts: SignatureCounts = { signed: 0, unsigned: {}, unsignedWithKey: 0 };
  let campaign: unknown;
  for (const segment of segments) {
    const to = Math.min(segment.to, headSeq);
    if (segment.from > to) continue;
    for await (const batch of store.rawBatches(segment.stream, segment.from, to, readPoint)) {
      for (const [seq, value] of batch) {
        const fail = (message: string, problem: SignatureFailure["problem"] = "signature") => ({
          ok: false as const,
          failure: { seq, inStream: segment.stream, problem, message: `event ${seq}: ${message}` },
        });
        let event: Envelope;
        try {
          event = JSON.parse(value.slice(HASH_LENGTH)) as Envelope;
        } catch {
          return fail("it is not readable JSON", "unreadable");
        }
        if (seq === 1 && event.type === "CampaignCreated") campaign = (event.data as { campaign?: unknown }).campaign;
        if (event.command) {
          const problem = signedProblem(event, event.command, campaign, segment.stream, keys);
          if (problem) return fail(problem);
          counts.signed++;
        } else if (keys.has(event.actor)) counts.unsignedWithKey++;
        else counts.unsigned[event.actor] = (counts.unsigned[event.actor] ?? 0) + 1;
        if (event.type === "SeatKeyRegistered") {
          const { party, publicKey, replaces } = event.data as { party: string; publicKey: string; replaces: unknown };
          // The host's seat registers the organiser's key as well as its own (D2).
          const own = party === event.actor || (event.actor === HOST && party === ORGANISER);
          if (!own || replaces !== (keys.get(party) ?? null))
            return fail(
              `a key of ${party} registered by ${event.actor}, or replacing another key than the one in force`,
            );
          keys.set(party, publicKey);
        }
      }
    }
  }
  return { ok: true, counts };
}

/** Why a signed command does not hold, or undefined when it does. */
function signedProblem(
  event: Envelope,
  { signed, signature }: SignedCommand,
  campaign: unknown,
  line: string,
  keys: ReadonlyMap<string, string>,
): string | undefined {
  let text: SignedText;
  try {
    text = JSON.parse(signed) as SignedText;
  } catch {
    return "its signed command is not JSON";
  }
  if (text.domain !== COMMAND_DOMAIN || text.campaign !== campaign || text.line !== line)
    return `its command is signed for another campaign or line (${String(text.campaign)}, ${String(text.line)})`;
  const command = text.command;
  if (typeof command !== "object" || command === null || command.actor !== event.actor)
    return `its signed command is not ${event.actor}'s`;
  // Whose key signs it: the organiser's for its own commands (before it has one, the host's), else its actor's.
  const { signer, key } = requiredKey((party) => keys.get(party), command as Command);
  if (typeof key !== "string") return `${signer} had no key in force to sign with`;
  if (!verifySignature(key, signed, signature))
    return `the signature is not by ${signer}'s key in force (${key.slice(0, 12)}) over its signed command`;
  return undefined;
}
