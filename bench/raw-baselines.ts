/**
 * The raw baselines the store figures are measured against, for the store the bench runs on: the same stored values
 * read and parsed, or written, with the storage's own client and nothing of the engine (no chain, no checks).
 */
import pg from "pg";
import type { EventStore, LevelEventStore } from "../src/log/index.js";
import { eventKey, HASH_LENGTH } from "../src/log/layout.js";
import { eventRange } from "../src/log/read-ahead.js";

export interface RawBaseline {
  /** Reads every stored value of a stream and parses its body; the count. */
  scan(stream: string): Promise<number>;
  /** Writes values under a stream of their own, seqs from `first`, as one batch (sync as given). */
  put(stream: string, first: number, values: readonly string[], sync: boolean): Promise<void>;
  close(): Promise<void>;
}

/**
 * LevelDB: values straight from the root database with nextv (with the engine's batch byte budget, so both sides get
 * as much per batch), and plain batch puts.
 */
function levelBaseline(store: LevelEventStore): RawBaseline {
  return {
    scan: async (stream) => {
      const iterator = store.db.iterator(eventRange(store.eventsPrefix, stream));
      let count = 0;
      try {
        for (;;) {
          const entries = await iterator.nextv(1000);
          if (entries.length === 0) break;
          for (const [, value] of entries) {
            JSON.parse(value.slice(HASH_LENGTH));
            count++;
          }
        }
      } finally {
        await iterator.close();
      }
      return count;
    },
    put: async (stream, first, values, sync) => {
      const puts = values.map((value, i) => ({ type: "put" as const, key: eventKey(stream, first + i), value }));
      await store.events.batch(puts, { sync } as object);
    },
    close: async () => undefined,
  };
}

/**
 * PostgreSQL: pages of 1,000 rows by primary key, each body parsed; and one INSERT of the batch's rows in a
 * transaction of its own (committed without waiting for the disk when sync is false, as the store does).
 */
function postgresBaseline(url: string): RawBaseline {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  return {
    scan: async (stream) => {
      let count = 0;
      for (let after = 0; ;) {
        const { rows } = await pool.query<{ seq: string; value: string }>(
          "SELECT seq, hash || body AS value FROM events WHERE stream = $1 AND seq > $2 ORDER BY seq LIMIT 1000",
          [stream, after],
        );
        if (rows.length === 0) return count;
        for (const row of rows) JSON.parse(row.value.slice(HASH_LENGTH));
        count += rows.length;
        after = Number(rows.at(-1)!.seq);
      }
    },
    put: async (stream, first, values, sync) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        if (!sync) await client.query("SET LOCAL synchronous_commit = off");
        await client.query(
          `INSERT INTO events (stream, seq, hash, body)
           SELECT $1, seq, hash, body FROM unnest($2::bigint[], $3::text[], $4::text[]) AS batch(seq, hash, body)`,
          [
            stream,
            values.map((_, i) => first + i),
            values.map((value) => value.slice(0, HASH_LENGTH)),
            values.map((value) => value.slice(HASH_LENGTH)),
          ],
        );
        await client.query("COMMIT");
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** The baseline for the store the bench runs on: `url` for PostgreSQL, else the LevelDB store itself. */
export function rawBaseline(store: EventStore, url: string | undefined): RawBaseline {
  return url ? postgresBaseline(url) : levelBaseline(store as LevelEventStore);
}
