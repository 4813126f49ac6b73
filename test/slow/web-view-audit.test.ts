/**
 * The page's receipts and its audit of what it was shown (docs/signatures.md, docs/web.md): `epicwar demo --serve`
 * serves Ashfall and Debian's chromium opens both players' pages, which register their keys and give their seeds. The
 * Concord's page keeps its key as a non-extractable CryptoKey and its receipts in IndexedDB, through a reload. Then the
 * server is stopped, the Concord's seed commitment has its recorded time rewritten in the LevelDB folder behind it (the
 * chain sealed again, as whoever holds the database could), and the server started again: the page's audit names that
 * event, and the proof file it offers is checked by `tools/verify_log.py --proof`, with the raw log and without.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoredEvent } from "../../events/index.js";
import type { KeptReceipts, SentCommands } from "../../src/client/receipts.js";
import type { ViewProof } from "../../src/client/view-audit.js";
import { rawStream } from "../replays-support.js";
import { runVerifier } from "../support/verifier.js";
import { rawText, rewritten, storeRewritten } from "../support/rewrite-log.js";
import { launchChromium, openSeat, type SeatPage } from "./browser.js";
import { campaignReads, seatToken } from "./campaign-reads.js";
import { epicwar, keptLine, type CliProcess } from "./cli-process.js";

const CAMPAIGN = "ashfall";
const WAIT = { timeout: 60_000 };

let dir: string;
let server: CliProcess;
let url: string;
let hostToken: string;
let browser: Browser;
const seats: Record<string, SeatPage> = {};
const { until, stateNow } = campaignReads(
  () => url,
  CAMPAIGN,
  () => hostToken,
  WAIT.timeout,
);

/** Serves the demo's folder (made on the first run, served again as it is on the next) on `port` (0: any). */
const serve = (port: string): CliProcess =>
  epicwar(["demo", "--serve", "--db", join(dir, "war"), "--port", port], { cwd: dir, home: dir });

/** A record of the page's IndexedDB, read as any script of the page could read it. */
const record = <T>(page: Page, store: string, key: string, read: string): Promise<T> =>
  page.evaluate(
    async ({ store, key, read }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open("epicwar");
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const value = await new Promise<unknown>((resolve, reject) => {
        const request = db.transaction(store).objectStore(store).get(key);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      db.close();
      return (new Function("value", `return (${read})(value)`) as (value: unknown) => Promise<unknown>)(value);
    },
    { store, key, read },
  ) as Promise<T>;

const keptReceipts = (seat: SeatPage) =>
  record<KeptReceipts | undefined>(seat.page, "receipts", `${CAMPAIGN}/concord`, "(value) => value");

/** Sets the commands the Concord's page keeps as sent with no receipt, as its script would. */
const keepUnreceipted = (page: Page, unreceipted: SentCommands[]) =>
  page.evaluate(
    ({ key, unreceipted }) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open("epicwar");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const transaction = open.result.transaction("receipts", "readwrite");
          const store = transaction.objectStore("receipts");
          const read = store.get(key);
          read.onsuccess = () => store.put({ ...read.result, unreceipted }, key);
          transaction.oncomplete = () => (open.result.close(), resolve());
          transaction.onerror = () => reject(transaction.error);
        };
      }),
    { key: `${CAMPAIGN}/concord`, unreceipted },
  );

/** The page's history tab, its check of what it was shown run, and the verdict it gives. */
async function checkView(seat: SeatPage): Promise<string> {
  const { page } = seat;
  await page.getByRole("button", { name: "History and audit" }).click(WAIT);
  const panel = page.getByTestId("view-audit");
  const made = Number(await panel.getAttribute("data-checks", WAIT));
  await page.getByTestId("check-view").click(WAIT);
  await page.locator(`[data-testid=view-audit][data-checks="${made + 1}"]`).waitFor(WAIT);
  const verdict = page.getByTestId("view-audit-verdict");
  return (await verdict.textContent())!;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "epicwar-web-view-audit-"));
  server = serve("0");
  url = (await server.line(/^Serving .* at /)).replace(/^.* at (http:\/\/[^ ]+) .*$/, "$1");
  const operatorToken = (await keptLine(server, dir, "Operator token")).split(": ").at(-1)!;
  hostToken = await seatToken(url, operatorToken, CAMPAIGN);
  browser = await launchChromium();
  for (const seat of ["concord", "horde"]) {
    const link = (await keptLine(server, dir, `${CAMPAIGN} ${seat} `)).split(" ")[2]!;
    seats[seat] = await openSeat(browser, seat, link);
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("the page's receipts and its audit of what it was shown (D2)", () => {
  it("keeps its key non-extractable and its receipts in IndexedDB, through a reload", async () => {
    const started = await until("both keys registered, both seeds given", (s) => !!s.turnState?.initiativeWinner);
    const concord = seats["concord"]!;
    const key = await record<{ extractable: boolean; isCryptoKey: boolean; publicKey: string; exported: string }>(
      concord.page,
      "seatKeys",
      `${CAMPAIGN}/concord`,
      `async (held) => ({
        isCryptoKey: held.privateKey instanceof CryptoKey,
        extractable: held.privateKey.extractable,
        publicKey: held.publicKey,
        exported: await crypto.subtle.exportKey("jwk", held.privateKey).then(() => "exported", (e) => e.name),
      })`,
    );
    expect(key).toEqual({
      isCryptoKey: true,
      extractable: false,
      publicKey: started.seatKeys!["concord"]!.publicKey,
      exported: "InvalidAccessError",
    });
    const kept = (await keptReceipts(concord))!;
    const serverKey = ((await (await fetch(`${url}/server-key`)).json()) as { publicKey: string }).publicKey;
    expect(kept.serverKey).toBe(serverKey);
    // Its key's registration, its seed's commitment and its seed: each answered with a receipt.
    const types = kept.receipts.flatMap(({ entries }) =>
      entries.filter((e) => e.actor === "concord").map((e) => e.type),
    );
    expect(types).toEqual(expect.arrayContaining(["SeatKeyRegistered", "PlayerSeedCommitted", "PlayerSeedGiven"]));
    expect(kept.unreceipted).toEqual([]);

    await concord.page.reload();
    await concord.page.getByTestId("scoreboard").waitFor(WAIT);
    const after = (await keptReceipts(concord))!;
    expect(after.receipts.slice(0, kept.receipts.length)).toEqual(kept.receipts);
    expect(await checkView(concord)).toMatch(
      new RegExp(`^The log as served holds what you were shown: ${after.receipts.length} receipts checked`),
    );
  });

  it("lists a command sent with no receipt with its signature", async () => {
    const concord = seats["concord"]!;
    const seq = (await stateNow()).seq;
    const value = "ab".repeat(64);
    // As the page keeps a command it sent whose answer never came (the connection cut on its way).
    const sent = {
      line: CAMPAIGN,
      expectedSeq: seq,
      commands: [{ actor: "concord", type: "ClaimStall", signature: { seq, view: null, value } }],
      sentAt: "2026-11-28T12:00:00.000Z",
    };
    await keepUnreceipted(concord.page, [sent]);
    await checkView(concord);
    await expect(concord.page.getByTestId("unreceipted").textContent()).resolves.toBe(
      `Sent with no receipt and not in the log: ClaimStall signed ${value} sent at 2026-11-28T12:00:00.000Z on seq ${seq}`,
    );
    await keepUnreceipted(concord.page, []);
  });

  it("names the event a rewrite behind the server changed, and its proof file fails verify_log.py --proof at it", async () => {
    const concord = seats["concord"]!;
    const port = new URL(url).port;
    await server.stop();
    const db = join(dir, "war");
    const stored = await rawStream(db, CAMPAIGN);
    const honest = stored.events.map(([, value]) => ({
      ...(JSON.parse(value.slice(64)) as StoredEvent),
      hash: value.slice(0, 64),
    }));
    const seq = honest.find((e) => e.type === "PlayerSeedCommitted" && e.actor === "concord")!.seq;
    // The event's time moved an hour on, and every later one with it, so that no recorded time goes back.
    const later = (at: string) => new Date(Date.parse(at) + 3_600_000).toISOString();
    const events = rewritten(honest, (event) => (event.seq >= seq ? { ...event, at: later(event.at) } : event));
    await storeRewritten(db, CAMPAIGN, events);
    server = serve(port);
    await server.line(/^Serving .* at /);
    await concord.page.locator("[data-testid=connection][data-state=back]").waitFor(WAIT);

    const verdict = await checkView(concord);
    expect(verdict).toContain(`first at event #${seq}: event ${seq} (PlayerSeedCommitted) as served has at`);
    const [download] = await Promise.all([
      concord.page.waitForEvent("download"),
      concord.page.getByTestId("download-proof").click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${CAMPAIGN}-concord-proof.json`);
    const proofPath = join(dir, "proof.json");
    await download.saveAs(proofPath);
    const proof = JSON.parse(await readFile(proofPath, "utf8")) as ViewProof;
    expect(proof).toMatchObject({ format: "epicwar-view-proof/1", seat: "concord", differs: { seq } });
    const rawPath = join(dir, "rewritten.raw");
    await writeFile(rawPath, rawText(CAMPAIGN, events));
    // The rewritten log alone passes (the rewrite is consistent); the page's proof does not, against it or alone.
    expect((await runVerifier([rawPath])).code).toBe(0);
    const failure = `FAIL seq ${seq}: the log differs in at from what the server showed concord`;
    expect(await runVerifier(["--proof", proofPath, rawPath])).toMatchObject({
      code: 1,
      stdout: expect.stringContaining(failure),
    });
    expect(await runVerifier(["--proof", proofPath])).toMatchObject({
      code: 1,
      stdout: expect.stringContaining(`FAIL seq ${seq}`),
    });
  });
});
