/**
 * Context snapshots (replays/context-snapshots.ts) in a PostgreSQL log's snapshot table: a line's state now is folded
 * from one and the events after it, to what the whole line folds to, and one the chain does not bear out is not used.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { toCurrent } from "../../events/index.js";
import { contextNow, ContextSnapshots } from "../../replays/context-snapshots.js";
import { isSnapshotPoint, SnapshotStore } from "../../replays/snapshots.js";
import { EventStore } from "../../src/log/index.js";
import { logViewContext } from "../../src/views/log.js";
import { runInProcess } from "../support/cli.js";
import { freshDatabase } from "../support/postgres.js";
import { tempDir } from "../support/tmp.js";

describe("context snapshots on PostgreSQL", () => {
  it("start a line's state now, to the whole line's, and are not used when their hash is not the line's", async () => {
    // The demo's campaign, played in a folder, exported and imported into a database of its own.
    const dir = await tempDir("epicwar-pg-context-");
    const db = join(dir, "db");
    const file = join(dir, "demo.jsonl");
    const url = await freshDatabase("context");
    expect((await runInProcess(["demo", "--db", db])).code).toBe(0);
    expect((await runInProcess(["export", "--db", db, "--out", file])).code).toBe(0);
    expect((await runInProcess(["import", file, "--store", url])).code).toBe(0);
    const store = await EventStore.open(url);
    try {
      const [line] = await store.streams();
      const events = await store.readAll(line!);
      const whole = logViewContext(events.map(toCurrent));
      // Kept at a phase's end well before the head, as a server following the line keeps it.
      const point = events.filter(isSnapshotPoint).at(-2)!.seq;
      const snapshots = new ContextSnapshots(store);
      await snapshots.keep(line!, events.slice(0, point), logViewContext(events.slice(0, point).map(toCurrent)));
      expect((await snapshots.latest(line!, events.length))?.seq).toBe(point);

      const readBatches = store.readBatches.bind(store);
      const from: number[] = [];
      store.readBatches = (stream: string, start = 1, to?: number) => (
        from.push(start),
        readBatches(stream, start, to)
      );
      expect(await contextNow(store, line!)).toEqual(whole);
      expect(from).toEqual([point + 1]);

      // Its hash stamp made another event's (the one the fold kept at the head thrown away): the line is folded from
      // its first event.
      await new SnapshotStore(store).clear(line!);
      await snapshots.keep(line!, events.slice(0, point), logViewContext(events.slice(0, point).map(toCurrent)));
      const key = `${line!}$${String(point).padStart(12, "0")}`;
      const value = (await store.snapshots.get(key))!;
      await store.snapshots.put([{ key, value: value.replace(events[point - 1]!.hash, events[point - 2]!.hash) }]);
      from.length = 0;
      expect(await contextNow(store, line!)).toEqual(whole);
      expect(from).toEqual([1]);
      // That fold kept the line's context again, at its head.
      expect((await snapshots.latest(line!, events.length))?.seq).toBe(events.length);
    } finally {
      await store.close();
    }
  });
});
