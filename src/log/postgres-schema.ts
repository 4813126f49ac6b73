import type pg from "pg";

/**
 * The log's tables in PostgreSQL (docs/storage.md, "On PostgreSQL"). The body is text holding exactly the bytes that
 * were hashed, never jsonb: jsonb would reorder keys and drop duplicates, and verify hashes the body as stored. The
 * primary key of events is what refuses a stale append that got past the head's row lock (two first appends of one
 * stream, which has no head row to lock yet). Every text column sorts by code point ("C"), as LevelDB's keys do.
 */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  stream text COLLATE "C" NOT NULL,
  seq bigint NOT NULL CHECK (seq > 0),
  hash text NOT NULL,
  body text NOT NULL,
  PRIMARY KEY (stream, seq)
);
CREATE TABLE IF NOT EXISTS heads (
  stream text COLLATE "C" PRIMARY KEY,
  seq bigint NOT NULL,
  hash text NOT NULL
);
CREATE TABLE IF NOT EXISTS branches (
  stream text COLLATE "C" PRIMARY KEY,
  name text NOT NULL,
  parent text COLLATE "C" NOT NULL,
  root text COLLATE "C" NOT NULL,
  fork_seq bigint NOT NULL,
  fork_hash text NOT NULL,
  created text NOT NULL
);
CREATE TABLE IF NOT EXISTS snapshots (
  key text COLLATE "C" PRIMARY KEY,
  value text NOT NULL
);
`;

/** The channel every append notifies, with the stream's id as the payload, when its transaction commits. */
export const APPENDS_CHANNEL = "epicwar_appends";

/** Creates the tables when missing; an advisory lock keeps two instances starting at once from racing to create them. */
export async function createSchema(client: pg.PoolClient): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('epicwar schema'))");
    await client.query(SCHEMA);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}

/** Whether the database holds the log's tables. */
export async function hasSchema(client: pg.PoolClient): Promise<boolean> {
  const { rows } = await client.query<{ found: string | null }>("SELECT to_regclass('events')::text AS found");
  return rows[0]?.found != null;
}
