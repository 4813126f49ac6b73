/**
 * src/crypto/signatures.ts (Web Crypto's Ed25519, as the CLI, the library and the page sign) and verify-node.ts
 * (node:crypto's, as the engine and the audit check) against RFC 8032's test vectors (section 7.1) whose messages are
 * text, and against each other: a key made from its seed gives the RFC's public key and signature, and each verifier
 * refuses the signature with one character of the text changed. The signed text is the canonical JSON docs/signatures.md
 * gives, domain first by its sorting.
 */
import { describe, expect, it } from "vitest";
import { seatKeyFromSeed, signedText, signText, verifyText } from "../../src/crypto/signatures.js";
import { verifySignature } from "../../src/crypto/verify-node.js";

/** RFC 8032, 7.1: TEST 1 (the empty message) and TEST 2 (one byte, 0x72: "r"), with their secret keys. */
const VECTORS = [
  {
    seed: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
    publicKey: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
    message: "",
    signature:
      "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
  },
  {
    seed: "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
    publicKey: "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
    message: "r",
    signature:
      "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
  },
];

describe("Ed25519 signatures (D2)", () => {
  it("give RFC 8032's public keys and signatures, and both verifiers accept them", async () => {
    for (const vector of VECTORS) {
      const key = await seatKeyFromSeed(vector.seed);
      expect(key).toEqual({ publicKey: vector.publicKey, privateKey: vector.seed });
      expect(await signText(key, vector.message)).toBe(vector.signature);
      expect(await verifyText(vector.publicKey, vector.message, vector.signature)).toBe(true);
      expect(verifySignature(vector.publicKey, vector.message, vector.signature)).toBe(true);
    }
  });

  it("refuse a signature over another text, by another key, or malformed", async () => {
    const [one, two] = VECTORS;
    for (const verify of [verifySignature, verifyText]) {
      expect(await verify(two!.publicKey, "s", two!.signature)).toBe(false);
      expect(await verify(one!.publicKey, two!.message, two!.signature)).toBe(false);
      expect(await verify(two!.publicKey, two!.message, two!.signature.slice(0, -2) + "01")).toBe(false);
      expect(await verify("00", two!.message, two!.signature)).toBe(false);
    }
  });

  it("sign the exact text of a command at its point: canonical JSON, domain separated", () => {
    const text = signedText(
      { campaign: "ashfall", line: "ashfall.what-if", seq: 41, view: null },
      { type: "ChooseFirst", actor: "horde", first: "horde" },
    );
    expect(text).toBe(
      '{"campaign":"ashfall","command":{"actor":"horde","first":"horde","type":"ChooseFirst"},"domain":"epicwar-command/1","line":"ashfall.what-if","seq":41,"view":null}',
    );
  });
});
