import { seatsOf } from "./seats.js";
import { HOST, ORGANISER } from "../../events/common.js";
import { keyPartyOf } from "../rules/seat-keys.js";
import type { CampaignView } from "../views/view.js";
import { newSeatKey, seatKeyFromSeed, signedText, signText, type HeldKey, type SeatKey } from "../crypto/signatures.js";
import { digestHex } from "../crypto/commitments.js";
import type { SecretKeeper } from "./party-secrets.js";
import { nothingToKeep } from "./held-orders.js";
import type { Prepared } from "./prepare.js";
import type { Refusal } from "../rules/refusal.js";
import { foreignKeyWarning } from "../words/seat-keys.js";

/*
 * D2, a party's side (docs/signatures.md): its key is made here and kept in its secrets before its registration is
 * submitted, and every command it gives is signed by it over the campaign, the line and the seq it was decided at.
 */

/** A key registration is due for each party this machine acts for that has no key in force, once play has begun. */
export function keyChores(state: CampaignView, parties: ReadonlySet<string>): Array<Record<string, unknown>> {
  if (state.status !== "active" || state.paused) return [];
  return seatsOf(state)
    .filter((party) => parties.has(party) && state.seatKeys?.[party] === undefined)
    .map((party) => ({ actor: party, type: "RegisterSeatKey" }));
}

type Input = Record<string, unknown>;

/**
 * Fixed seat keys drawn from a label, one per party, as sequenceRandomHex draws seeds and salts: for demos and tests
 * whose every run must write the same log. A sequence of their own, so that the seeds and salts stay as they were.
 */
export const sequenceSeatKeys =
  (label: string) =>
  (party: string): Promise<SeatKey> =>
    seatKeyFromSeed(digestHex(`${label}-key-${party}`));

/**
 * A RegisterSeatKey as a party writes it (no publicKey): the key this party already made and has not got into force
 * (a registration that never landed), or a new one, kept before the command is submitted. Undefined for any other
 * command.
 */
export async function prepareSeatKey(
  state: CampaignView,
  raw: unknown,
  secrets: SecretKeeper,
  newKey: (party: string) => Promise<HeldKey> = () => newSeatKey(),
): Promise<Prepared | undefined> {
  const input = raw as Input | null;
  if (typeof input !== "object" || input === null || input["type"] !== "RegisterSeatKey") return undefined;
  const actor = input["actor"];
  if (typeof actor !== "string" || !seatsOf(state).includes(actor) || input["publicKey"] !== undefined)
    return undefined;
  const party = keyPartyOf({ actor, type: "RegisterSeatKey", role: input["role"] as string | undefined });
  const held = await secrets.seatKey(party);
  const fresh = !held || held.publicKey === state.seatKeys?.[party]?.publicKey;
  const key = fresh ? await newKey(party) : held;
  return {
    command: { ...input, publicKey: key.publicKey },
    keep: fresh ? () => secrets.keepSeatKey(party, key) : nothingToKeep,
  };
}

/**
 * The registration of the organiser's own key, due before the organiser's first command (O1, O2, the T5 close) where
 * it has none in force: the organiser's key is made on its own machine when it first acts. Undefined otherwise.
 */
export function organiserKeyDue(state: CampaignView, command: unknown): Input | undefined {
  const input = command as Input | null;
  if (state.campaign === null || typeof input !== "object" || input === null) return undefined;
  const { actor, type } = input;
  if (typeof actor !== "string" || typeof type !== "string" || type === "RegisterSeatKey") return undefined;
  if (keyPartyOf({ actor, type }) !== ORGANISER || state.seatKeys?.[ORGANISER] !== undefined) return undefined;
  return { actor: HOST, type: "RegisterSeatKey", role: ORGANISER };
}

/**
 * The commands a party's command is sent as, each signed by the key it must be: the command alone, or, where `key` is
 * the registration of the organiser's own key that is due before it, the registration and then the command, signed
 * by the key it registers, in one batch: a command refused registers nothing either.
 */
export async function signedBatch(
  state: CampaignView,
  line: string,
  command: unknown,
  secrets: SecretKeeper,
  key?: Input,
): Promise<unknown[]> {
  if (!key || state.seatKeys?.[ORGANISER] !== undefined) return [await signCommand(state, line, command, secrets)];
  const inForce = { publicKey: key["publicKey"] as string, seq: state.seq + 1, replacements: [] };
  const registered = { ...state, seatKeys: { ...state.seatKeys, [ORGANISER]: inForce } };
  return [await signCommand(state, line, key, secrets), await signCommand(registered, line, command, secrets)];
}

/** The party whose key signs a command as a party writes it: undefined for what is not a seat's command. */
function signerOf(state: CampaignView, input: Input): string | undefined {
  const { actor, type, role } = input;
  if (typeof actor !== "string" || typeof type !== "string" || !seatsOf(state).includes(actor)) return undefined;
  return keyPartyOf({ actor, type, role: role as string | undefined });
}

/**
 * The command signed by its party's key, when this machine holds the key it must verify with (the one it registers,
 * or the party's key in force); as it is otherwise, for the engine to take (a party with no key) or refuse (D2).
 */
export async function signCommand(
  state: CampaignView,
  line: string,
  command: unknown,
  secrets: SecretKeeper,
): Promise<unknown> {
  const input = command as Input | null;
  if (state.campaign === null || typeof input !== "object" || input === null) return command;
  const party = signerOf(state, input);
  if (party === undefined) return command;
  const { actor, signature: _replaced, ...submitted } = input;
  const needed = input["type"] === "RegisterSeatKey" ? input["publicKey"] : state.seatKeys?.[party]?.publicKey;
  const held = await secrets.seatKey(party);
  if (!held || needed === undefined || held.publicKey !== needed) return command;
  const point = { campaign: state.campaign, line, seq: state.seq, view: null };
  const value = await signText(held, signedText(point, { actor, ...submitted }));
  return { ...input, signature: { seq: point.seq, view: point.view, value } };
}

/**
 * D2: the warning a party's own machine gives, as a refusal, instead of submitting a command the engine would refuse:
 * the key in force for the party is not the one this machine holds (someone else registered it). Undefined when it
 * holds the key, when the party has none in force, and for the party's own RegisterSeatKey.
 */
export async function foreignKey(
  state: CampaignView,
  command: unknown,
  secrets: SecretKeeper,
): Promise<Refusal | undefined> {
  const input = command as Input | null;
  if (typeof input !== "object" || input === null || input["type"] === "RegisterSeatKey") return undefined;
  const party = signerOf(state, input);
  const inForce = party === undefined ? undefined : state.seatKeys?.[party];
  if (!inForce || (await secrets.seatKey(party!))?.publicKey === inForce.publicKey) return undefined;
  return { kind: "rule", rule: "D2", message: foreignKeyWarning(party!, inForce.seq) };
}
