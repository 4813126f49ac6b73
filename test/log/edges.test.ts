/**
 * The log's edges: a head deleted or set back outside the engine, and reads of a log whose events were deleted,
 * swapped or re-hashed. Each store is written, closed, edited through LevelDB directly (as someone with the folder
 * would), then opened again.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { StoredEvent } from "../../events/index.js";
import { BranchError, CorruptEventError, EventExistsError, EventStore, verifyStream } from "../../src/log/index.js";
import { tempDir } from "../support/tmp.js";
import { bodyOf, deployedBatch, fill, openRaw, rawKey, sha256 } from "./helpers.js";

const STREAM = "c1";

const open: EventStore[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((store) => store.close().catch(() => undefined)));
});

async function reopen(dir: string): Promise<EventStore> {
  const store = await EventStore.open(dir, { sync: false });
  open.push(store);
  return store;
}

/** A folder holding `count` events of STREAM (and a few of another stream), closed. */
async function written(count: number): Promise<{ dir: string; stored: StoredEvent[] }> {
  const dir = await tempDir();
  const store = await EventStore.open(dir, { sync: false });
  try {
    const stored = await fill(store, STREAM, count, 7);
    await fill(store, "c2", 3);
    return { dir, stored };
  } finally {
    await store.close();
  }
}

async function edit(dir: string, change: (raw: Awaited<ReturnType<typeof openRaw>>) => Promise<void>): Promise<void> {
  const raw = await openRaw(dir);
  try {
    await change(raw);
  } finally {
    await raw.db.close();
  }
}

/** Every key and value of STREAM's events, and its head record: to show that nothing was written. */
async function rawState(dir: string): Promise<{ events: Array<[string, string]>; head: string | undefined }> {
  const raw = await openRaw(dir);
  try {
    return {
      events: await raw.events.iterator({ gte: `${STREAM}#`, lte: `${STREAM}#~` }).all(),
      head: await raw.heads.get(STREAM),
    };
  } finally {
    await raw.db.close();
  }
}

describe("a stored event is never overwritten, whatever the head says", () => {
  it("with the head deleted, an append at seq 0 is refused naming seq 1, and nothing is written", async () => {
    const { dir } = await written(20);
    await edit(dir, (raw) => raw.heads.del(STREAM));
    const before = await rawState(dir);
    expect(before.head).toBeUndefined();

    const store = await reopen(dir);
    const refused = await store.append(STREAM, 0, deployedBatch(100, 3)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EventExistsError);
    // The CLI reports it as a broken log (exit 2): it is a CorruptEventError naming the seq.
    expect(refused).toBeInstanceOf(CorruptEventError);
    expect(refused).toMatchObject({ stream: STREAM, seq: 1 });
    expect((refused as Error).message).toContain("event 1 of c1 is already stored");
    await store.close();
    expect(await rawState(dir)).toEqual(before);
  });

  it("with the head set back, an append after it is refused naming the first seq after it", async () => {
    const { dir, stored } = await written(20);
    await edit(dir, (raw) => raw.heads.put(STREAM, JSON.stringify({ seq: 12, hash: stored[11]!.hash })));
    const before = await rawState(dir);
    const store = await reopen(dir);
    await expect(store.append(STREAM, 12, deployedBatch(100, 2))).rejects.toMatchObject({
      name: "EventExistsError",
      seq: 13,
    });
    await store.close();
    expect(await rawState(dir)).toEqual(before);
  });

  it("with the head and the first events after it deleted, the events stored further on are found all the same", async () => {
    const { dir } = await written(20);
    await edit(dir, async (raw) => {
      await raw.heads.del(STREAM);
      for (const seq of [1, 2, 3]) await raw.events.del(rawKey(STREAM, seq));
    });
    const before = await rawState(dir);
    const store = await reopen(dir);
    // A batch of 5 would write seqs 1..5: seq 4 is taken.
    await expect(store.append(STREAM, 0, deployedBatch(100, 5))).rejects.toMatchObject({
      name: "EventExistsError",
      seq: 4,
    });
    // So is any seq after the batch: a batch of 2 (seqs 1 and 2) is refused too, the log being stored beyond it.
    await expect(store.append(STREAM, 0, deployedBatch(100, 2))).rejects.toMatchObject({
      name: "EventExistsError",
      seq: 4,
    });
    expect(await verifyStream(store, STREAM)).toMatchObject({ ok: false, seq: 1, problem: "missing" });
    await store.close();
    expect(await rawState(dir)).toEqual(before);
  });

  it("a branch cannot take the id of a stream whose events are stored without a head", async () => {
    const { dir } = await written(5);
    await edit(dir, (raw) => raw.heads.del(STREAM));
    const store = await reopen(dir);
    await expect(store.createBranch(STREAM, "c2", 2)).rejects.toThrow(BranchError);
    expect(await store.branch(STREAM)).toBeUndefined();
  });

  it("appends to an intact stream go on as before", async () => {
    const { dir } = await written(20);
    const store = await reopen(dir);
    const appended = await store.append(STREAM, 20, deployedBatch(100, 3));
    expect(appended.map((event) => event.seq)).toEqual([21, 22, 23]);
    expect(await verifyStream(store, STREAM)).toMatchObject({ ok: true, events: 23 });
  });
});

describe("a stream with events but no head, or events after its head", () => {
  it("is listed among the streams, so that verify sees it", async () => {
    const { dir } = await written(5);
    await edit(dir, (raw) => raw.heads.del(STREAM));
    const store = await reopen(dir);
    expect(await store.streams()).toEqual(["c1", "c2"]);
  });

  it("is reported by verify as a truncated head at seq 1 when the head is missing", async () => {
    const { dir } = await written(5);
    await edit(dir, (raw) => raw.heads.del(STREAM));
    const store = await reopen(dir);
    const result = await verifyStream(store, STREAM);
    expect(result).toMatchObject({ ok: false, stream: STREAM, seq: 1, problem: "head" });
    expect(result.ok ? "" : result.message).toMatch(
      /head is missing \(truncated to nothing\), but events 1 to 5 are stored/,
    );
  });

  it("is reported by verify as a truncated head at the seq after it when the head was set back", async () => {
    const { dir, stored } = await written(9);
    await edit(dir, (raw) => raw.heads.put(STREAM, JSON.stringify({ seq: 4, hash: stored[3]!.hash })));
    const store = await reopen(dir);
    const result = await verifyStream(store, STREAM);
    expect(result).toMatchObject({ ok: false, seq: 5, problem: "head" });
    expect(result.ok ? "" : result.message).toMatch(/head was truncated to 4 events/);
    expect(await store.storedAfterHead(STREAM)).toBe(5);
  });
});

/** Reads of the whole stream (an iterator) and of a short known range (one getMany of its keys). */
const reads: Record<string, (store: EventStore) => Promise<unknown>> = {
  "a read of the whole stream": (store) => store.readAll(STREAM),
  "a read of a short range": (store) => store.readAll(STREAM, 2, 12),
  "a follower catching up": (store) =>
    new Promise((resolve, reject) => {
      const subscription = store.batches$(STREAM).subscribe({ error: reject, complete: () => resolve(undefined) });
      // A follower never completes by itself on an intact log: give it a moment, then let the test see it did not fail.
      setTimeout(() => {
        subscription.unsubscribe();
        resolve("no error");
      }, 500);
    }),
};

describe("a read of a broken log fails with a CorruptEventError naming the seq, never hands the events on", () => {
  for (const [name, read] of Object.entries(reads)) {
    it(`${name}: a deleted event`, async () => {
      const { dir } = await written(20);
      await edit(dir, (raw) => raw.events.del(rawKey(STREAM, 6)));
      await expect(read(await reopen(dir))).rejects.toMatchObject({
        name: "CorruptEventError",
        stream: STREAM,
        seq: 6,
      });
    });

    it(`${name}: two events swapped`, async () => {
      const { dir } = await written(20);
      await edit(dir, async (raw) => {
        const [a, b] = [await raw.events.get(rawKey(STREAM, 7)), await raw.events.get(rawKey(STREAM, 9))];
        await raw.events.put(rawKey(STREAM, 7), b!);
        await raw.events.put(rawKey(STREAM, 9), a!);
      });
      await expect(read(await reopen(dir))).rejects.toMatchObject({ name: "CorruptEventError", seq: 7 });
    });

    it(`${name}: an event edited and re-hashed, which the next one no longer links to`, async () => {
      const { dir, stored } = await written(20);
      const { hash: _hash, ...envelope } = stored[4]!;
      const body = bodyOf({ ...envelope, data: { army: "zz", at: [0, 0] }, hash: "" });
      await edit(dir, (raw) => raw.events.put(rawKey(STREAM, 5), sha256(body) + body));
      await expect(read(await reopen(dir))).rejects.toMatchObject({ name: "CorruptEventError", seq: 6 });
    });
  }

  it("a follower of a log whose last events were cut off fails at the first missing seq instead of waiting for it", async () => {
    const { dir } = await written(20);
    await edit(dir, async (raw) => {
      for (const seq of [19, 20]) await raw.events.del(rawKey(STREAM, seq));
    });
    await expect(reads["a follower catching up"]!(await reopen(dir))).rejects.toMatchObject({
      name: "CorruptEventError",
      seq: 19,
    });
  });

  it("eventAt refuses an event stored under another seq", async () => {
    const { dir } = await written(20);
    await edit(dir, async (raw) => raw.events.put(rawKey(STREAM, 3), (await raw.events.get(rawKey(STREAM, 4)))!));
    const store = await reopen(dir);
    await expect(store.eventAt(STREAM, 3)).rejects.toMatchObject({ name: "CorruptEventError", seq: 3 });
    expect((await store.eventAt(STREAM, 4))?.seq).toBe(4);
  });

  it("an intact log reads as it was written", async () => {
    const { dir, stored } = await written(20);
    const store = await reopen(dir);
    expect(await store.readAll(STREAM)).toEqual(stored);
    expect(await store.readAll(STREAM, 2, 12)).toEqual(stored.slice(1, 12));
    await expect(reads["a follower catching up"]!(store)).resolves.toBe("no error");
  });
});
