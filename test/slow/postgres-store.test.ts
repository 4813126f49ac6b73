/**
 * What only a shared log has to do (PostgreSQL, several processes on one database; here two stores in one process,
 * each with its own connections): appends racing from both, every follower seeing every append whoever made it, and
 * a notification lost (the listening connection cut) costing no event.
 */
import pg from "pg";
import { firstValueFrom, filter, shareReplay, take, toArray } from "rxjs";
import { afterEach, describe, expect, it } from "vitest";
import { AppendConflictError, EventStore, verifyStream } from "../../src/log/index.js";
import { deployedBatch } from "../log/helpers.js";
import { freshDatabase } from "../support/postgres.js";

const opened: EventStore[] = [];
async function open(url: string): Promise<EventStore> {
  const store = await EventStore.open(url);
  opened.push(store);
  return store;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

describe("one PostgreSQL log, two writers", () => {
  it("lets exactly one of two stores' first appends of a stream win; the other is an AppendConflictError", async () => {
    const url = await freshDatabase("race");
    const [a, b] = [await open(url), await open(url)];
    for (let round = 0; round < 10; round++) {
      const stream = `c${round}`;
      const results = await Promise.allSettled([
        a.append(stream, 0, deployedBatch(1, 3)),
        b.append(stream, 0, deployedBatch(10, 2)),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
      expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toBeInstanceOf(
        AppendConflictError,
      );
      const next = await Promise.allSettled([
        a.append(stream, (await a.head(stream)).seq, deployedBatch(20, 1)),
        b.append(stream, (await b.head(stream)).seq, deployedBatch(30, 1)),
      ]);
      expect(next.filter((r) => r.status === "fulfilled").length).toBeGreaterThanOrEqual(1);
      expect(await verifyStream(a, stream)).toMatchObject({ ok: true });
    }
  });

  it("gives a follower of one store every append of the other, in order, none twice", async () => {
    const url = await freshDatabase("follow");
    const [writer, reader] = [await open(url), await open(url)];
    await writer.append("c1", 0, deployedBatch(1, 2));
    const seen = firstValueFrom(reader.events$("c1").pipe(take(12), toArray()));
    for (let seq = 2; seq < 12; seq += 2) await writer.append("c1", seq, deployedBatch(seq + 1, 2));
    expect((await seen).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it("loses no event when a notification is: appends made while the follower's listening connection was cut reach it", async () => {
    const url = await freshDatabase("lost");
    const [writer, reader] = [await open(url), await open(url)];
    await writer.append("c1", 0, deployedBatch(1, 1));
    // One follower, shared: a new subscription would read the log afresh and prove nothing about the follower.
    const followed = reader.events$("c1").pipe(shareReplay());
    const upTo = (seq: number) => firstValueFrom(followed.pipe(filter((e) => e.seq >= seq)));
    const subscription = followed.subscribe();
    try {
      await upTo(1);
      // Cut every connection that listens (once the reader's is there: it connects when its first follower starts),
      // then append: the notification has no one to reach.
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        let cut = 0;
        for (let tries = 0; cut === 0; tries++) {
          if (tries === 500) throw new Error("the reader never listened");
          const terminated = await admin.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
             WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
          );
          cut = terminated.rowCount ?? 0;
          if (cut === 0) await new Promise((resolve) => setTimeout(resolve, 10));
        }
      } finally {
        await admin.end();
      }
      await writer.append("c1", 1, deployedBatch(2, 3));
      // The listener connects again and every follower reads on by seq.
      expect((await upTo(4)).seq).toBe(4);
    } finally {
      subscription.unsubscribe();
    }
  });

  it("leaves nothing of an append whose transaction failed: the head is the database's, the next append goes on from it", async () => {
    const url = await freshDatabase("failed");
    const store = await open(url);
    await store.append("c1", 0, deployedBatch(1, 2));
    const followed = firstValueFrom(store.events$("c1").pipe(take(3), toArray()));
    // The append waits on the head's row, locked here, and its connection is then cut: a real failed transaction.
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    try {
      await locker.query("BEGIN");
      await locker.query("SELECT seq FROM heads WHERE stream = 'c1' FOR UPDATE");
      const failing = store.append("c1", 2, deployedBatch(3, 1));
      let waiting: number | undefined;
      for (let tries = 0; waiting === undefined && tries < 200; tries++) {
        // Inside a transaction the activity view is read once unless its snapshot is cleared.
        await locker.query("SELECT pg_stat_clear_snapshot()");
        const { rows } = await locker.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        waiting = rows[0]?.pid;
        if (waiting === undefined) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(waiting).toBeDefined();
      await locker.query("SELECT pg_terminate_backend($1)", [waiting]);
      await expect(failing).rejects.toThrow();
      await locker.query("ROLLBACK");
    } finally {
      await locker.end();
    }
    expect(store.failure).toBeUndefined();
    expect((await store.head("c1")).seq).toBe(2);
    expect(await store.storedHead("c1")).toEqual(await store.head("c1"));
    const next = await store.append("c1", 2, deployedBatch(3, 1));
    expect(next.map((event) => event.seq)).toEqual([3]);
    expect((await followed).map((event) => event.seq)).toEqual([1, 2, 3]);
    expect(await verifyStream(store, "c1")).toMatchObject({ ok: true });
  });
});
