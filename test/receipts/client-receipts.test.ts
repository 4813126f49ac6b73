import { afterEach, describe, expect, it } from "vitest";
import { ReceiptError, type TextVerifier } from "../../src/crypto/receipts.js";
import { verifySignature } from "../../src/crypto/verify-node.js";
import { newSeatKey } from "../../src/crypto/signatures.js";
import { nodeSigner } from "../../src/crypto/sign-node.js";
import { nodeHttpTransport } from "../../src/client/http-transport.js";
import { latestCheckpoint, MemoryReceiptBook } from "../../src/client/receipts.js";
import { RemoteCampaign } from "../../src/client/remote.js";
import { ServerConnection } from "../../src/client/server.js";
import { StubServer } from "../remote/stub-server.js";

const stubs: StubServer[] = [];
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((stub) => stub.close()));
});

async function concord(verify?: TextVerifier) {
  const stub = await StubServer.ashfall();
  stubs.push(stub);
  const book = new MemoryReceiptBook();
  const handler = new RemoteCampaign(
    new ServerConnection(stub.url, stub.token("concord"), nodeHttpTransport),
    undefined,
    false,
    book,
    verify,
  );
  await handler.state(stub.campaign);
  return { stub, book, handler };
}

const commit = { actor: "concord", type: "CommitSeed", seedHash: "ab".repeat(32) };

describe("a client checks every receipt and keeps it, and keeps every command sent without one", () => {
  it("keeps the server's key, each receipt with the entries its answer showed, and no command left unreceipted", async () => {
    const { stub, book, handler } = await concord();
    expect(await handler.execute(stub.campaign, [commit])).toMatchObject({ ok: true });
    const refused = await handler.execute(stub.campaign, [{ ...commit, seedHash: "cd".repeat(32) }]);
    expect(refused).toMatchObject({ ok: false, refusal: { kind: "rule" } });
    const kept = await book.read();
    expect(kept.serverKey).toBe(stub.serverKey.publicKey);
    expect(kept.unreceipted).toEqual([]);
    expect(kept.receipts).toHaveLength(2);
    expect(kept.receipts[0]!.entries.map((e) => `${e.seq} ${e.type}`)).toEqual([
      `${stub.events.length} PlayerSeedCommitted`,
    ]);
    expect(latestCheckpoint(kept, stub.campaign)).toMatchObject({ seq: stub.events.length, accepted: null });
  });

  it.each([
    ["Web Crypto's", undefined],
    ["node:crypto's (the CLI's)", verifySignature],
  ])(
    "refuses a receipt not signed by the server's pinned key, checked with %s verification, and keeps the command as sent without a receipt",
    async (_how, verify) => {
      const { stub, book, handler } = await concord(verify);
      expect(await handler.execute(stub.campaign, [commit])).toMatchObject({ ok: true });
      expect((await book.read()).receipts).toHaveLength(1);
      const before = (await book.read()).unreceipted;
      stub.serverKey = { ...stub.serverKey, sign: nodeSigner(await newSeatKey()) };
      await expect(handler.execute(stub.campaign, [commit])).rejects.toThrow(ReceiptError);
      await expect(handler.execute(stub.campaign, [commit])).rejects.toThrow(/not signed by the server's key/);
      const kept = await book.read();
      expect(kept.receipts).toHaveLength(1);
      expect(before).toEqual([]);
      expect(kept.unreceipted.map((sent) => sent.commands)).toEqual([[commit], [commit]]);
    },
  );

  it("refuses a receipt whose view head the answer's events do not reach (an event shown otherwise than signed)", async () => {
    const { stub, book, handler } = await concord();
    // The server signs the view it keeps, but shows the seat another recorded time for the event it wrote.
    stub.showAt = "2030-01-01T00:00:00.000Z";
    await expect(handler.execute(stub.campaign, [commit])).rejects.toThrow(/do not reach the view head/);
    expect((await book.read()).unreceipted).toHaveLength(1);
  });
});
