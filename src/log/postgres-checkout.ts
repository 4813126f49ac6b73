import type pg from "pg";

/**
 * A connection of the pool, out for one transaction. A connection lost while it is out (the server restarting, its
 * backend ended) rejects the query in flight, which reports it: the client's own error event must not end the
 * process. `release` gives it back to the pool once (the first call counts), to be closed if it failed: an error
 * given, or one the client reported.
 */
export async function checkOut(
  pool: pg.Pool,
): Promise<{ client: pg.PoolClient; release: (failure?: unknown) => void }> {
  const client = await pool.connect();
  let lost: unknown;
  const onError = (error: Error) => void (lost ??= error);
  client.on("error", onError);
  let released = false;
  return {
    client,
    release: (failure?: unknown) => {
      lost ??= failure;
      if (released) return;
      released = true;
      client.off("error", onError);
      client.release(lost === undefined ? undefined : lost instanceof Error ? lost : new Error(String(lost)));
    },
  };
}

/** Runs `work` in one transaction on a connection of the pool: committed when it returns, rolled back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const { client, release } = await checkOut(pool);
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    release();
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    release(error);
    throw error;
  }
}
