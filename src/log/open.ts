import type { EventStore as Store, StoreOptions } from "./event-store.js";
import { LevelEventStore } from "./store.js";

export type EventStore = Store;

/** Whether a store location names a PostgreSQL database rather than a LevelDB folder. */
export function isDatabaseUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * Where a command's log is: `--store` when given, else $EPICWAR_STORE, else the LevelDB folder `--db`. A PostgreSQL
 * URL (postgres://user@host:port/database) opens the log there; anything else is a folder.
 */
export function storeLocation(options: { store?: string | undefined; db: string }, env: NodeJS.ProcessEnv): string {
  const chosen = options.store ?? env["EPICWAR_STORE"];
  return chosen !== undefined && chosen !== "" ? chosen : options.db;
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
