/**
 * The page's signatures (src/crypto/signatures.ts, bundled as the page bundles it) made in Debian's chromium: a key
 * from an RFC 8032 seed (section 7.1, TEST 1 and TEST 2, whose messages are text) gives the RFC's public key and
 * signature there, and a command signed there with a fresh key of the browser's own verifies in Node (the engine's and
 * the audit's check, src/crypto/verify-node.ts) and in Python (tools/ed25519.py, the reference verifier's), and is
 * refused by both once one character of the text it signs is changed.
 */
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedText, type SeatKey, type SignedPoint } from "../../src/crypto/signatures.js";
import { verifySignature } from "../../src/crypto/verify-node.js";
import { browserBundle } from "../support/browser-bundle.js";
import { RFC_8032_TEXT_VECTORS as VECTORS } from "../support/rfc8032-vectors.js";
import { launchChromium } from "./browser.js";
import { ROOT } from "./cli-process.js";

/** What the page's module gives, as the test calls it inside the page. */
interface PageSigning {
  seatKeyFromSeed(seed: string): Promise<SeatKey>;
  newSeatKey(): Promise<SeatKey>;
  signText(key: SeatKey, text: string): Promise<string>;
  verifyText(publicKey: string, text: string, signature: string): Promise<boolean>;
}

let browser: Browser;
let page: Page;
let server: Server;

beforeAll(async () => {
  const { text } = await browserBundle(join(ROOT, "src", "crypto", "signatures.ts"));
  const module = text.replace(/export\s*\{([^}]*)\};?\s*$/, "window.signing = {$1};");
  // A page served on loopback: a secure context, as the campaign server's page is there, so Web Crypto is given.
  server = createServer((_request, response) =>
    response.end(`<!doctype html><title>signing</title><script type="module">${module}</script>`),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  browser = await launchChromium();
  page = await (await browser.newContext()).newPage();
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  await page.waitForFunction(() => "signing" in window, undefined, { timeout: 60_000 });
  expect(await page.evaluate(() => window.isSecureContext)).toBe(true);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  server?.close();
});

/** Runs `work` in the page with its signing module. */
const inPage = <T, A>(work: (signing: PageSigning, arg: A) => Promise<T>, arg: A): Promise<T> =>
  page.evaluate(
    ({ source, arg }) => {
      const signing = (window as unknown as { signing: PageSigning }).signing;
      return (new Function(`return ${source}`)() as typeof work)(signing, arg as A);
    },
    { source: work.toString(), arg },
  );

/** Whether tools/ed25519.py accepts `signature` (hex) by `publicKey` (hex) over a text's UTF-8 bytes. */
async function pythonVerifies(publicKey: string, text: string, signature: string): Promise<boolean> {
  const script = [
    "import sys, ed25519",
    "key, signature, text = sys.argv[1], sys.argv[2], sys.stdin.read()",
    "print(ed25519.verify(bytes.fromhex(key), text.encode('utf-8'), bytes.fromhex(signature)))",
  ].join("\n");
  const run = promisify(execFile)("python3", ["-c", script, publicKey, signature], {
    cwd: join(ROOT, "tools"),
    timeout: 30_000,
  });
  run.child.stdin?.end(text);
  const { stdout } = await run;
  expect(stdout.trim()).toMatch(/^(True|False)$/);
  return stdout.trim() === "True";
}

describe("the page's Ed25519 in chromium (D2)", () => {
  it("gives RFC 8032's public keys and signatures (7.1, TEST 1 and TEST 2) for keys made from their seeds", async () => {
    for (const vector of VECTORS) {
      const made = await inPage(async (signing, v) => {
        const key = await signing.seatKeyFromSeed(v.seed);
        const signature = await signing.signText(key, v.message);
        return { key, signature, verified: await signing.verifyText(v.publicKey, v.message, v.signature) };
      }, vector);
      expect(made).toEqual({
        key: { publicKey: vector.publicKey, privateKey: vector.seed },
        signature: vector.signature,
        verified: true,
      });
    }
  });

  it("signs a command with a key of the browser's own that Node's crypto and tools/ed25519.py verify, and neither verifies another text", async () => {
    const point: SignedPoint = { campaign: "ashfall", line: "ashfall", seq: 41, view: null };
    const text = signedText(point, { type: "ChooseFirst", actor: "horde", first: "horde" });
    const { publicKey, signature } = await inPage(async (signing, signed) => {
      const key = await signing.newSeatKey();
      return { publicKey: key.publicKey, signature: await signing.signText(key, signed) };
    }, text);
    expect(publicKey).toMatch(/^[0-9a-f]{64}$/);
    expect(signature).toMatch(/^[0-9a-f]{128}$/);
    expect(verifySignature(publicKey, text, signature)).toBe(true);
    expect(await pythonVerifies(publicKey, text, signature)).toBe(true);
    const other = text.replace('"first":"horde"', '"first":"concord"');
    expect(other).not.toBe(text);
    expect(verifySignature(publicKey, other, signature)).toBe(false);
    expect(await pythonVerifies(publicKey, other, signature)).toBe(false);
  });
});
