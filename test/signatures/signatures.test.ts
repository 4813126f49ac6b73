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
import { RFC_8032_TEXT_VECTORS as VECTORS } from "../support/rfc8032-vectors.js";

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
