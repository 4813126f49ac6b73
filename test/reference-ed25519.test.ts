/**
 * The reference verifier's Ed25519 (tools/ed25519.py, standard library only, written from RFC 8032): it accepts the
 * RFC's own test vectors (section 7.1) and signatures Node's crypto makes with keys of its own, and refuses each of
 * them with one bit of the message, the signature or the key changed, or with S not below the group order.
 */
import { execFile, type ExecFileException } from "node:child_process";
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const TOOLS = fileURLToPath(new URL("../tools/", import.meta.url));

interface Case {
  name: string;
  publicKey: string;
  message: string;
  signature: string;
}

/** RFC 8032, section 7.1: TEST 1, TEST 2, TEST 3 and TEST SHA(abc) (its message is SHA-512 of "abc"). */
const RFC_8032_VECTORS: Case[] = [
  {
    name: "TEST 1",
    publicKey: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
    message: "",
    signature:
      "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
  },
  {
    name: "TEST 2",
    publicKey: "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
    message: "72",
    signature:
      "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
  },
  {
    name: "TEST 3",
    publicKey: "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
    message: "af82",
    signature:
      "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a",
  },
  {
    name: "TEST SHA(abc)",
    publicKey: "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
    message: createHash("sha512").update("abc").digest("hex"),
    signature:
      "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b58909351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704",
  },
];

/** Signatures by Node's crypto (OpenSSL) with keys of its own, over messages of several lengths. */
function nodeSigned(count: number): Case[] {
  return Array.from({ length: count }, (_, index) => {
    const { publicKey, privateKey } = generateKeyPairSync("ed25519");
    const message = createHash("sha512")
      .update(`message ${index}`)
      .digest()
      .subarray(0, index * 7);
    const raw = publicKey.export({ format: "der", type: "spki" }).subarray(-32);
    return {
      name: `node ${index}`,
      publicKey: raw.toString("hex"),
      message: message.toString("hex"),
      signature: sign(null, message, privateKey).toString("hex"),
    };
  });
}

/** The hex with one bit flipped in byte `at`. */
function flipped(hex: string, at: number): string {
  const bytes = Buffer.from(hex, "hex");
  bytes[at]! ^= 0x01;
  return bytes.toString("hex");
}

/** tools/ed25519.py's verdict on each case, in order. */
async function verdicts(cases: readonly Case[]): Promise<boolean[]> {
  const script = [
    "import json, sys",
    "import ed25519",
    "cases = json.load(sys.stdin)",
    "print(json.dumps([ed25519.verify(*(bytes.fromhex(c[k]) for k in ('publicKey', 'message', 'signature'))) for c in cases]))",
  ].join("\n");
  return new Promise((resolve, reject) => {
    const child = execFile(
      "python3",
      ["-c", script],
      { cwd: TOOLS, encoding: "utf8", timeout: 60_000 },
      (error: ExecFileException | null, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as boolean[]);
      },
    );
    child.stdin?.end(JSON.stringify(cases));
  });
}

describe("tools/ed25519.py (RFC 8032)", () => {
  const genuine = [...RFC_8032_VECTORS, ...nodeSigned(6)];

  it("accepts RFC 8032's test vectors and Node's signatures", async () => {
    expect(await verdicts(genuine)).toEqual(genuine.map(() => true));
  });

  it("refuses each with a bit of the message, the signature's R or S, or the key changed", async () => {
    const tampered = genuine.flatMap((c) => [
      ...(c.message ? [{ ...c, message: flipped(c.message, 0) }] : [{ ...c, message: "00" }]),
      { ...c, signature: flipped(c.signature, 3) },
      { ...c, signature: flipped(c.signature, 40) },
      { ...c, publicKey: flipped(c.publicKey, 5) },
    ]);
    expect(await verdicts(tampered)).toEqual(tampered.map(() => false));
  });

  it("refuses S not below the group order L (a malleable copy of a valid signature)", async () => {
    const order = 2n ** 252n + 27742317777372353535851937790883648493n;
    const [first] = RFC_8032_VECTORS;
    const s = BigInt(`0x${Buffer.from(first!.signature.slice(64), "hex").reverse().toString("hex")}`);
    const sPlusL = Buffer.from((s + order).toString(16).padStart(64, "0"), "hex")
      .reverse()
      .toString("hex");
    expect(await verdicts([{ ...first!, signature: first!.signature.slice(0, 64) + sPlusL }])).toEqual([false]);
  });
});
