import type pg from "pg";
import { StoreOpenError } from "./errors.js";

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

/**
 * The schema's migrations, in order: the nth takes a database from version n - 1 to n. A migration is never changed
 * once released; a change of the tables is a new one at the end. The first keeps IF NOT EXISTS so that a database
 * made before the schema had versions (the same tables, no schema_version) is taken as version 1.
 */
const MIGRATIONS: readonly string[] = [
  SCHEMA,
  // 2: the host's secrets of each line, sealed by the instances with a key the database never holds.
  `CREATE TABLE IF NOT EXISTS sealed_texts (
     stream text COLLATE "C" NOT NULL,
     party text COLLATE "C" NOT NULL,
     sealed text NOT NULL,
     PRIMARY KEY (stream, party)
   );`,
  // 3: the servers' seats (hashes of tokens and invites), so that every instance admits every player.
  `CREATE TABLE IF NOT EXISTS seat_tokens (
     hash text COLLATE "C" PRIMARY KEY,
     campaign text COLLATE "C",
     seat text COLLATE "C",
     CHECK ((campaign IS NULL) = (seat IS NULL))
   );
   CREATE INDEX IF NOT EXISTS seat_tokens_by_seat ON seat_tokens (campaign, seat);
   CREATE TABLE IF NOT EXISTS seat_invites (
     hash text COLLATE "C" PRIMARY KEY,
     campaign text COLLATE "C" NOT NULL,
     seat text COLLATE "C" NOT NULL
   );
   CREATE TABLE IF NOT EXISTS seated_campaigns (campaign text COLLATE "C" PRIMARY KEY);`,
  // 4: the computer's settings of each campaign it plays, so that any instance takes its steps.
  `CREATE TABLE IF NOT EXISTS computer_seats (
     campaign text COLLATE "C" PRIMARY KEY,
     settings text NOT NULL
   );`,
];

/** The version of the schema this epicwar reads and writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

const VERSION_TABLE = `
CREATE TABLE IF NOT EXISTS schema_version (
  version integer PRIMARY KEY,
  applied timestamptz NOT NULL DEFAULT now()
);
`;

/** The database's schema is newer than this epicwar's: it is not opened, and nothing of it is changed. */
function newerSchema(found: number): StoreOpenError {
  return new StoreOpenError(
    `the database's schema is version ${found}, newer than version ${SCHEMA_VERSION}, the one this epicwar knows: upgrade epicwar to open it (nothing was changed)`,
  );
}

/** The version the database's tables are at: 0 for none, 1 for tables made before the schema had versions. */
async function storedVersion(client: pg.PoolClient): Promise<number> {
  const { rows } = await client.query<{ versions: string | null; events: string | null }>(
    "SELECT to_regclass('schema_version')::text AS versions, to_regclass('events')::text AS events",
  );
  if (rows[0]?.versions == null) return rows[0]?.events == null ? 0 : 1;
  const found = await client.query<{ version: number | null }>("SELECT max(version) AS version FROM schema_version");
  return found.rows[0]?.version ?? 0;
}

/**
 * Brings the tables to this epicwar's version: the migrations it lacks, in order, in one transaction under an advisory
 * lock, so that two instances starting at once apply each migration once (the second waits, then finds it done). A
 * schema newer than this epicwar's is refused (StoreOpenError), naming both versions.
 */
export async function migrateSchema(client: pg.PoolClient): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('epicwar schema'))");
    const found = await storedVersion(client);
    if (found > SCHEMA_VERSION) throw newerSchema(found);
    await client.query(VERSION_TABLE);
    for (let version = found + 1; version <= SCHEMA_VERSION; version++) await client.query(MIGRATIONS[version - 1]!);
    // A database from before the versions is recorded at version 1, its tables unchanged.
    for (let version = Math.max(found, 1); version <= SCHEMA_VERSION; version++)
      await client.query("INSERT INTO schema_version (version) VALUES ($1) ON CONFLICT (version) DO NOTHING", [
        version,
      ]);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}

/**
 * Whether the database holds the log's tables, for a reader, which changes nothing (it may be on a replica): a schema
 * of another version than this epicwar's is refused (StoreOpenError), naming both.
 */
export async function hasSchema(client: pg.PoolClient): Promise<boolean> {
  const found = await storedVersion(client);
  if (found > SCHEMA_VERSION) throw newerSchema(found);
  if (found > 0 && found < SCHEMA_VERSION)
    throw new StoreOpenError(
      `the database's schema is version ${found}, older than version ${SCHEMA_VERSION}, the one this epicwar reads: open it once with a command that writes (epicwar serve) on the primary to bring it up to date`,
    );
  return found > 0;
}
