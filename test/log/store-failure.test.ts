/**
 * A LevelDB store whose write fails. Here the write fails because the database was closed under the store, the
 * quickest real failure one process can make of its own LevelDB; a full disk, under a lowered file-size limit, is
 * test/slow/full-disk.test.ts.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { StoredEvent } from "../../events/index.js";
import { LevelEventStore, StoreFailedError } from "../../src/log/index.js";
import { branchStream } from "../../replays/branches.js";
import { Engine } from "../../src/engine/engine.js";
import { setupCommands } from "../../src/setup/setup-file.js";
import { goldenSetup } from "../support/fixtures.js";
import { tempDir } from "../support/tmp.js";
import { deployed, deployedBatch } from "./helpers.js";

let store: LevelEventStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

describe("a failed write of the LevelDB store", () => {
  it("fails the store: no write is taken, even once the disk would take it, until the store is reopened", async () => {
    store = await LevelEventStore.open(await tempDir());
    const followed: StoredEvent[] = [];
    // Followers are told of an append in a task of their own, after its caller has its answer.
    const waiting = new Map<number, () => void>();
    const followedTo = (seq: number) => new Promise<void>((resolve) => waiting.set(seq, resolve));
    const [followedToThree, followedToFour] = [followedTo(3), followedTo(4)];
    store.events$("c1").subscribe((event) => {
      followed.push(event);
      waiting.get(event.seq)?.();
    });
    const failures: StoreFailedError[] = [];
    store.failures$.subscribe((failure) => failures.push(failure));
    await store.append("c1", 0, deployedBatch(1, 3));
    // Caught up first: a follower reading the log at the moment it is closed ends with that read's error.
    await followedToThree;

    await store.db.close();
    const failed = store.append("c1", 3, [deployed(4)]);
    await expect(failed).rejects.toBeInstanceOf(StoreFailedError);
    expect(failures).toEqual([store.failure]);
    expect(store.failure!.reason).toBe("Database is not open");

    // The database opens again under the store, and could take the write: the store still takes none.
    await store.db.open();
    await expect(store.append("c1", 3, [deployed(4)])).rejects.toBe(store.failure);
    await expect(store.createBranch("c1-what-if", "c1", 2)).rejects.toBe(store.failure);
    await expect(store.snapshots.del("any")).rejects.toBe(store.failure);
    // A snapshot is a cache: while the store takes no writes, it is not kept, and nothing fails for it.
    await store.snapshots.put([{ key: "k", value: "v" }]);
    expect(await store.head("c1")).toMatchObject({ seq: 3 });
    expect(failures).toHaveLength(1);

    await store.reopen();
    expect(store.failure).toBeUndefined();
    expect(await store.storedHead("c1")).toMatchObject({ seq: 3 });
    expect(await store.snapshots.get("k")).toBeUndefined();
    const next = await store.append("c1", 3, [deployed(4)]);
    expect(next.map((event) => event.seq)).toEqual([4]);
    await followedToFour;
    // Its followers went on through the reopen: every event once, in order.
    expect(followed.map((event) => event.seq)).toEqual([1, 2, 3, 4]);
    expect((await store.readAll("c1")).map((event) => event.hash)).toEqual(followed.map((event) => event.hash));
  });

  it("reopening a store that has not failed changes nothing", async () => {
    store = await LevelEventStore.open(await tempDir());
    await store.append("c1", 0, deployedBatch(1, 2));
    await store.reopen();
    expect(store.failure).toBeUndefined();
    expect((await store.append("c1", 2, [deployed(3)])).map((event) => event.seq)).toEqual([3]);
  });

  it("an engine whose line was read while the store was closed for its reopen reads it again once it is open", async () => {
    const folder = await tempDir();
    const setup = goldenSetup("ready.json");
    const engine = await Engine.open(folder);
    try {
      expect((await engine.create(setupCommands(setup).map((step) => step.command))).ok).toBe(true);
      const seq = (await engine.state(setup.campaign)).seq;
      // A line the engine has not read yet, whose head the store holds.
      const branch = branchStream(setup.campaign, "what-if");
      await engine.store.createBranch(branch, setup.campaign, seq);
      const log = engine.store as LevelEventStore;
      await log.db.close();
      await expect(log.snapshots.del("any")).rejects.toBeInstanceOf(StoreFailedError);
      // The line's first read meets the log closed, as a read does while the store is being reopened.
      await expect(engine.state(branch)).rejects.toMatchObject({ code: "LEVEL_DATABASE_NOT_OPEN" });
      await log.reopen();
      expect((await engine.state(branch)).seq).toBe(seq);
    } finally {
      await engine.close();
    }
  });
});
