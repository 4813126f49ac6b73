import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkReceipt, ReceiptError, type Receipt } from "../../src/crypto/receipts.js";
import { newSeatKey, signText } from "../../src/crypto/signatures.js";
import { sealedContext, ViewChain } from "../../src/views/chain.js";
import type { PlayerEvent } from "../../src/views/view.js";
import { auth, CAMPAIGN, headSeq, PlayerClient, startTestServer, type TestServer } from "../server/support.js";

let server: TestServer;
let serverKey: string;
beforeAll(async () => {
  server = await startTestServer();
  const answer = await server.app.inject({ method: "GET", url: "/server-key" });
  serverKey = answer.json<{ publicKey: string }>().publicKey;
});
afterAll(() => server.close());

const line = { campaign: CAMPAIGN, line: CAMPAIGN };
const servedLog = async (seat: string) =>
  (
    await server.app.inject({ method: "GET", url: `/campaigns/${CAMPAIGN}/log`, headers: auth(server.tokens[seat]!) })
  ).json<{ seq: number; events: PlayerEvent[] }>();

describe("receipts: every answer to a command is signed by the server's key, over the seat's view chain", () => {
  it("publishes the server's key to any caller, and signs an accepted command's answer over the seat's view head", async () => {
    expect(serverKey).toMatch(/^[0-9a-f]{64}$/);
    const [answer] = await new PlayerClient(server, "concord").takeChores();
    const body = answer!.json<{ seq: number; events: PlayerEvent[]; receipt: Receipt }>();
    const text = await checkReceipt(serverKey, body.receipt, {
      ...line,
      seat: "concord",
      accepted: true,
      seq: body.seq,
    });
    expect(text.accepted).toEqual({ from: body.events[0]!.seq, to: body.events[0]!.seq });
    expect(text.refused).toBeNull();
    // The head the server signed is the one the seat computes from the log as served to it (hidden fields and all)
    // and the one anyone computes from the log as stored.
    const state = await server.engine.state(CAMPAIGN);
    const fromServed = new ViewChain("concord", sealedContext(state));
    fromServed.advance((await servedLog("concord")).events);
    const fromStored = new ViewChain("concord", sealedContext(state));
    fromStored.advance(await server.engine.store.readAll(CAMPAIGN));
    expect({ seq: fromServed.seq, head: fromServed.head }).toEqual({ seq: text.seq, head: text.view });
    expect(fromStored.head).toBe(text.view);
    // Another seat's chain differs: the other side's commanders are hidden from each.
    const horde = new ViewChain("horde", sealedContext(state));
    horde.advance(await server.engine.store.readAll(CAMPAIGN));
    expect(horde.head).not.toBe(text.view);
  });

  it("signs a refusal over the commands sent, the reason and the seat's view head, the log left as it was", async () => {
    const before = await headSeq(server);
    const commands = [{ actor: "horde", type: "CommitSeed", seedHash: "not hex" }];
    const answer = await server.app.inject({
      method: "POST",
      url: `/campaigns/${CAMPAIGN}/commands`,
      headers: auth(server.tokens["horde"]!),
      payload: { expectedSeq: before, commands },
    });
    expect(answer.statusCode).toBe(400);
    const body = answer.json<{ error: string; message: string; receipt: Receipt }>();
    const text = await checkReceipt(serverKey, body.receipt, { ...line, seat: "horde", accepted: false });
    expect(text.refused).toEqual({ commands, error: "invalid", message: body.message });
    expect(text.seq).toBe(before);
    const chain = new ViewChain("horde", sealedContext(await server.engine.state(CAMPAIGN)));
    chain.advance((await servedLog("horde")).events);
    expect(chain.head).toBe(text.view);
    expect(await headSeq(server)).toBe(before);
  });

  it("a receipt changed, or signed by another key, is refused", async () => {
    const [answer] = await new PlayerClient(server, "horde").takeChores();
    const { receipt, seq } = answer!.json<{ seq: number; receipt: Receipt }>();
    const expected = { ...line, seat: "horde", accepted: true, seq };
    await expect(checkReceipt(serverKey, receipt, expected)).resolves.toMatchObject({ seq });
    const moved = receipt.signed.replace(`"seq":${seq}`, `"seq":${seq + 1}`);
    await expect(checkReceipt(serverKey, { ...receipt, signed: moved }, { ...expected, seq: seq + 1 })).rejects.toThrow(
      ReceiptError,
    );
    const other = await newSeatKey();
    const forged = { signed: receipt.signed, signature: await signText(other, receipt.signed) };
    await expect(checkReceipt(serverKey, forged, expected)).rejects.toThrow(/not signed by the server's key/);
    await expect(checkReceipt(serverKey, receipt, { ...expected, seat: "concord" })).rejects.toThrow(/seat/);
  });
});
