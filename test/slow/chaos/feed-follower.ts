/**
 * A follower of a campaign's live feed that records every event it is sent, on every connection, and reconnects
 * with `Last-Event-ID` whenever its connection ends (the server killed, its token revoked), for as long as it is
 * told to follow. What it recorded is compared with the final log: every event once, in order, as the log has it.
 */
import { eventIdentity, type EventIdentity } from "./recording-proxy.js";

export interface Delivery {
  /** Which connection of the follower brought it (1, 2, ...). */
  connection: number;
  event: EventIdentity;
}

export interface FeedFollower {
  campaign: string;
  deliveries: Delivery[];
  /** How many times a connection of its ended and it connected again. */
  reconnects: () => number;
  /** The connection open or being opened now (0 between two), and when each connection ended. */
  connection: () => number;
  ended: Map<number, number>;
  stop: () => Promise<void>;
}

/** A pause before connecting again, so that an outage is not a busy loop. */
const RETRY_MS = 250;

/**
 * Follows `campaign`'s feed at `url()` with `token()`; a 401 asks `signIn()` for a new token (the old one revoked).
 * `onEvent` sees each event as it comes.
 */
export function followFeed(options: {
  url: () => string;
  campaign: string;
  token: () => string;
  signIn: () => Promise<void>;
  onEvent?: (event: EventIdentity) => void;
}): FeedFollower {
  const deliveries: Delivery[] = [];
  const ended = new Map<number, number>();
  const stopping = new AbortController();
  let connections = 0;
  let open = 0;
  let last = 0;

  const readStream = async (body: ReadableStream<Uint8Array>, connection: number) => {
    const decoder = new TextDecoder();
    let text = "";
    for await (const chunk of body) {
      text += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = text.indexOf("\n\n")) >= 0) {
        const message = text.slice(0, end);
        text = text.slice(end + 2);
        const fields = Object.fromEntries(
          message
            .split("\n")
            .filter((line) => !line.startsWith(":"))
            .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trimStart()]),
        ) as Record<string, string>;
        if (fields["event"] !== "event" || fields["data"] === undefined) continue;
        const event = eventIdentity(JSON.parse(fields["data"]) as EventIdentity);
        deliveries.push({ connection, event });
        last = Math.max(last, Number(fields["id"]));
        options.onEvent?.(event);
      }
    }
  };

  const follow = async () => {
    // Bounded by the soak's own time: it stops every follower when it is done, and each pass waits RETRY_MS at least.
    while (!stopping.signal.aborted) {
      const connection = ++connections;
      open = connection;
      try {
        const answer = await fetch(`${options.url()}/campaigns/${options.campaign}/feed`, {
          headers: { authorization: `Bearer ${options.token()}`, "last-event-id": String(last) },
          signal: stopping.signal,
        });
        if (answer.status === 401) await options.signIn();
        else if (answer.status === 200 && answer.body) await readStream(answer.body, connection);
      } catch {
        // The server went away mid-stream or could not be reached: connect again.
      }
      open = 0;
      ended.set(connection, Date.now());
      if (!stopping.signal.aborted) await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  };
  const following = follow();
  return {
    campaign: options.campaign,
    deliveries,
    reconnects: () => Math.max(0, connections - 1),
    connection: () => open,
    ended,
    stop: async () => {
      stopping.abort();
      await following;
    },
  };
}
