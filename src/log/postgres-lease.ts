import pg from "pg";

/** How often a lease not held is tried for, and a held one's connection checked, in milliseconds. */
export const LEASE_CHECK_MS = 1_000;

/**
 * A lease on one job among the processes of a database, held as a session-level advisory lock on a connection of its
 * own: exactly one connection holds it at a time, and it is released by PostgreSQL the moment that connection ends (the
 * process killed, its machine gone, the database restarted). Every LEASE_CHECK_MS a process that does not hold it tries
 * for it, and one that does checks that its connection still answers: a lease moves within a few seconds of its
 * holder's death. It only says who should do the job: what the job writes is kept safe by the log itself (expectedSeq),
 * so that two holders for a moment (one that has not yet seen its connection cut) cost a conflict, never a fork.
 */
export class AdvisoryLease {
  private client: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private checking = false;
  private closed = false;
  held = false;

  constructor(
    private readonly connection: pg.ClientConfig,
    /** The lock's name: each name is its own lease. */
    private readonly name: string,
    /** Told each time this process comes to hold the lease, or stops holding it. */
    private readonly changed: (held: boolean) => void,
  ) {}

  start(): void {
    if (this.closed || this.timer) return;
    void this.check();
    this.timer = setInterval(() => void this.check(), LEASE_CHECK_MS);
    this.timer.unref();
  }

  private async check(): Promise<void> {
    if (this.checking || this.closed) return;
    this.checking = true;
    try {
      if (this.held) {
        await this.client!.query("SELECT 1");
        return;
      }
      const client = this.client ?? (await this.connect());
      const { rows } = await client.query<{ taken: boolean }>("SELECT pg_try_advisory_lock(hashtext($1)) AS taken", [
        this.name,
      ]);
      if (rows[0]?.taken && !this.closed) this.hold(true);
    } catch {
      this.drop();
    } finally {
      this.checking = false;
    }
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client(this.connection);
    client.on("error", () => this.drop(client));
    client.on("end", () => this.drop(client));
    this.client = client;
    await client.connect();
    return client;
  }

  /** The connection is lost, or will be ended: the lock goes with it. */
  private drop(client = this.client): void {
    if (client === undefined || client !== this.client) return;
    this.client = undefined;
    client.removeAllListeners("end");
    void client.end().catch(() => undefined);
    this.hold(false);
  }

  private hold(held: boolean): void {
    if (this.held === held) return;
    this.held = held;
    this.changed(held);
  }

  /** Gives the lease up (its connection ended) and tries for it no more. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    const client = this.client;
    this.client = undefined;
    this.held = false;
    if (client) {
      client.removeAllListeners("end");
      await client.end().catch(() => undefined);
    }
  }
}
