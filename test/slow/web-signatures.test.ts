/**
 * The page's signatures (src/crypto/signatures.ts, bundled as the page bundles it) made in Debian's chromium: a key
 * from an RFC 8032 seed (section 7.1, TEST 1 and TEST 2, whose messages are text) gives the RFC's public key and
 * signature there, and a command signed there with a fresh key of the browser's own verifies in Node (the engine's and
 * the audit's check, src/crypto/verify-node.ts) and in Python (tools/ed25519.py, the reference verifier's), and is
 * refused by both once one character of the text it signs is changed. The page's own key (src/web/idb-secrets.ts) is
 * a non-extractable CryptoKey in IndexedDB, and a key an earlier page kept as its seed is made one, its seed forgotten;
 * two tabs of a seat keeping commands sent in its receipts (src/web/idb-receipts.ts) at once lose none of each other's.
 */
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PartySecrets } from "../../src/client/party-secrets.js";
import {
  signedText,
  type DeviceKey,
  type HeldKey,
  type SeatKey,
  type SignedPoint,
} from "../../src/crypto/signatures.js";
import type { BrowserSecrets } from "../../src/web/idb-secrets.js";
import type { BrowserReceiptBook } from "../../src/web/idb-receipts.js";
import { verifySignature } from "../../src/crypto/verify-node.js";
import { browserBundle } from "../support/browser-bundle.js";
import { RFC_8032_TEXT_VECTORS as VECTORS } from "../support/rfc8032-vectors.js";
import { launchChromium } from "./browser.js";
import { ROOT } from "./cli-process.js";

/** What the page's module gives, as the test calls it inside the page. */
interface PageSigning {
  seatKeyFromSeed(seed: string): Promise<SeatKey>;
  newSeatKey(): Promise<SeatKey>;
  signText(key: HeldKey, text: string): Promise<string>;
  verifyText(publicKey: string, text: string, signature: string): Promise<boolean>;
  newDeviceKey(): Promise<DeviceKey>;
  BrowserSecrets: typeof BrowserSecrets;
  BrowserReceiptBook: typeof BrowserReceiptBook;
}

let browser: Browser;
let page: Page;
let server: Server;
let address: string;

/** A page of the signing module in a browser context of its own (an IndexedDB of its own). */
async function openPage(): Promise<Page> {
  const opened = await (await browser.newContext()).newPage();
  await opened.goto(address);
  await opened.waitForFunction(() => "signing" in window, undefined, { timeout: 60_000 });
  return opened;
}

beforeAll(async () => {
  const { text } = await browserBundle(
    join(ROOT, "src", "crypto", "signatures.ts"),
    join(ROOT, "src", "web", "idb-secrets.ts"),
    join(ROOT, "src", "web", "idb-receipts.ts"),
  );
  const module = text.replace(/export\s*\{([^}]*)\};?\s*$/, "window.signing = {$1};");
  // A page served on loopback: a secure context, as the campaign server's page is there, so Web Crypto is given.
  server = createServer((_request, response) =>
    response.end(`<!doctype html><title>signing</title><script type="module">${module}</script>`),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  browser = await launchChromium();
  address = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  page = await openPage();
  expect(await page.evaluate(() => window.isSecureContext)).toBe(true);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  server?.close();
});

/** Runs `work` in a page (the first unless told) with its signing module. */
const inPage = <T, A>(work: (signing: PageSigning, arg: A) => Promise<T>, arg: A, on: Page = page): Promise<T> =>
  on.evaluate(
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

/** What the page's IndexedDB holds for a seat: its secrets record, and its key record as the page reads it back. */
interface StoredKey {
  secrets: PartySecrets;
  key: { isCryptoKey: boolean; extractable: boolean; type: string; publicKey: string } | undefined;
  /** What exporting the stored private key gave: the error's name, as the platform refuses it. */
  exported: string;
  /** The stored key's signature over a text. */
  signature: string | undefined;
}

/** Reads the seat's records straight from IndexedDB (as any script of the page could) and tries to export the key. */
const storedKey = (on: Page, key: string, text: string): Promise<StoredKey> =>
  on.evaluate(
    async ({ key, text }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open("epicwar");
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const get = (store: string) =>
        new Promise<unknown>((resolve, reject) => {
          const request = db.transaction(store).objectStore(store).get(key);
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
      const secrets = JSON.parse((await get("secrets")) as string) as PartySecrets;
      const held = (await get("seatKeys")) as { publicKey: string; privateKey: CryptoKey } | undefined;
      db.close();
      if (!held) return { secrets, key: undefined, exported: "", signature: undefined };
      const exported = await crypto.subtle.exportKey("pkcs8", held.privateKey).then(
        () => "exported",
        (error: Error) => error.name,
      );
      const signed = await crypto.subtle.sign("Ed25519", held.privateKey, new TextEncoder().encode(text));
      return {
        secrets,
        key: {
          isCryptoKey: held.privateKey instanceof CryptoKey,
          extractable: held.privateKey.extractable,
          type: held.privateKey.type,
          publicKey: held.publicKey,
        },
        exported,
        signature: [...new Uint8Array(signed)].map((byte) => byte.toString(16).padStart(2, "0")).join(""),
      };
    },
    { key, text },
  );

describe("the page's key in IndexedDB (D2, docs/web.md)", () => {
  it("is a non-extractable CryptoKey: the platform signs with it, and no script can export it", async () => {
    const text = signedText({ campaign: "ashfall", line: "ashfall", seq: 7, view: null }, { type: "Pass" });
    const publicKey = await inPage(async (signing) => {
      const secrets = await signing.BrowserSecrets.open("ashfall");
      const key = await signing.newDeviceKey();
      await secrets.keepSeatKey("horde", key);
      return key.publicKey;
    }, undefined);
    const stored = await storedKey(page, "ashfall/horde", text);
    expect(stored.key).toEqual({ isCryptoKey: true, extractable: false, type: "private", publicKey });
    expect(stored.exported).toBe("InvalidAccessError");
    expect(stored.secrets.seatKey).toBeUndefined();
    expect(verifySignature(publicKey, text, stored.signature!)).toBe(true);
    expect(await pythonVerifies(publicKey, text, stored.signature!)).toBe(true);
    // The secrets file the page exports holds no key: it cannot leave this browser.
    const exported = await inPage(async (signing) => {
      const secrets = await signing.BrowserSecrets.open("ashfall");
      return secrets.exportFile("horde");
    }, undefined);
    expect(JSON.parse(exported)).toEqual({});
  });

  it("made from the seed an earlier page kept (RFC 8032 TEST 1), which is then forgotten, and signs as before", async () => {
    const vector = VECTORS[0]!;
    const earlier = await openPage();
    // The database as a page from before kept it (version 1): the secrets file, the key's seed in it.
    await earlier.evaluate(
      (file) =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open("epicwar", 1);
          open.onupgradeneeded = () => open.result.createObjectStore("secrets");
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const transaction = open.result.transaction("secrets", "readwrite");
            transaction.objectStore("secrets").put(file, "ashfall/horde");
            transaction.oncomplete = () => {
              open.result.close();
              resolve();
            };
          };
        }),
      JSON.stringify({
        playerSeeds: { "1": "ab".repeat(32) },
        seatKey: { publicKey: vector.publicKey, privateKey: vector.seed },
      }),
    );
    const signature = await inPage(
      async (signing, message) => {
        const secrets = await signing.BrowserSecrets.open("ashfall");
        const key = await secrets.seatKey("horde");
        return signing.signText(key!, message);
      },
      vector.message,
      earlier,
    );
    expect(signature).toBe(vector.signature);
    const stored = await storedKey(earlier, "ashfall/horde", vector.message);
    expect(stored.key).toEqual({ isCryptoKey: true, extractable: false, type: "private", publicKey: vector.publicKey });
    expect(stored.exported).toBe("InvalidAccessError");
    expect(stored.signature).toBe(vector.signature);
    expect(stored.secrets).toEqual({ playerSeeds: { "1": "ab".repeat(32) } });
    await earlier.context().close();
  });
});

describe("the page's receipts in IndexedDB (docs/signatures.md)", () => {
  it("two tabs of one seat keeping commands sent at once lose none of each other's, and a reload reads them all", async () => {
    const second = await page.context().newPage();
    await second.goto(address);
    await second.waitForFunction(() => "signing" in window, undefined, { timeout: 60_000 });
    const keep = (tab: Page, name: string) =>
      inPage(
        async (signing, who) => {
          const book = new signing.BrowserReceiptBook("ashfall", "horde");
          const sends = Array.from({ length: 20 }, (_, i) =>
            book.update((kept) => {
              kept.unreceipted.push({ line: "ashfall", expectedSeq: i, commands: [], sentAt: `${who} ${i}` });
            }),
          );
          await Promise.all(sends);
        },
        name,
        tab,
      );
    await Promise.all([keep(page, "first"), keep(second, "second")]);
    await second.reload();
    await second.waitForFunction(() => "signing" in window, undefined, { timeout: 60_000 });
    const kept = await inPage(
      async (signing) =>
        (await new signing.BrowserReceiptBook("ashfall", "horde").read()).unreceipted.map((s) => s.sentAt),
      undefined,
      second,
    );
    const expected = ["first", "second"].flatMap((who) => Array.from({ length: 20 }, (_, i) => `${who} ${i}`));
    expect([...kept].sort()).toEqual(expected.sort());
    await second.close();
  });
});
