import type { Level } from "level";
import { streamRange } from "./layout.js";

/** An explicit LevelDB snapshot: reads given one see the database as it was when it was taken. */
export type LevelReadPoint = ReturnType<Level<string, string>["snapshot"]>;

export const READ_BATCH = 1000;
/**
 * What one batch may hold in memory. LevelDB's iterator stops a batch at this many bytes (16 KiB by default, which is
 * about 45 events here), and every batch is a round trip to its thread: 1 MiB lets a batch hold all READ_BATCH events
 * even when they are large, which halved the time of a raw scan of 100,000 events.
 */
export const READ_BATCH_BYTES = 1 << 20;

/**
 * A LevelDB iterator's entries in batches of READ_BATCH, each next batch asked for as soon as the last one arrives:
 * LevelDB reads it on its own thread while the caller works on the one it has. Closes the iterator when done.
 */
export async function* readAhead<T>(iterator: {
  nextv(size: number): Promise<T[]>;
  close(): Promise<void>;
}): AsyncGenerator<T[]> {
  let next: Promise<T[]> | undefined;
  try {
    next = iterator.nextv(READ_BATCH);
    for (;;) {
      const batch = await next;
      next = undefined;
      if (batch.length === 0) return;
      // A batch may be short of READ_BATCH (LevelDB caps a batch's bytes): only an empty one ends the range.
      next = iterator.nextv(READ_BATCH);
      yield batch;
    }
  } finally {
    await next?.catch(() => undefined);
    await iterator.close();
  }
}

/**
 * One stream's stored entries from seq `from` (to `to`), read on the root database with the events sublevel's
 * prefixed keys (`eventsPrefix`): the sublevel would copy every key to strip its prefix, which took about a third of
 * the CPU time of reading the entries. A chain checker's thread reads this way with its own handle on the database.
 * These are whole-line scans (verify, audit): they leave LevelDB's block cache to the reads that come back.
 */
export function rawEntries(
  db: Level<string, string>,
  eventsPrefix: string,
  stream: string,
  from: number,
  to?: number,
  readPoint?: LevelReadPoint,
): AsyncGenerator<Array<[string, string]>> {
  const range = { ...eventRange(eventsPrefix, stream, from, to), fillCache: false };
  return readAhead(db.iterator(readPoint ? { ...range, snapshot: readPoint } : range));
}

/**
 * The root-database key range of one stream's events from seq `from` (to `to`), with the events sublevel's prefix
 * (`eventsPrefix`) and the batch byte budget: how every read of a stretch of events asks LevelDB for it.
 */
export function eventRange(
  eventsPrefix: string,
  stream: string,
  from?: number,
  to?: number,
): { gte: string; lte: string; highWaterMarkBytes: number } {
  const { gte, lte } = streamRange(stream, from, to);
  return { gte: eventsPrefix + gte, lte: eventsPrefix + lte, highWaterMarkBytes: READ_BATCH_BYTES };
}
