/** The store conformance suite (test/log/conformance.ts) on PostgreSQL, edited raw with SQL; every golden case. */
import pg from "pg";
import { conformance } from "../log/conformance.js";
import { freshDatabase } from "../support/postgres.js";

/** One database for the golden cases, emptied before each: making a database per case took most of their time. */
let golden: string | undefined;

conformance({
  name: "PostgreSQL",
  fresh: () => freshDatabase("conformance"),
  emptied: async () => {
    golden ??= await freshDatabase("golden");
    const client = new pg.Client({ connectionString: golden });
    await client.connect();
    try {
      await client.query(
        "DO $$ BEGIN IF to_regclass('events') IS NOT NULL THEN TRUNCATE events, heads, branches, snapshots; END IF; END $$",
      );
    } finally {
      await client.end();
    }
    return golden;
  },
  golden: "all",
  raw: async (url) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const run = async (text: string, values: unknown[]) => void (await client.query(text, values));
    return {
      get: async (stream, seq) =>
        (
          await client.query<{ value: string }>(
            "SELECT hash || body AS value FROM events WHERE stream = $1 AND seq = $2",
            [stream, seq],
          )
        ).rows[0]?.value,
      put: (stream, seq, value) =>
        run(
          `INSERT INTO events (stream, seq, hash, body) VALUES ($1, $2, substr($3, 1, 64), substr($3, 65))
           ON CONFLICT (stream, seq) DO UPDATE SET hash = EXCLUDED.hash, body = EXCLUDED.body`,
          [stream, seq, value],
        ),
      del: (stream, seq) => run("DELETE FROM events WHERE stream = $1 AND seq = $2", [stream, seq]),
      setHead: (stream, head) =>
        head
          ? run(
              `INSERT INTO heads (stream, seq, hash) VALUES ($1, $2, $3)
               ON CONFLICT (stream) DO UPDATE SET seq = EXCLUDED.seq, hash = EXCLUDED.hash`,
              [stream, head.seq, head.hash],
            )
          : run("DELETE FROM heads WHERE stream = $1", [stream]),
      setParent: (stream, parent) => run("UPDATE branches SET parent = $2 WHERE stream = $1", [stream, parent]),
      close: () => client.end(),
    };
  },
});
