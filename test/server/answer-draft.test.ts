/**
 * A command's answer is worked out while its batch is flushed to disk (src/server/routes-commands.ts, draftAnswer):
 * the seat's view chain and the line's view context advanced on copies, the events as the seat sees them, the receipt
 * signed. It must be the answer the log gives once written, and nothing of it may stay when the write fails.
 */
import { setTimeout } from "node:timers/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { toCurrent } from "../../events/index.js";
import { eventsAsSeen, stateAsSeen } from "../../replays/as-seen.js";
import { nextDecision } from "../../src/demo/play.js";
import { LineContexts } from "../../src/server/line-contexts.js";
import { ViewChains } from "../../src/server/view-chains.js";
import { logViewContext } from "../../src/views/log.js";
import { auth, CAMPAIGN, PlayerClient, startTestServer, type TestServer } from "./support.js";

let server: TestServer | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
});

interface Answer {
  seq: number;
  events: unknown[];
  receipt: { signed: string };
}

/**
 * What the log says a seat's answer after `from` up to `seq` is (its events as seen, as JSON), its view head, and the
 * body of GET /state then, key order included.
 */
async function fromTheLog(served: TestServer, seat: string, from: number, seq: number) {
  const all = await served.engine.store.readAll(CAMPAIGN, 1, seq);
  const context = logViewContext(all.map(toCurrent));
  return {
    events: JSON.stringify(eventsAsSeen(all.slice(from), seat, context)),
    view: (await new ViewChains(served.engine).at(CAMPAIGN, seat, seq)).head,
    state: JSON.stringify({ seq, state: stateAsSeen(context, seat, {}) }),
  };
}

/** The body of GET /state as a seat reads it now. */
async function servedState(served: TestServer, seat: string): Promise<string> {
  const response = await served.app.inject({
    method: "GET",
    url: `/campaigns/${CAMPAIGN}/state`,
    headers: auth(served.tokens[seat]!),
  });
  return response.body;
}

describe("an answer worked out while its batch is written", () => {
  it("is the answer the log gives, battles resolved too, and is not worked out again once the batch is written", async () => {
    const served = (server = await startTestServer());
    const players = new Map(["concord", "horde"].map((player) => [player, new PlayerClient(served, player)]));
    const contextReads = vi.spyOn(LineContexts.prototype, "now");
    // The context is asked after the write with the events written; the draft asks only for the line's start.
    const afterWrite = { calls: () => contextReads.mock.calls.filter((call) => call.length > 1) };
    const chainReads = vi.spyOn(ViewChains.prototype, "at");
    let answered = 0;
    let battles = 0;
    // Until a battle has been resolved (its batch judged between events, A6), and at most six turns.
    while (battles === 0 && (await served.engine.state(CAMPAIGN)).turn <= 6) {
      // Each player's chores in turn until none is due: one player's (a seed) can make the other's due.
      for (let took = true; took;) {
        took = false;
        for (const player of players.values()) {
          contextReads.mockClear();
          chainReads.mockClear();
          const responses = await player.takeChores();
          const reads = { chains: chainReads.mock.calls.length, contexts: afterWrite.calls() };
          for (const response of responses) {
            const answer = response.json<Answer>();
            const signed = JSON.parse(answer.receipt.signed) as { view: string; from: { seq: number } };
            const log = await fromTheLog(served, player.player, signed.from.seq, answer.seq);
            expect(JSON.stringify(answer.events)).toBe(log.events);
            expect(signed.view).toBe(log.view);
            answered++;
            took = true;
          }
          // Each command read its seat's chain once, where it was decided, and the line's context not at all.
          expect(reads).toEqual({ chains: responses.length, contexts: [] });
        }
      }
      const command = nextDecision(await served.engine.state(CAMPAIGN));
      if (!command) break;
      const { actor, ...rest } = command;
      contextReads.mockClear();
      chainReads.mockClear();
      const response = await players.get(actor)!.submit(rest);
      expect(response.statusCode).toBe(200);
      expect({ chains: chainReads.mock.calls.length, contexts: afterWrite.calls() }).toEqual({
        chains: 1,
        contexts: [],
      });
      const answer = response.json<Answer>();
      const signed = JSON.parse(answer.receipt.signed) as { view: string; from: { seq: number } };
      const log = await fromTheLog(served, actor, signed.from.seq, answer.seq);
      expect(JSON.stringify(answer.events)).toBe(log.events);
      expect(signed.view).toBe(log.view);
      // The line's context the answer left behind is the log's: the state it serves, as the log gives it.
      expect(await servedState(served, actor)).toBe(log.state);
      answered++;
      if (answer.events.some((event) => (event as { type: string }).type === "BattleResolved")) battles++;
    }
    expect(battles).toBeGreaterThan(0);
    expect(answered).toBeGreaterThan(10);
  });

  it("leaves nothing behind when the write fails: the command sent again is answered from the log as it stands", async () => {
    const served = (server = await startTestServer());
    const concord = new PlayerClient(served, "concord");
    const { store } = served.engine;
    interface Batch {
      write(options?: object): Promise<void>;
      close(): Promise<void>;
    }
    const db = (store as unknown as { db: { batch: (...args: unknown[]) => Batch } }).db;
    const batch = db.batch.bind(db);
    let failed = 0;
    // The disk refuses the next append (a chained batch) once the server has had time to work out its answer.
    db.batch = (...args) => {
      if (args.length > 0) return batch(...args);
      db.batch = batch;
      const refused = batch();
      refused.write = async () => {
        failed++;
        await refused.close();
        await setTimeout(20);
        throw Object.assign(new Error("no space left on device"), { code: "ENOSPC" });
      };
      return refused;
    };
    const head = (await store.head(CAMPAIGN)).seq;
    const refused = await concord.submit({ type: "CommitSeed" });
    expect(failed).toBe(1);
    expect(refused.statusCode).toBeGreaterThanOrEqual(500);
    expect((await store.head(CAMPAIGN)).seq).toBe(head);
    // The server reopens the log; then the seed commitment lands, its answer and receipt the log's.
    await vi.waitFor(() => expect(store.failure).toBeUndefined(), { timeout: 5_000, interval: 50 });
    const landed = await concord.submit({ type: "CommitSeed" });
    expect(landed.statusCode).toBe(200);
    const answer = landed.json<Answer>();
    const signed = JSON.parse(answer.receipt.signed) as { view: string; from: { seq: number; view: string } };
    expect(signed.from).toEqual({
      seq: head,
      view: (await new ViewChains(served.engine).at(CAMPAIGN, "concord", head)).head,
    });
    const log = await fromTheLog(served, "concord", head, answer.seq);
    expect(JSON.stringify(answer.events)).toBe(log.events);
    expect(signed.view).toBe(log.view);
    expect(await servedState(served, "concord")).toBe(log.state);
  });
});
