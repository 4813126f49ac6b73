/**
 * How many commits a second one PostgreSQL primary takes from concurrent writers, with and without a `pg_notify` in
 * each (`node dist/bench/commit-ceiling.js [writers] [seconds]`, after `npm run build`): the ceiling of appends the
 * capacity model of docs/scaling.md rests on. A cluster of its own (initdb on loopback, PostgreSQL's durability as
 * shipped: fsync and synchronous_commit on), one connection per writer, each writer moving its own row in a statement
 * of an append's shape (an upsert returning the new value), alternately without and with the notification in it,
 * twice each. One JSON line per round.
 */
import pg from "pg";
import { startCluster } from "../test/support/postgres-cluster.js";

const writers = Number(process.argv[2] ?? 16);
const seconds = Number(process.argv[3] ?? 8);

const MOVE = "INSERT INTO rows (k, v) VALUES ($1, 1) ON CONFLICT (k) DO UPDATE SET v = rows.v + 1 RETURNING v";
const STATEMENTS = {
  plain: `WITH moved AS (${MOVE}) SELECT v FROM moved`,
  notified: `WITH moved AS (${MOVE}) SELECT pg_notify('rows', $1::text || ' ' || v) FROM moved`,
};

const cluster = await startCluster({ durable: true });
try {
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query("CREATE TABLE rows (k integer PRIMARY KEY, v bigint NOT NULL)");
  await admin.end();
  for (const kind of ["plain", "notified", "plain", "notified"] as const) {
    const clients = await Promise.all(
      Array.from({ length: writers }, async () => {
        const client = new pg.Client({ connectionString: cluster.url });
        await client.connect();
        return client;
      }),
    );
    let commits = 0;
    const start = performance.now();
    await Promise.all(
      clients.map(async (client, k) => {
        while (performance.now() - start < seconds * 1000) {
          await client.query(STATEMENTS[kind], [k]);
          commits++;
        }
      }),
    );
    const commitsPerSecond = commits / ((performance.now() - start) / 1000);
    process.stdout.write(`${JSON.stringify({ writers, kind, commits, commitsPerSecond })}\n`);
    await Promise.all(clients.map((client) => client.end()));
  }
} finally {
  await cluster.stop();
}
