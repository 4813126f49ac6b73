import type { EventStore as Store, StoreOptions } from "./event-store.js";
import { LevelEventStore } from "./store.js";

export type EventStore = Store;

/** Whether a store location names a PostgreSQL database rather than a LevelDB folder. */
export function isDatabaseUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** Where a command's log is: `--store` (or $EPICWAR_STORE) when given, else the LevelDB folder `--db`. */
export function storeLocation(where: { db: string; store?: string | undefined }): string {
  return where.store !== undefined && where.store !== "" ? where.store : where.db;
}

/** Opens the log at a location: a PostgreSQL database for a postgres:// URL, else a LevelDB folder. */
export const EventStore = {
  async open(location: string, options: StoreOptions = {}): Promise<EventStore> {
    if (!isDatabaseUrl(location)) return LevelEventStore.open(location, options);
    // Loaded only for a database: a command on a folder does not load the PostgreSQL client.
    const { PostgresEventStore } = await import("./postgres-store.js");
    return PostgresEventStore.open(location, options);
  },
};
