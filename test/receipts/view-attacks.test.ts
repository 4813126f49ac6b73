/**
 * The attacks on what a seat was shown (docs/signatures.md, Receipts): a log rewritten consistently after the server
 * gave its receipt (a player's event, a recorded time) is flagged by the seat's audit and by the reference verifier
 * through the receipt it kept; a command sent that got no receipt and is not in the log is listed with its signature.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toCurrent, type StoredEvent } from "../../events/index.js";
import { nodeHttpTransport } from "../../src/client/http-transport.js";
import { FileReceiptBook } from "../../src/client/receipt-file.js";
import type { ReceiptBook } from "../../src/client/receipts.js";
import { RemoteCampaign } from "../../src/client/remote.js";
import { ServerConnection } from "../../src/client/server.js";
import { receiptTextOf, type KeptReceipts } from "../../src/client/receipts.js";
import { auditView, type ViewProof } from "../../src/client/view-audit.js";
import { canonicalJson } from "../../src/crypto/commitments.js";
import { signedText, signText, newSeatKey } from "../../src/crypto/signatures.js";
import { receiptsPath } from "../../src/cli/remote.js";
import { viewEvent } from "../../src/views/view.js";
import { sealedContext, ViewChain } from "../../src/views/chain.js";
import { logViewContext } from "../../src/views/log.js";
import { copyOf } from "../replays-support.js";
import { runInProcess } from "../support/cli.js";
import { runVerifier } from "../support/verifier.js";
import { rawText as rawLog, rewritten, storeRewritten } from "../support/rewrite-log.js";
import { CAMPAIGN, listenOnLoopback, startTestServer, type TestServer } from "../server/support.js";

let server: TestServer;
let url: string;
let dir: string;
let book: ReceiptBook;
let concordSeq: number;
beforeAll(async () => {
  server = await startTestServer();
  url = `http://127.0.0.1:${await listenOnLoopback(server)}`;
  // The seat's folder outlives each test: its receipts are kept across them.
  dir = await mkdtemp(join(tmpdir(), "epicwar-receipts-"));
  book = new FileReceiptBook(receiptsPath(dir, CAMPAIGN, "concord"));
  const seat = (name: string, kept?: ReceiptBook) =>
    new RemoteCampaign(new ServerConnection(url, server.tokens[name]!, nodeHttpTransport), undefined, false, kept);
  const concord = seat("concord", book);
  await concord.state(CAMPAIGN);
  const played = await concord.execute(CAMPAIGN, [{ actor: "concord", type: "CommitSeed", seedHash: "ab".repeat(32) }]);
  if (!played.ok) throw new Error(JSON.stringify(played));
  concordSeq = played.events[0]!.seq;
  const horde = seat("horde");
  await horde.state(CAMPAIGN);
  if (!(await horde.execute(CAMPAIGN, [{ actor: "horde", type: "CommitSeed", seedHash: "cd".repeat(32) }])).ok)
    throw new Error("horde's seed refused");
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const rawText = (events: readonly StoredEvent[]) => rawLog(CAMPAIGN, events);

/** The seat's audit of a log as the server would serve it to concord, against its receipts (those it kept unless given). */
async function auditAsServed(events: readonly StoredEvent[], kept?: KeptReceipts) {
  const context = logViewContext(events.map(toCurrent));
  return auditView({
    campaign: CAMPAIGN,
    line: CAMPAIGN,
    seat: "concord",
    sealed: sealedContext(context.state),
    kept: kept ?? (await book.read()),
    served: events.map((event) => viewEvent(event, "concord", context)),
  });
}

async function proofAndRaw(name: string, proof: ViewProof | undefined, events: readonly StoredEvent[]) {
  const proofPath = join(dir, `${name}-proof.json`);
  const rawPath = join(dir, `${name}.raw`);
  if (proof) await writeFile(proofPath, JSON.stringify(proof));
  await writeFile(rawPath, rawText(events));
  return [proofPath, rawPath];
}

describe("a consistent rewrite after a receipt is flagged by the seat's audit and by the verifier", () => {
  it("the log as stored agrees with every receipt: no finding, and the verifier passes a proof against it", async () => {
    const events = await server.engine.store.readAll(CAMPAIGN);
    const audit = await auditAsServed(events);
    expect(audit).toMatchObject({ receipts: 1, entries: 1, differs: undefined, withheld: [] });
    // The reference verifier takes the whole log as it is.
    expect((await runVerifier([(await proofAndRaw("honest", undefined, events))[1]!])).code).toBe(0);
  });

  it("a player's event rewritten (its data), the chain sealed again", async () => {
    const events = rewritten(await server.engine.store.readAll(CAMPAIGN), (event) =>
      event.seq === concordSeq
        ? { ...event, data: { ...(event.data as object), seedHash: "ef".repeat(32) } as never }
        : event,
    );
    const audit = await auditAsServed(events);
    expect(audit.differs).toEqual({
      seq: concordSeq,
      what: expect.stringMatching(/^event \d+ \(PlayerSeedCommitted\) as served has data /),
    });
    const [proof, raw] = await proofAndRaw("data", audit.proof, events);
    // The log alone passes the verifier (the rewrite is consistent); the seat's proof does not.
    expect((await runVerifier([raw!])).code).toBe(0);
    const checked = await runVerifier(["--proof", proof!, raw!]);
    expect(checked.stdout).toContain(
      `FAIL seq ${concordSeq}: the log differs in data from what the server showed concord`,
    );
    expect(checked.code).toBe(1);
    // Against the log as it was, the same proof holds: a proof cannot accuse an honest log.
    const [, honest] = await proofAndRaw("honest", undefined, await server.engine.store.readAll(CAMPAIGN));
    expect(await runVerifier(["--proof", proof!, honest!])).toMatchObject({ code: 0 });
  });

  it("a recorded time moved (every time from it on, so that none goes back), the chain sealed again", async () => {
    const later = (at: string) => new Date(Date.parse(at) + 3_600_000).toISOString();
    const events = rewritten(await server.engine.store.readAll(CAMPAIGN), (event) =>
      event.seq >= concordSeq ? { ...event, at: later(event.at) } : event,
    );
    const audit = await auditAsServed(events);
    expect(audit.differs?.seq).toBe(concordSeq);
    expect(audit.differs?.what).toMatch(/as served has at /);
    const [proof, raw] = await proofAndRaw("time", audit.proof, events);
    expect((await runVerifier([raw!])).code).toBe(0);
    expect(await runVerifier(["--proof", proof!, raw!])).toMatchObject({
      code: 1,
      stdout: expect.stringContaining(
        `FAIL seq ${concordSeq}: the log differs in at from what the server showed concord`,
      ),
    });
  });

  it("a proof whose receipt was not signed by the server key it names is refused", async () => {
    const events = rewritten(await server.engine.store.readAll(CAMPAIGN), (event) =>
      event.seq === concordSeq ? { ...event, at: "2099-01-01T00:00:00.000Z" } : event,
    );
    const { proof } = await auditAsServed(events);
    const forged = { ...proof!, serverKey: (await newSeatKey()).publicKey };
    const [path, raw] = await proofAndRaw("forged", forged, events);
    expect(await runVerifier(["--proof", path!, raw!])).toMatchObject({
      code: 1,
      stdout: expect.stringContaining("is not signed by the server key it names"),
    });
  });
});

describe("several receipts", () => {
  it("an event rewritten under the first receipt is named, not the range a later receipt's head alone shows", async () => {
    const honest = await server.engine.store.readAll(CAMPAIGN);
    const kept = await book.read();
    const first = receiptTextOf(kept.receipts[0]!.receipt);
    // A later checkpoint at the head, as the answer to a later command would give it (its signature is not audited
    // here: the receipt was checked when it came).
    const context = logViewContext(honest.map(toCurrent));
    const chain = new ViewChain("concord", sealedContext(context.state), first.seq, first.view);
    const entries = chain.advance(honest.map((event) => viewEvent(event, "concord", context)));
    expect(entries.length).toBeGreaterThan(0);
    const later = { ...first, from: { seq: first.seq, view: first.view }, seq: chain.seq, view: chain.head };
    const receipts = [...kept.receipts, { receipt: { signed: canonicalJson(later), signature: "" }, entries }];
    expect(await auditAsServed(honest, { ...kept, receipts })).toMatchObject({ receipts: 2, differs: undefined });
    const events = rewritten(honest, (event) =>
      event.seq === concordSeq ? { ...event, at: "2099-01-01T00:00:00.000Z" } : event,
    );
    const audit = await auditAsServed(events, { ...kept, receipts });
    expect(audit.differs).toEqual({ seq: concordSeq, what: expect.stringMatching(/as served has at "2099-01-01/) });
    expect(audit.proof?.receipt).toEqual(kept.receipts[0]!.receipt);
  });
});

describe("`audit --as SEAT --db DIR`: a campaign in a local store against the seat's receipts file", () => {
  /** A copy of the server's database, its log rewritten by `edit` (the chain sealed again) unless none is given. */
  async function localCopy(edit?: (event: StoredEvent) => StoredEvent): Promise<string> {
    const db = await copyOf(join(server.dir, "db"));
    if (!edit) return db;
    await storeRewritten(db, CAMPAIGN, rewritten(await server.engine.store.readAll(CAMPAIGN), edit));
    return db;
  }

  it("the log as stored: every receipt checked, exit 0", async () => {
    const db = await localCopy();
    const run = await runInProcess(["audit", "--db", db, "--as", "concord", "--secrets", dir]);
    expect(run.stdout).toContain("view of concord: 1 receipts checked (1 events they showed), latest checkpoint seq");
    expect(run.code).toBe(0);
    await rm(dirname(db), { recursive: true, force: true });
  });

  it("a recorded time rewritten: the event named, its proof written, and the verifier fails it there", async () => {
    const db = await localCopy((event) =>
      event.seq === concordSeq ? { ...event, at: "2099-01-01T00:00:00.000Z" } : event,
    );
    const proofPath = join(dir, "local-proof.json");
    const run = await runInProcess(["audit", "--db", db, "--as", "concord", "--secrets", dir, "--proof", proofPath]);
    expect(run.stdout).toContain(
      `FAIL view at seq ${concordSeq}: event ${concordSeq} (PlayerSeedCommitted) as served has at`,
    );
    expect(run.stdout).toContain(`proof written to ${proofPath}`);
    expect(run.code).toBe(2);
    expect(await runVerifier(["--proof", proofPath])).toMatchObject({
      code: 1,
      stdout: expect.stringContaining(`FAIL seq ${concordSeq}`),
    });
    // A seat that kept no receipt has nothing to prove with.
    const none = await runInProcess(["audit", "--db", db, "--as", "horde", "--secrets", dir, "--proof", proofPath]);
    expect(none.stderr).toContain(`--proof: ${join(dir, CAMPAIGN, "horde.receipts.json")} holds no receipt of horde's`);
    expect(none.code).not.toBe(0);
    await rm(dirname(db), { recursive: true, force: true });
  });
});

describe("a withheld command", () => {
  it("sent, never answered and not in the log: `audit` against the server lists it with its signature, exit 2", async () => {
    const key = await newSeatKey();
    const command = { actor: "concord", type: "ProposeScenario", battle: "b1", scenario: "breakout" };
    const point = { campaign: CAMPAIGN, line: CAMPAIGN, seq: concordSeq, view: null };
    const value = await signText(key, signedText(point, command));
    await book.update((kept) =>
      kept.unreceipted.push({
        line: CAMPAIGN,
        expectedSeq: concordSeq,
        commands: [{ ...command, signature: { seq: concordSeq, view: null, value } }],
        sentAt: "2026-11-28T12:00:00.000Z",
      }),
    );
    const run = await runInProcess(["audit", "--server", url, "--token", server.tokens["concord"]!, "--secrets", dir]);
    expect(run.stdout).toContain("view of concord: 1 receipts checked (1 events they showed)");
    expect(run.stdout).toContain(
      `WITHHELD: ProposeScenario signed ${value} sent at 2026-11-28T12:00:00.000Z on seq ${concordSeq}, not in the log`,
    );
    expect(run.code).toBe(2);
    expect(JSON.parse(await readFile(receiptsPath(dir, CAMPAIGN, "concord"), "utf8"))).toMatchObject({
      unreceipted: [{ commands: [{ signature: { value } }] }],
    });
  });
});
