import type { DomainEvent, SignedCommand } from "../../events/index.js";
import { HOST } from "../../events/common.js";
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

/** D2: a party puts a public key in force; a key it replaces is named, and every seat is warned of it. */
export function decideRegisterSeatKey(state: CampaignState, command: CommandOf<"RegisterSeatKey">): DomainEvent[] {
  const setup = requireSetup(state);
  const seats = [HOST, ...setup.players.map((p) => p.id)];
  if (!seats.includes(command.actor))
    refuseField("actor", `"${command.actor}" is not a seat of this campaign (${seats.join(", ")})`);
  const inForce = state.seatKeys?.[command.actor]?.publicKey ?? null;
  if (inForce === command.publicKey)
    refuseRule("D2", `that key is already ${command.actor}'s key in force`, "publicKey");
  return [
    { type: "SeatKeyRegistered", data: { party: command.actor, publicKey: command.publicKey, replaces: inForce } },
  ];
}

/** The key a command's signature must verify against: the one it registers, or its party's key in force. */
export function signingKey(state: CampaignState, command: Command): string | undefined {
  return command.type === "RegisterSeatKey" ? command.publicKey : state.seatKeys?.[command.actor]?.publicKey;
}

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
  const key = signingKey(state, command);
  const refuse = (message: string): { ok: false; refusal: Refusal } => ({
    ok: false,
    refusal: { kind: "rule", rule: "D2", message, field: "signature" },
  });
  if (key === undefined) {
    if (signature === undefined) return { ok: true, signed: undefined };
    return refuse(`${command.actor} has no key in force to sign with: RegisterSeatKey first, signed by the new key`);
  }
  if (signature === undefined)
    return refuse(
      command.type === "RegisterSeatKey"
        ? "a key is registered by a command signed with it"
        : `${command.actor} has a key in force (registered at seq ${state.seatKeys![command.actor]!.seq}): its commands must be signed by it`,
    );
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
        : `the signature is not by ${command.actor}'s key in force over this command, campaign, line and seq`,
    );
  return { ok: true, signed: { signed, signature: signature.value } };
}
