import pg from "pg";
import { APPENDS_CHANNEL } from "./postgres-schema.js";

/** How long to wait before connecting again after the listening connection was lost. */
const RECONNECT_MS = 1_000;

/** The stream and new head seq a notification names: `<stream> <seq>` (a stream id holds no space), or the stream alone. */
function appendOf(payload: string): [string, number | undefined] {
  const space = payload.lastIndexOf(" ");
  return space < 0 ? [payload, undefined] : [payload.slice(0, space), Number(payload.slice(space + 1))];
}

/**
 * One connection that LISTENs for the appends of every process on the database and tells this process's followers
 * of the streams they name. A notification is only a hint to read: followers read by seq from where they are, so a
 * notification lost (the connection dropped, a pooler in transaction mode that does not pass LISTEN on) loses no
 * event. When the connection comes back every stream followed here is read again, to catch up whatever was missed.
 */
export class AppendListener {
  private client: pg.Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly connection: pg.ClientConfig,
    /**
     * Called with the stream an append was made to and the seq of its new head (undefined from a notification that
     * names none); with no stream when any stream may have moved.
     */
    private readonly heard: (stream: string | undefined, seq?: number) => void,
  ) {}

  async start(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client(this.connection);
    client.on("notification", (message) => {
      if (message.channel === APPENDS_CHANNEL && message.payload) this.heard(...appendOf(message.payload));
    });
    client.on("error", () => this.lost(client));
    client.on("end", () => this.lost(client));
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${APPENDS_CHANNEL}`);
      // Appends made while this connection was down were not heard: every follower reads on from where it is.
      this.heard(undefined);
    } catch {
      this.lost(client);
    }
  }

  private lost(client: pg.Client): void {
    if (this.client !== client || this.closed) return;
    this.client = undefined;
    client.removeAllListeners("end");
    void client.end().catch(() => undefined);
    this.retry = setTimeout(() => void this.start(), RECONNECT_MS);
    this.retry.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners("end");
      await client.end().catch(() => undefined);
    }
  }
}
