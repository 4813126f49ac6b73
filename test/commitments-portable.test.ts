import { createHash, createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, digestHex, orderCommitment, randomHex, seedCommitment } from "../src/crypto/commitments.js";
import { rollDie } from "../src/crypto/dice.js";
import { hmacSha256, portableHmacSha256, portableSha256Hex, sha256Hex } from "../src/crypto/hashes.js";
import { browserBundle } from "./support/browser-bundle.js";

const nodeSha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** Die `index` as docs/fair-dice.md defines it, drawn with node:crypto: what the module replaced. */
function nodeDie(seeds: Parameters<typeof rollDie>[0], index: number, sides: number): number {
  const limit = 256 - (256 % sides);
  for (let block = 0; ; block++) {
    const message = ["epicwar-die", seeds.campaign, seeds.turn, index, ...seeds.playerSeeds, block].join("|");
    for (const byte of createHmac("sha256", seeds.hostSeed).update(message).digest()) {
      if (byte < limit) return (byte % sides) + 1;
    }
  }
}

const text = fc.string({ unit: "binary", maxLength: 200 });
/** Texts with lone surrogates, which every UTF-8 encoder here writes as U+FFFD. */
const brokenText = fc.string({
  unit: fc.oneof(fc.constantFrom("\ud800", "\udfff"), fc.string({ unit: "binary", maxLength: 1 })),
  maxLength: 20,
});
const order = fc.constantFrom("firstFire", "advance", "charge", "fortify" as const);

describe("One commitment module for Node and the browser", () => {
  it("bundles for the browser from src/crypto/commitments.ts and src/crypto/dice.ts with no node: import, transitively", async () => {
    const { inputs, text } = await browserBundle("./src/crypto/commitments.ts", "./src/crypto/dice.ts");
    expect(inputs.filter((input) => input.startsWith("node:"))).toEqual([]);
    const packages = new Set(inputs.flatMap((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? []));
    expect([...packages].sort()).toEqual(["@noble/hashes", "canonicalize"]);
    expect(text).not.toMatch(/["']node:/);
  });

  it("D1 seed commitments and digests are byte-identical to node:crypto's SHA-256 on random texts", () => {
    fc.assert(
      fc.property(text, (seed) => {
        expect(digestHex(seed)).toBe(nodeSha256(seed));
        expect(seedCommitment(seed)).toBe(nodeSha256(seed));
      }),
    );
  });

  it("T5 order commitments are node:crypto's SHA-256 of the canonical JSON of the secret", () => {
    fc.assert(
      fc.property(
        text,
        fc.nat(),
        text,
        order,
        fc.stringMatching(/^[0-9a-f]{32,64}$/),
        (campaign, turn, army, o, salt) => {
          const secret = { campaign, turn, army, order: o, salt };
          expect(orderCommitment(secret)).toBe(nodeSha256(canonicalJson({ salt, order: o, army, turn, campaign })));
        },
      ),
    );
  });

  it("D1 dice are the same as node:crypto's HMAC-SHA-256 draws on random seeds", () => {
    fc.assert(
      fc.property(
        fc.record({
          campaign: text,
          turn: fc.integer({ min: 1, max: 99 }),
          hostSeed: text,
          playerSeeds: fc.array(text, { maxLength: 3 }),
        }),
        fc.nat({ max: 500 }),
        fc.constantFrom(2, 3, 6, 7, 10, 200),
        (seeds, index, sides) => {
          expect(rollDie(seeds, index, sides)).toBe(nodeDie(seeds, index, sides));
        },
      ),
    );
  });

  it("D1, T5: the pure JavaScript SHA-256 and HMAC-SHA-256 (what a browser runs) are node:crypto's on random texts", () => {
    fc.assert(
      fc.property(fc.oneof(text, brokenText), fc.oneof(text, brokenText), (key, message) => {
        expect(portableSha256Hex(message)).toBe(nodeSha256(message));
        const nodeHmac = createHmac("sha256", Buffer.from(key, "utf8")).update(message, "utf8").digest("hex");
        expect(Buffer.from(portableHmacSha256(key, message)).toString("hex")).toBe(nodeHmac);
      }),
    );
  });

  it("D1, T5: in Node the commitments and dice hash with Node's own functions, byte for byte the pure ones", () => {
    expect(sha256Hex).not.toBe(portableSha256Hex);
    expect(hmacSha256).not.toBe(portableHmacSha256);
    fc.assert(
      fc.property(fc.oneof(text, brokenText), fc.oneof(text, brokenText), (key, message) => {
        expect(sha256Hex(message)).toBe(portableSha256Hex(message));
        expect(Buffer.from(hmacSha256(key, message))).toEqual(Buffer.from(portableHmacSha256(key, message)));
      }),
    );
  });

  it("random salts and seeds are hex of the length asked, and differ", () => {
    expect(randomHex(16)).toMatch(/^[0-9a-f]{32}$/);
    expect(randomHex(32)).toMatch(/^[0-9a-f]{64}$/);
    expect(randomHex(32)).not.toBe(randomHex(32));
  });
});
