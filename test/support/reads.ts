/** Counting what a store reads: every read of a line goes through readBatches. */
import type { EventStore } from "../../src/log/index.js";

/**
 * The events `store` reads while `during` runs, of `stream`'s line only when given, and the seq each read starts at.
 */
export async function eventsRead<T>(
  store: EventStore,
  during: () => Promise<T>,
  stream?: string,
): Promise<{ result: T; read: number; from: number[] }> {
  const readBatches = store.readBatches.bind(store);
  let read = 0;
  const from: number[] = [];
  store.readBatches = async function* (line: string, start = 1, to?: number) {
    if (stream !== undefined && line !== stream) return yield* readBatches(line, start, to);
    from.push(start);
    for await (const batch of readBatches(line, start, to)) {
      read += batch.length;
      yield batch;
    }
  };
  try {
    return { result: await during(), read, from };
  } finally {
    store.readBatches = readBatches;
  }
}
