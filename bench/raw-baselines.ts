/**
 * The raw baselines the store figures are measured against, for the store the bench runs on: the same stored values
 * read and parsed, or written, with the storage's own client and nothing of the engine (no chain, no checks); and the
 * work verify does per event done alone (SHA-256 of each body, and one Ed25519 verification with it).
 */
import { createPublicKey, verify } from "node:crypto";
import pg from "pg";
import { sha256Hex, type EventStore, type LevelEventStore } from "../src/log/index.js";
import { cpuMsSince } from "./figure.js";
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
      // As the store writes: a chained batch on the root database, keys with the events' prefix (src/log/store.ts).
      const batch = store.db.batch();
      for (const [i, value] of values.entries()) batch.put(store.eventsPrefix + eventKey(stream, first + i), value);
      await batch.write({ sync });
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

/** The time some work over every stored body of a stream took: wall-clock and CPU (all threads), in ms. */
export interface WorkTime {
  ms: number;
  cpuMs: number;
}

/** `each` over every stored body of a stream, timed over `each` only: the bodies are read in chunks first. */
async function timedOverBodies(store: EventStore, stream: string, each: (body: string) => void): Promise<WorkTime> {
  const total: WorkTime = { ms: 0, cpuMs: 0 };
  let chunk: string[] = [];
  const workChunk = () => {
    const cpu = process.cpuUsage();
    const start = performance.now();
    for (const body of chunk) each(body);
    total.ms += performance.now() - start;
    total.cpuMs += cpuMsSince(cpu);
    chunk = [];
  };
  for await (const batch of store.rawBatches(stream)) {
    for (const [, value] of batch) chunk.push(value.slice(HASH_LENGTH));
    if (chunk.length >= 100_000) workChunk();
  }
  workChunk();
  return total;
}

/** SHA-256 of every stored body of a stream: what verify's chain check does per event at the least. */
export const rawHashTime = (store: EventStore, stream: string) => timedOverBodies(store, stream, sha256Hex);

/** A signature the log holds: a key's over a text, to verify as often as the baseline needs. */
export interface SignatureSample {
  publicKey: string;
  text: string;
  signature: string;
}

/** The first key registration of a stream with its signed command (signed by the key it registers), if any. */
export async function signatureSample(store: EventStore, stream: string): Promise<SignatureSample | undefined> {
  for await (const batch of store.rawBatches(stream)) {
    for (const [, value] of batch) {
      const event = JSON.parse(value.slice(HASH_LENGTH)) as {
        type: string;
        data: { publicKey?: string };
        command?: { signed: string; signature: string };
      };
      if (event.type === "SeatKeyRegistered" && event.command)
        return { publicKey: event.data.publicKey!, text: event.command.signed, signature: event.command.signature };
    }
  }
  return undefined;
}

/**
 * SHA-256 of every stored body of a stream and one Ed25519 verification per event (node:crypto, its key made once):
 * the least a check of every event's hash and signature costs, whatever the log holds besides.
 */
export function rawHashAndVerifyTime(store: EventStore, stream: string, sample: SignatureSample): Promise<WorkTime> {
  const key = createPublicKey({
    key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(sample.publicKey, "hex").toString("base64url") },
    format: "jwk",
  });
  const text = Buffer.from(sample.text, "utf8");
  const signature = Buffer.from(sample.signature, "hex");
  if (!verify(null, text, key, signature)) throw new Error("the baseline's sample signature does not verify");
  return timedOverBodies(store, stream, (body) => {
    sha256Hex(body);
    if (!verify(null, text, key, signature)) throw new Error("the baseline's sample signature does not verify");
  });
}
