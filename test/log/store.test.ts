import type { Observable, Subscription } from "rxjs";
import { afterEach, describe, expect, it } from "vitest";
import type { NewEvent, StoredEvent } from "../../events/index.js";
import { AppendConflictError, EventStore, InvalidEventError, verifyStream } from "../../src/log/index.js";
import { tempDir } from "../support/tmp.js";
import { AT, bodyOf, deployed, deployedBatch, fill, GENESIS, openRaw, range, rawKey, sha256 } from "./helpers.js";

const open: EventStore[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((store) => store.close().catch(() => undefined)));
});

async function openStore(dir?: string, options?: { sync?: boolean }): Promise<{ store: EventStore; dir: string }> {
  const folder = dir ?? (await tempDir());
  const store = await EventStore.open(folder, options);
  open.push(store);
  return { store, dir: folder };
}

async function closeStore(store: EventStore): Promise<void> {
  open.splice(open.indexOf(store), 1);
  await store.close();
}

/** Subscribes and records every delivered event; `until(seq)` resolves once that seq has arrived. */
function collect(source: Observable<StoredEvent>) {
  const events: StoredEvent[] = [];
  const waiters: Array<{ seq: number; resolve: () => void }> = [];
  let completed = false;
  let failure: unknown;
  const wake = () => {
    for (const waiter of waiters.splice(0)) {
      if (completed || events.some((event) => event.seq >= waiter.seq)) waiter.resolve();
      else waiters.push(waiter);
    }
  };
  const subscription: Subscription = source.subscribe({
    next: (event) => {
      events.push(event);
      wake();
    },
    error: (error: unknown) => {
      failure = error;
      completed = true;
      wake();
    },
    complete: () => {
      completed = true;
      wake();
    },
  });
  return {
    events,
    seqs: () => events.map((event) => event.seq),
    get completed() {
      return completed;
    },
    get failure() {
      return failure;
    },
    subscription,
    until: (seq: number) =>
      new Promise<void>((resolve) => {
        waiters.push({ seq, resolve });
        wake();
      }),
  };
}

describe("append and read", () => {
  it("a stream with no events has seq 0, the genesis hash and reads as empty", async () => {
    const { store } = await openStore();
    expect(await store.head("c1")).toEqual({ seq: 0, hash: GENESIS });
    expect(await store.storedHead("c1")).toEqual({ seq: 0, hash: GENESIS });
    expect(await store.readAll("c1")).toEqual([]);
    expect(await store.streams()).toEqual([]);
  });

  it("returns the stored events numbered from 1, and readAll gives back exactly those events", async () => {
    const { store } = await openStore();
    const first = await store.append("c1", 0, [deployed(1, "p1"), deployed(2, "p2")]);
    const second = await store.append("c1", 2, [deployed(3, "host", "2026-05-06T07:08:09+02:00")]);
    expect(first.map((event) => event.seq)).toEqual([1, 2]);
    expect(second.map((event) => event.seq)).toEqual([3]);
    for (const event of [...first, ...second]) expect(event.stream).toBe("c1");
    expect(second[0]).toMatchObject({
      type: "ArmyDeployed",
      version: 1,
      actor: "host",
      at: "2026-05-06T07:08:09+02:00",
      data: { army: "a3", at: [3, 21] },
    });
    expect(await store.readAll("c1")).toEqual([...first, ...second]);
    expect(await store.readAll("c1", 2)).toEqual([first[1], second[0]]);
    expect(await store.readAll("c1", 2, 2)).toEqual([first[1]]);
    expect(await store.readAll("c1", 4)).toEqual([]);
  });

  it("moves the head, cached and stored, to the last seq and hash of each append", async () => {
    const { store } = await openStore();
    const stored = await store.append("c1", 0, deployedBatch(1, 3));
    const head = { seq: 3, hash: stored[2]!.hash };
    expect(await store.head("c1")).toEqual(head);
    expect(await store.storedHead("c1")).toEqual(head);
    expect(await store.streams()).toEqual(["c1"]);
  });

  it("chains hashes from the genesis value, each the sha256 of the canonical envelope without its hash", async () => {
    const { store } = await openStore();
    await store.append("c1", 0, [deployed(1)]);
    await store.append("c1", 1, [
      { type: "HomeBasePlaced", version: 1, at: AT, actor: "p2", data: { at: [4, 0], player: "p2" } },
      { type: "CampaignStarted", version: 1, at: AT, actor: "host", data: { turn: 1 } },
    ]);
    const events = await store.readAll("c1");
    expect(events).toHaveLength(3);
    let prev = GENESIS;
    for (const event of events) {
      expect(event.prev).toBe(prev);
      expect(event.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(event.hash).toBe(sha256(bodyOf(event)));
      prev = event.hash;
    }
    expect(events[0]!.prev).toBe(GENESIS);
    expect((await store.head("c1")).hash).toBe(prev);
  });

  it("stores each value as the hash followed by the exact canonical bytes it covers, and the head as JSON", async () => {
    const { store, dir } = await openStore();
    const stored = await store.append("c1", 0, deployedBatch(1, 2));
    await closeStore(store);
    const raw = await openRaw(dir);
    try {
      for (const event of stored) {
        const value = await raw.events.get(rawKey("c1", event.seq));
        expect(value).toBe(event.hash + bodyOf(event));
        expect(sha256(value!.slice(64))).toBe(event.hash);
      }
      expect(JSON.parse((await raw.heads.get("c1"))!)).toEqual({ seq: 2, hash: stored[1]!.hash });
      expect(await raw.events.keys().all()).toEqual([rawKey("c1", 1), rawKey("c1", 2)]);
    } finally {
      await raw.db.close();
    }
  });

  it("stores events with sync relaxed, per store or per append, the same way", async () => {
    const { store, dir } = await openStore(undefined, { sync: false });
    const first = await store.append("c1", 0, deployedBatch(1, 2));
    const second = await store.append("c1", 2, deployedBatch(3, 2), { sync: true });
    const third = await store.append("c1", 4, deployedBatch(5, 1), { sync: false });
    await closeStore(store);
    const { store: reopened } = await openStore(dir);
    expect(await reopened.readAll("c1")).toEqual([...first, ...second, ...third]);
    expect(await verifyStream(reopened, "c1")).toMatchObject({ ok: true, events: 5 });
  });
});

describe("refused appends write nothing", () => {
  const valid = deployed(9);
  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ["data of the wrong shape", { ...valid, data: { army: "a1", at: [1] } }, "ArmyDeployed.data.at"],
    [
      "data with a coordinate out of range",
      { ...valid, data: { army: "a1", at: [1, 1000] } },
      "ArmyDeployed.data.at[1]",
    ],
    ["data with an unknown field", { ...valid, data: { army: "a1", at: [1, 2], speed: 3 } }, "ArmyDeployed.data.speed"],
    ["data missing a field", { ...valid, data: { at: [1, 2] } }, "ArmyDeployed.data.army"],
    ["data with an id that is not an Id", { ...valid, data: { army: "a 1", at: [1, 2] } }, "ArmyDeployed.data.army"],
    ["an unknown type", { ...valid, type: "ArmyTeleported" }, "type"],
    ["a type name outside the pattern", { ...valid, type: "armyDeployed" }, "event.type"],
    ["a version the engine does not write", { ...valid, version: 2 }, "version"],
    ["a version that is not a positive integer", { ...valid, version: 0 }, "event.version"],
    ["an empty actor", { ...valid, actor: "" }, "event.actor"],
    ["an actor with a space", { ...valid, actor: "p 1" }, "event.actor"],
    ["an actor that is not a string", { ...valid, actor: 7 }, "event.actor"],
    ["`at` that is not a date-time", { ...valid, at: "yesterday" }, "event.at"],
    ["`at` that is a date without a time", { ...valid, at: "2026-01-01" }, "event.at"],
    ["`at` without a time zone", { ...valid, at: "2026-01-01T00:00:00" }, "event.at"],
    ["`at` in month 13", { ...valid, at: "2026-13-01T00:00:00Z" }, "event.at"],
    ["`at` on 30 February", { ...valid, at: "2026-02-30T00:00:00Z" }, "event.at"],
    ["`at` at hour 25", { ...valid, at: "2026-01-01T25:00:00Z" }, "event.at"],
    ["`at` that is a number", { ...valid, at: 1767225600000 }, "event.at"],
    ["a missing `at`", { type: valid.type, version: 1, actor: "p1", data: valid.data }, "event.at"],
    ["an unknown envelope field", { ...valid, seq: 3 }, "event.seq"],
  ];

  it.each(invalid)(
    "refuses an event with %s with InvalidEventError, leaving head and log unchanged",
    async (_, bad, field) => {
      const { store } = await openStore();
      const before = await store.append("c1", 0, deployedBatch(1, 2));
      const head = await store.head("c1");
      const error = await store.append("c1", 2, [deployed(3), bad as NewEvent, deployed(4)]).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(InvalidEventError);
      expect(error).toMatchObject({ index: 1, field });
      expect(await store.head("c1")).toEqual(head);
      expect(await store.storedHead("c1")).toEqual(head);
      expect(await store.readAll("c1")).toEqual(before);
      // The refused batch used up no seq: the next append still follows seq 2.
      expect((await store.append("c1", 2, [deployed(5)]))[0]).toMatchObject({ seq: 3, prev: head.hash });
      expect(await verifyStream(store, "c1")).toMatchObject({ ok: true, events: 3 });
    },
  );

  it("reports an invalid event as a rejected promise, never as a synchronous throw", async () => {
    const { store } = await openStore();
    let result: Promise<unknown> | undefined;
    expect(() => {
      result = store.append("c1", 0, [{ ...deployed(1), version: 2 }]);
    }).not.toThrow();
    await expect(result).rejects.toBeInstanceOf(InvalidEventError);
    expect(await store.readAll("c1")).toEqual([]);
  });

  it("stores an event as it was when checked, even if the caller changes it before the write", async () => {
    const { store } = await openStore();
    const event = deployed(1) as NewEvent & { data: { army: string; at: unknown } };
    const pending = store.append("c1", 0, [event]);
    event.data.at = "nowhere";
    event.data.army = "a2";
    const [stored] = await pending;
    expect(stored!.data).toEqual({ army: "a1", at: [1, 7] });
    expect((await store.readAll("c1"))[0]!.data).toEqual({ army: "a1", at: [1, 7] });
    expect(await verifyStream(store, "c1")).toMatchObject({ ok: true, events: 1 });
  });

  it.each([
    ["behind the head", 1],
    ["ahead of the head", 5],
    ["negative", -1],
  ])("refuses an expectedSeq %s with AppendConflictError and writes nothing", async (_, expectedSeq) => {
    const { store } = await openStore();
    const before = await store.append("c1", 0, deployedBatch(1, 3));
    const head = await store.head("c1");
    const error = await store.append("c1", expectedSeq, [deployed(4)]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppendConflictError);
    expect(error).toMatchObject({ stream: "c1", expectedSeq, actualSeq: 3 });
    expect(await store.storedHead("c1")).toEqual(head);
    expect(await store.readAll("c1")).toEqual(before);
  });

  it("checks expectedSeq for an empty batch too, and writes nothing for it", async () => {
    const { store } = await openStore();
    await expect(store.append("c1", 0, [])).resolves.toEqual([]);
    expect(await store.streams()).toEqual([]);
    expect(await store.storedHead("c1")).toEqual({ seq: 0, hash: GENESIS });
    await expect(store.append("c1", 3, [])).rejects.toBeInstanceOf(AppendConflictError);
  });

  it("refuses a stream name that could be confused with another stream's keys", async () => {
    const { store } = await openStore();
    const own = await store.append("c1", 0, [deployed(1)]);
    for (const stream of ["c1#000000000002", "c1#x", "", "c 1", "c1~"]) {
      await expect(store.append(stream, 0, [deployed(2)])).rejects.toThrow(/stream/);
    }
    expect(await store.readAll("c1")).toEqual(own);
    expect(await store.streams()).toEqual(["c1"]);
    expect(await verifyStream(store, "c1")).toMatchObject({ ok: true, events: 1 });
  });
});

describe("streams and reopening", () => {
  it("keeps the events of several streams in one folder separate, each with its own seqs and chain", async () => {
    // Names chosen so that one is a prefix of others and they sort around the key separator.
    const streams = ["a", "a-b", "a.1", "a0", "aa", "A", "b", "a_"];
    const { store } = await openStore();
    const expected = new Map<string, StoredEvent[]>(streams.map((stream) => [stream, []]));
    for (let round = 0; round < 3; round++) {
      for (const [i, stream] of streams.entries()) {
        const mine = expected.get(stream)!;
        mine.push(
          ...(await store.append(
            stream,
            mine.length,
            deployedBatch(100 * i + mine.length, 1 + ((round + i) % 3), `p${i}`),
          )),
        );
      }
    }
    for (const stream of streams) {
      const mine = expected.get(stream)!;
      const read = await store.readAll(stream);
      expect(read).toEqual(mine);
      expect(read.map((event) => event.seq)).toEqual(range(1, mine.length));
      expect(read.every((event) => event.stream === stream)).toBe(true);
      expect(read[0]!.prev).toBe(GENESIS);
      expect(await store.storedHead(stream)).toEqual({ seq: mine.length, hash: mine.at(-1)!.hash });
      expect(await verifyStream(store, stream)).toEqual({
        ok: true,
        stream,
        events: mine.length,
        headHash: mine.at(-1)!.hash,
      });
    }
    expect((await store.streams()).sort()).toEqual([...streams].sort());
  });

  it("gives back the same events, heads and streams after the folder is closed and opened again, and appends on", async () => {
    const { store, dir } = await openStore();
    const c1 = await fill(store, "c1", 25, 4);
    const c2 = await store.append("c2", 0, deployedBatch(1, 2));
    const heads = { c1: await store.head("c1"), c2: await store.head("c2") };
    await closeStore(store);

    const { store: reopened } = await openStore(dir);
    expect(await reopened.readAll("c1")).toEqual(c1);
    expect(await reopened.readAll("c2")).toEqual(c2);
    expect(await reopened.head("c1")).toEqual(heads.c1);
    expect(await reopened.head("c2")).toEqual(heads.c2);
    expect((await reopened.streams()).sort()).toEqual(["c1", "c2"]);
    await expect(reopened.append("c1", 24, [deployed(99)])).rejects.toBeInstanceOf(AppendConflictError);
    const [next] = await reopened.append("c1", 25, [deployed(26)]);
    expect(next).toMatchObject({ seq: 26, prev: heads.c1.hash });
    expect(await verifyStream(reopened, "c1")).toMatchObject({ ok: true, events: 26 });
  });
});

describe("events$", () => {
  it("delivers the stored history and then each later append, in order, on one subscription", async () => {
    const { store } = await openStore();
    const history = await fill(store, "c1", 5, 2);
    const seen = collect(store.events$("c1"));
    await seen.until(5);
    expect(seen.events).toEqual(history);
    const later = await store.append("c1", 5, deployedBatch(6, 3));
    await seen.until(8);
    expect(seen.events).toEqual([...history, ...later]);
    seen.subscription.unsubscribe();
  });

  it("starts exactly at the requested seq, wherever that falls in the stored batches or beyond the head", async () => {
    const { store } = await openStore();
    // More than one read batch (1000) of history, appended in batches of 7 so that appends straddle every `from`.
    const history = await fill(store, "c1", 1500, 7, { sync: false });
    for (const from of [0, 1, 2, 6, 999, 1000, 1001, 1499, 1500, 1501, 1504]) {
      const seen = collect(store.events$("c1", from));
      const head = (await store.head("c1")).seq;
      await store.append("c1", head, deployedBatch(head + 1, 7));
      const last = head + 7;
      await seen.until(last);
      const start = Math.max(from, 1);
      expect(seen.seqs(), `from ${from}`).toEqual(range(start, last));
      if (start <= 1500) expect(seen.events.slice(0, 1500 - start + 1)).toEqual(history.slice(start - 1));
      seen.subscription.unsubscribe();
    }
  });

  it("neither skips nor repeats an event when appends race with its catch-up", async () => {
    const { store } = await openStore();
    await fill(store, "c1", 2500, 250, { sync: false });
    let head = 2500;
    const subscribers: Array<ReturnType<typeof collect>> = [];
    const appends: Array<Promise<StoredEvent[]>> = [];
    // Appends issued without waiting, a new subscriber joining after every few of them, while earlier ones catch up.
    for (let i = 0; i < 60; i++) {
      if (i % 5 === 0) subscribers.push(collect(store.events$("c1", 1 + ((i * 97) % 2000))));
      const size = 1 + (i % 3);
      appends.push(store.append("c1", head, deployedBatch(head + 1, size)));
      head += size;
      if (i % 4 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(appends);
    const all = await store.readAll("c1");
    expect(all).toHaveLength(head);
    for (const [n, seen] of subscribers.entries()) {
      const from = 1 + ((n * 5 * 97) % 2000);
      await seen.until(head);
      expect(seen.seqs(), `subscriber from ${from}`).toEqual(range(from, head));
      expect(seen.events).toEqual(all.slice(from - 1));
    }
    // One more append arrives once at every subscriber, with nothing repeated before it.
    await store.append("c1", head, [deployed(head + 1)]);
    for (const seen of subscribers) {
      await seen.until(head + 1);
      expect(seen.seqs().slice(-2)).toEqual([head, head + 1]);
      expect(new Set(seen.seqs()).size).toBe(seen.events.length);
      seen.subscription.unsubscribe();
    }
  });

  it("only delivers its own stream's events", async () => {
    const { store } = await openStore();
    await store.append("c1", 0, [deployed(1)]);
    await store.append("c2", 0, [deployed(2)]);
    const seen = collect(store.events$("c1"));
    await store.append("c2", 1, [deployed(3)]);
    await store.append("c1", 1, [deployed(4)]);
    await seen.until(2);
    expect(seen.events.map((event) => [event.stream, event.seq, event.data])).toEqual([
      ["c1", 1, { army: "a1", at: [1, 7] }],
      ["c1", 2, { army: "a4", at: [4, 28] }],
    ]);
    seen.subscription.unsubscribe();
  });

  it("stops delivering after unsubscribe, and completes its subscribers when the store closes", async () => {
    const { store } = await openStore();
    await store.append("c1", 0, [deployed(1)]);
    const gone = collect(store.events$("c1"));
    const stays = collect(store.events$("c1"));
    await gone.until(1);
    gone.subscription.unsubscribe();
    await store.append("c1", 1, [deployed(2)]);
    await stays.until(2);
    expect(gone.seqs()).toEqual([1]);
    expect(stays.seqs()).toEqual([1, 2]);
    expect(stays.completed).toBe(false);
    await closeStore(store);
    expect(stays.completed).toBe(true);
    expect(stays.failure).toBeUndefined();
  });

  it("tells its followers of an append after the append resolves, and of the last appends before the store closes", async () => {
    const { store } = await openStore();
    await store.append("c1", 0, [deployed(1)]);
    const seen = collect(store.events$("c1"));
    await seen.until(1);
    // The caller has its answer first; the followers are told in a task of their own.
    await store.append("c1", 1, [deployed(2)]);
    expect(seen.seqs()).toEqual([1]);
    await seen.until(2);
    // Closed right after an append: its followers are told of it before they are completed.
    void store.append("c1", 2, [deployed(3)]);
    await closeStore(store);
    expect(seen.seqs()).toEqual([1, 2, 3]);
    expect(seen.completed).toBe(true);
  });
});
