import { afterEach, describe, expect, it } from "vitest";
import type { NewEvent, StoredEvent } from "../../events/index.js";
import { AppendConflictError, EventStore, InvalidEventError, verifyStream } from "../../src/log/index.js";
import { tempDir } from "../support/tmp.js";
import { deployed, deployedBatch, GENESIS, range } from "./helpers.js";

const open: EventStore[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((store) => store.close()));
});

async function openStore(): Promise<EventStore> {
  const store = await EventStore.open(await tempDir());
  open.push(store);
  return store;
}

function rejectedWith(results: PromiseSettledResult<unknown>[]): unknown[] {
  return results.flatMap((result) => (result.status === "rejected" ? [result.reason] : []));
}

describe("racing appends", () => {
  it("of 50 appends with the same expectedSeq exactly one batch is written and the other 49 conflict", async () => {
    const store = await openStore();
    // Every racer brings a batch of 3 events with its own actor, so the winner is recognisable in the log.
    const results = await Promise.allSettled(
      range(0, 49).map((racer) => store.append("c1", 0, deployedBatch(1, 3, `p${racer}`))),
    );
    const won = results.flatMap((result, racer) =>
      result.status === "fulfilled" ? [{ racer, stored: result.value }] : [],
    );
    expect(won).toHaveLength(1);
    const errors = rejectedWith(results);
    expect(errors).toHaveLength(49);
    for (const error of errors) {
      expect(error).toBeInstanceOf(AppendConflictError);
      expect(error).toMatchObject({ stream: "c1", expectedSeq: 0, actualSeq: 3 });
    }
    const { racer, stored } = won[0]!;
    expect(stored.map((event) => event.seq)).toEqual([1, 2, 3]);
    const log = await store.readAll("c1");
    expect(log).toEqual(stored);
    expect(log.every((event) => event.actor === `p${racer}`)).toBe(true);
    expect(await store.storedHead("c1")).toEqual({ seq: 3, hash: stored[2]!.hash });
    expect(await verifyStream(store, "c1")).toEqual({ ok: true, stream: "c1", events: 3, headHash: stored[2]!.hash });
  });

  it("lets exactly one racer win each round when every round races on the head the last round left", async () => {
    const store = await openStore();
    let head = 0;
    for (let round = 0; round < 10; round++) {
      const size = 1 + (round % 3);
      const results = await Promise.allSettled(
        range(0, 19).map((racer) => store.append("c1", head, deployedBatch(head + 1, size, `r${round}p${racer}`))),
      );
      expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
      for (const error of rejectedWith(results))
        expect(error).toMatchObject({ name: "AppendConflictError", expectedSeq: head, actualSeq: head + size });
      head += size;
      expect((await store.storedHead("c1")).seq).toBe(head);
    }
    const log = await store.readAll("c1");
    expect(log.map((event) => event.seq)).toEqual(range(1, head));
    expect(await verifyStream(store, "c1")).toMatchObject({ ok: true, events: head });
  });

  it("writes appends issued without awaiting, each expecting the seq the previous ones will leave, in call order", async () => {
    const store = await openStore();
    const sizes = range(0, 99).map((i) => 1 + ((i * 7) % 4));
    let expected = 0;
    const calls: Array<{ expectedSeq: number; events: NewEvent[]; result: Promise<StoredEvent[]> }> = [];
    for (const [i, size] of sizes.entries()) {
      const events = deployedBatch(expected + 1, size, `w${i}`);
      calls.push({ expectedSeq: expected, events, result: store.append("c1", expected, events) });
      expected += size;
    }
    const results = await Promise.all(calls.map((call) => call.result));
    for (const [i, stored] of results.entries()) {
      const call = calls[i]!;
      expect(stored.map((event) => event.seq)).toEqual(
        range(call.expectedSeq + 1, call.expectedSeq + call.events.length),
      );
      expect(stored.map(({ type, version, at, actor, data }) => ({ type, version, at, actor, data }))).toEqual(
        call.events,
      );
    }
    const log = await store.readAll("c1");
    expect(log).toEqual(results.flat());
    expect(log[0]!.prev).toBe(GENESIS);
    expect(await store.storedHead("c1")).toEqual({ seq: expected, hash: log.at(-1)!.hash });
    expect(await verifyStream(store, "c1")).toMatchObject({ ok: true, events: expected });
  });

  it("keeps each stream's chain valid when pipelined appends to several streams interleave", async () => {
    const store = await openStore();
    const streams = ["c1", "c2", "c3"];
    const next = new Map(streams.map((stream) => [stream, 0]));
    const pending: Array<Promise<StoredEvent[]>> = [];
    for (let i = 0; i < 90; i++) {
      const stream = streams[(i * 5) % 3]!;
      const seq = next.get(stream)!;
      const size = 1 + (i % 2);
      pending.push(store.append(stream, seq, deployedBatch(seq + 1, size, stream)));
      next.set(stream, seq + size);
    }
    await Promise.all(pending);
    for (const stream of streams) {
      const log = await store.readAll(stream);
      expect(log.map((event) => event.seq)).toEqual(range(1, next.get(stream)!));
      expect(log.every((event) => event.actor === stream && event.stream === stream)).toBe(true);
      expect(await verifyStream(store, stream)).toMatchObject({ ok: true, events: next.get(stream)! });
    }
  });

  it("does not let a refused append in a pipeline consume a seq or stop the appends queued after it", async () => {
    const store = await openStore();
    const first = store.append("c1", 0, [deployed(1)]);
    const invalid = store.append("c1", 1, [deployed(2), { ...deployed(3), actor: "not an id" }]);
    const stale = store.append("c1", 0, [deployed(4)]);
    const second = store.append("c1", 1, [deployed(5)]);
    const third = store.append("c1", 2, deployedBatch(6, 2));
    const [a, b, c, d, e] = await Promise.allSettled([first, invalid, stale, second, third]);
    expect(a).toMatchObject({ status: "fulfilled" });
    expect(b).toMatchObject({ status: "rejected", reason: expect.any(InvalidEventError) });
    expect(c).toMatchObject({ status: "rejected", reason: expect.any(AppendConflictError) });
    expect(d).toMatchObject({ status: "fulfilled" });
    expect(e).toMatchObject({ status: "fulfilled" });
    const log = await store.readAll("c1");
    expect(log.map((event) => (event.data as { army: string }).army)).toEqual(["a1", "a5", "a6", "a7"]);
    expect(await verifyStream(store, "c1")).toMatchObject({ ok: true, events: 4 });
  });
});
