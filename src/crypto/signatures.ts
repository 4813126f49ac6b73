/*
 * Seat keys and signed commands (docs/signatures.md): Ed25519 through Web Crypto, the same code in Node and in a
 * browser page, so that a party's key is made and used on its own device. Nothing here imports a Node module.
 */
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { canonicalJson } from "./commitments.js";

/** A party's key pair as its secrets keep it: the 32-byte public key and the 32-byte private seed, as hex. */
export interface SeatKey {
  publicKey: string;
  privateKey: string;
}

/**
 * A key pair whose private half is a CryptoKey made non-extractable (the web page's, docs/web.md): the platform signs
 * with it, and no script, the page's own included, can read it. Kept by structured clone (IndexedDB), never as text.
 */
export interface DeviceKey {
  publicKey: string;
  privateKey: CryptoKey;
}

/** A key a party signs with: as its secrets file keeps it, or held by the platform alone. */
export type HeldKey = SeatKey | DeviceKey;

/** What a signature binds a command to: the campaign, the line (stream) and the point it was decided on. */
export interface SignedPoint {
  campaign: string;
  /** The stream the command is appended to: the campaign's own, or a branch's. */
  line: string;
  /** The seq of the line the command was decided on (the batch's expectedSeq). */
  seq: number;
  /** The head of the signer's view chain at that seq, when it keeps one; null when it does not. */
  view: string | null;
}

/** Domain separation: these bytes are a command's and nothing else's. */
export const COMMAND_DOMAIN = "epicwar-command/1";

/** The exact text a command's signature is over: RFC 8785 canonical JSON of the point and the command as submitted. */
export function signedText(point: SignedPoint, command: unknown): string {
  return canonicalJson({ domain: COMMAND_DOMAIN, ...point, command });
}

const ED25519 = { name: "Ed25519" } as const;

/**
 * Whether this platform can make keys and sign: Node, and a browser page in a secure context (HTTPS or localhost). A
 * page served over plain HTTP from another machine has no Web Crypto at all.
 */
export const canSign = (): boolean => globalThis.crypto?.subtle !== undefined;

function subtle(): SubtleCrypto {
  const found = globalThis.crypto?.subtle;
  if (!found) throw new Error("this platform has no Web Crypto (a browser page needs HTTPS or localhost to sign)");
  return found;
}

const base64url = (hex: string): string => {
  let binary = "";
  for (const byte of hexToBytes(hex)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};
const fromBase64url = (text: string): string =>
  bytesToHex(Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)));

/** A fresh key pair from the platform's generator. */
export async function newSeatKey(): Promise<SeatKey> {
  const pair = (await subtle().generateKey(ED25519, true, ["sign", "verify"])) as CryptoKeyPair;
  return keyOf(pair.privateKey);
}

/** A fresh key pair whose private key cannot leave the platform (not extractable), from the platform's generator. */
export async function newDeviceKey(): Promise<DeviceKey> {
  const pair = (await subtle().generateKey(ED25519, false, ["sign", "verify"])) as CryptoKeyPair;
  const publicKey = bytesToHex(new Uint8Array(await subtle().exportKey("raw", pair.publicKey)));
  return { publicKey, privateKey: pair.privateKey };
}

/** A key pair kept as its seed, imported as a non-extractable key: the seed can then be forgotten. */
export async function deviceKeyOf(key: SeatKey): Promise<DeviceKey> {
  return { publicKey: key.publicKey, privateKey: await importSigningKey(key) };
}

/** The DER of a PKCS #8 Ed25519 private key up to its 32-byte seed (RFC 8410). */
const PKCS8_PREFIX = "302e020100300506032b657004220420";

/** The key pair of a 32-byte private seed (hex): for a demo whose every run must sign alike, never for real play. */
export async function seatKeyFromSeed(seed: string): Promise<SeatKey> {
  const key = await subtle().importKey("pkcs8", hexToBytes(PKCS8_PREFIX + seed), ED25519, true, ["sign"]);
  return keyOf(key);
}

async function keyOf(privateKey: CryptoKey): Promise<SeatKey> {
  const jwk = await subtle().exportKey("jwk", privateKey);
  return { publicKey: fromBase64url(jwk.x!), privateKey: fromBase64url(jwk.d!) };
}

/** Each key pair this process has signed with, imported once (by its public key): a party signs many commands. */
const signingKeys = new Map<string, { privateKey: string; imported: Promise<CryptoKey> }>();

const importSigningKey = (key: SeatKey): Promise<CryptoKey> =>
  subtle().importKey(
    "jwk",
    { kty: "OKP", crv: "Ed25519", x: base64url(key.publicKey), d: base64url(key.privateKey) },
    ED25519,
    false,
    ["sign"],
  );

function signingKey(key: HeldKey): Promise<CryptoKey> {
  if (typeof key.privateKey !== "string") return Promise.resolve(key.privateKey);
  const known = signingKeys.get(key.publicKey);
  if (known?.privateKey === key.privateKey) return known.imported;
  const imported = importSigningKey(key as SeatKey);
  const entry = { privateKey: key.privateKey, imported };
  signingKeys.set(key.publicKey, entry);
  // A key that fails to import is not kept: the next command tries again and fails as this one does.
  imported.catch(() => signingKeys.get(key.publicKey) === entry && signingKeys.delete(key.publicKey));
  return imported;
}

/** The signature (64 bytes as hex) of `key` over a text's UTF-8 bytes. */
export async function signText(key: HeldKey, text: string): Promise<string> {
  return bytesToHex(new Uint8Array(await subtle().sign(ED25519, await signingKey(key), utf8ToBytes(text))));
}

/** Public keys imported for verification, kept: a client checks every receipt against the same server key. */
const verifyingKeys = new Map<string, Promise<CryptoKey>>();

/** Whether `signature` is `publicKey`'s over a text's UTF-8 bytes (both as hex). */
export async function verifyText(publicKey: string, text: string, signature: string): Promise<boolean> {
  try {
    let key = verifyingKeys.get(publicKey);
    if (!key) {
      if (verifyingKeys.size >= 64) verifyingKeys.clear();
      key = subtle().importKey("raw", hexToBytes(publicKey), ED25519, false, ["verify"]);
      verifyingKeys.set(publicKey, key);
      // Only a key that imports is kept: a malformed one is refused each time it is given.
      key.catch(() => verifyingKeys.delete(publicKey));
    }
    return await subtle().verify(ED25519, await key, hexToBytes(signature), utf8ToBytes(text));
  } catch {
    return false;
  }
}
