import type { DomainEvent, SignedCommand } from "../../events/index.js";
import { HOST, ORGANISER } from "../../events/common.js";
import type { CampaignState } from "../../projections/state.js";
import type { Command, CommandOf } from "../engine/command-schemas.js";
import { signedText } from "../crypto/signatures.js";
import { requireSetup } from "./guards.js";
import { refuseField, refuseRule, type Refusal } from "./refusal.js";

/**
 * D2 (docs/rulings.md, docs/signatures.md): each party's commands are signed by its key in force, so that no one
 * else (the organiser, the server's operator) can give one in its name unseen.
 */

/** Checks an Ed25519 signature (hex) by a public key (hex) over a text's UTF-8 bytes; injected: node:crypto's. */
export type SignatureCheck = (publicKey: string, text: string, signature: string) => boolean;

/** D2: the host's commands that are the organiser's own (O1, O2, the T5 close): signed by the organiser's key. */
export const ORGANISER_COMMANDS: ReadonlySet<string> = new Set([
  "PauseCampaign",
  "ResumeCampaign",
  "SetActionDeadline",
  "CloseActionPhase",
]);

/**
 * D2: whose key signs a command: the organiser's for the organiser's commands and its own key's registration, the
 * host's for the dice keeper's steps (seeds, rolls, turns) and every other command of the host, else its actor's.
 */
export function keyPartyOf(command: { actor: string; type: string; role?: string }): string {
  if (command.actor !== HOST) return command.actor;
  const organiser =
    command.type === "RegisterSeatKey" ? command.role === ORGANISER : ORGANISER_COMMANDS.has(command.type);
  return organiser ? ORGANISER : HOST;
}

/** D2: a party puts a public key in force; a key it replaces is named, and every seat is warned of it. */
export function decideRegisterSeatKey(state: CampaignState, command: CommandOf<"RegisterSeatKey">): DomainEvent[] {
  const setup = requireSetup(state);
  const seats = [HOST, ...setup.players.map((p) => p.id)];
  if (!seats.includes(command.actor))
    refuseField("actor", `"${command.actor}" is not a seat of this campaign (${seats.join(", ")})`);
  if (command.role !== undefined && command.actor !== HOST)
    refuseField("role", `only the host registers the organiser's key, not "${command.actor}" (leave out role)`);
  const party = keyPartyOf(command);
  const inForce = state.seatKeys?.[party]?.publicKey ?? null;
  if (inForce === command.publicKey) refuseRule("D2", `that key is already ${party}'s key in force`, "publicKey");
  // The two keys of the host's seat tell the organiser's acts from the dice keeper's steps: one key cannot be both.
  const other = party === ORGANISER ? HOST : party === HOST ? ORGANISER : undefined;
  if (other !== undefined && state.seatKeys?.[other]?.publicKey === command.publicKey)
    refuseRule(
      "D2",
      `that key is ${other}'s key in force: the organiser and the host sign with keys of their own`,
      "publicKey",
    );
  return [{ type: "SeatKeyRegistered", data: { party, publicKey: command.publicKey, replaces: inForce } }];
}

/** The key a command must be signed by, whose it is, and whether it may come unsigned. */
export interface RequiredKey {
  /** The party whose key it is: `organiser`, `host`, or a player. */
  signer: string;
  /** The key: the one a RegisterSeatKey registers, else the signer's key in force; undefined when it has none. */
  key: string | undefined;
  /** Whether an unsigned command is taken: its signer has no key in force, or it is the organiser's before its own. */
  unsignedTaken: boolean;
}

/**
 * D2: the key a command's signature must verify against. An organiser's command given before the organiser has a key
 * of its own is checked as it was before the organiser had one: signed by the host's key in force (a server signed it
 * with the key it holds with the host's seeds), or unsigned; from the organiser's first key on, by that key alone.
 */
export function requiredKey(keyInForce: (party: string) => string | undefined, command: Command): RequiredKey {
  const party = keyPartyOf(command);
  if (command.type === "RegisterSeatKey") return { signer: party, key: command.publicKey, unsignedTaken: false };
  const key = keyInForce(party);
  if (key === undefined && party === ORGANISER) return { signer: HOST, key: keyInForce(HOST), unsignedTaken: true };
  return { signer: party, key, unsignedTaken: key === undefined };
}

/** The command that registers a party's key, as a hint names it: the organiser's carries its role. */
export const registration = (party: string): string =>
  party === ORGANISER
    ? `{"actor":"${HOST}","type":"RegisterSeatKey","role":"${ORGANISER}"}`
    : `{"actor":"${party}","type":"RegisterSeatKey"}`;

/**
 * D2: a command's signature checked against the key it must verify with, bound to this campaign, this line and the
 * seq its batch was decided on (`seq`). Gives the signed command its first event keeps (envelope member `command`), undefined for a command
 * of a party with no key (unsigned, as every command was before keys), or a refusal.
 */
export function checkSignature(
  state: CampaignState,
  command: Command,
  point: { line: string; seq: number },
  verify: SignatureCheck,
): { ok: true; signed: SignedCommand | undefined } | { ok: false; refusal: Refusal } {
  const { signature, ...submitted } = command;
  // Before CreateCampaign there is no campaign to bind to, nor a key: the decider refuses what needs one.
  if (state.campaign === null) return { ok: true, signed: undefined };
  const party = keyPartyOf(command);
  const { signer, key, unsignedTaken } = requiredKey((p) => state.seatKeys?.[p]?.publicKey, command);
  const refuse = (message: string): { ok: false; refusal: Refusal } => ({
    ok: false,
    refusal: { kind: "rule", rule: "D2", message, field: "signature" },
  });
  if (signature === undefined) {
    if (unsignedTaken) return { ok: true, signed: undefined };
    return refuse(
      command.type === "RegisterSeatKey"
        ? "a key is registered by a command signed with it"
        : `${party} has a key in force (registered at seq ${state.seatKeys![party]!.seq}): its commands must be signed by it`,
    );
  }
  if (key === undefined)
    return refuse(`${party} has no key in force to sign with: ${registration(party)} first, signed by the new key`);
  // Signed at another point than the line is at: the line moved on while it was sent (a conflict, as a stale seq is).
  if (signature.seq !== point.seq)
    return {
      ok: false,
      refusal: {
        kind: "conflict",
        message: `the command was signed at seq ${signature.seq} and the line is at seq ${point.seq}: nothing was written; sign it again at the line's seq (D2)`,
      },
    };
  const signed = signedText(
    { campaign: state.campaign, line: point.line, seq: signature.seq, view: signature.view },
    submitted,
  );
  if (!verify(key, signed, signature.value))
    return refuse(
      command.type === "RegisterSeatKey"
        ? "the signature is not the registered key's over this command"
        : `the signature is not by ${signer}'s key in force over this command, campaign, line and seq${signerNote(party, signer)}`,
    );
  return { ok: true, signed: { signed, signature: signature.value } };
}

/** Says which key signs what, where the host's seat has two: the organiser's acts and the dice keeper's steps. */
function signerNote(party: string, signer: string): string {
  if (party === ORGANISER && signer === ORGANISER)
    return ` (the organiser's commands, ${[...ORGANISER_COMMANDS].join(", ")}, are signed by the organiser's own key, not the host's)`;
  if (party === HOST)
    return " (the host's steps are signed by the host's key, which the dice keeper holds with its seeds)";
  return "";
}
