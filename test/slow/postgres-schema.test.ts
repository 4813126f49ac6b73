/**
 * The version of the log's tables in PostgreSQL: a new database is brought to this epicwar's version once, even by
 * several processes opening it at once; a database made before the versions is taken as version 1, its events kept;
 * one at a newer version is refused, writer and reader alike, naming both versions, and left as it was.
 */
import pg from "pg";
import { describe, expect, it } from "vitest";
import { GENESIS_HASH } from "../../events/index.js";
import { EventStore, StoreOpenError } from "../../src/log/index.js";
import { SCHEMA_VERSION } from "../../src/log/postgres-schema.js";
import { deployedBatch } from "../log/helpers.js";
import { freshDatabase } from "../support/postgres.js";

/** Runs queries on the database as its superuser. */
async function onDatabase<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const versions = (url: string) =>
  onDatabase(url, async (client) =>
    (await client.query<{ version: number }>("SELECT version FROM schema_version ORDER BY version")).rows.map(
      (row) => row.version,
    ),
  );

describe("the PostgreSQL schema's version", () => {
  it("brings a new database to this version once, with four processes opening it at once", async () => {
    const url = await freshDatabase("schema");
    const stores = await Promise.all(Array.from({ length: 4 }, () => EventStore.open(url)));
    for (const store of stores) await store.close();
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(1);
    expect(await versions(url)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, index) => index + 1));
  });

  it("takes a database made before the versions as version 1, its events kept", async () => {
    const url = await freshDatabase("schema");
    const store = await EventStore.open(url);
    await store.append("old", 0, deployedBatch(1, 3));
    const head = await store.head("old");
    await store.close();
    // As a database made by an epicwar before the versions: the same tables, no schema_version.
    await onDatabase(url, (client) => client.query("DROP TABLE schema_version"));
    const reopened = await EventStore.open(url);
    expect(await reopened.head("old")).toEqual(head);
    await reopened.close();
    expect(head).toMatchObject({ seq: 3 });
    expect(head.hash).not.toBe(GENESIS_HASH);
    expect(await versions(url)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, index) => index + 1));
  });

  it("refuses a newer schema, writer and reader alike, naming both versions, and changes nothing", async () => {
    const url = await freshDatabase("schema");
    await (await EventStore.open(url)).close();
    const newer = SCHEMA_VERSION + 1;
    await onDatabase(url, (client) => client.query("INSERT INTO schema_version (version) VALUES ($1)", [newer]));
    const message = `the database's schema is version ${newer}, newer than version ${SCHEMA_VERSION}, the one this epicwar knows: upgrade epicwar to open it (nothing was changed)`;
    for (const options of [{}, { createIfMissing: false }]) {
      const refused = await EventStore.open(url, options).then(
        async (store) => {
          await store.close();
          return undefined;
        },
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(StoreOpenError);
      expect((refused as Error).message).toBe(message);
    }
    expect(await versions(url)).toEqual([...Array.from({ length: SCHEMA_VERSION }, (_, index) => index + 1), newer]);
  });
});
