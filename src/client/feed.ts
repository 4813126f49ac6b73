import { pause } from "./reconnect.js";
import type { SeatEvent } from "./remote.js";
import { serverFailing, ServerError, unreachable, type ServerConnection } from "./server.js";

/** How long to wait before reconnecting after a drop, on a connection without `reconnect`: doubling, up to the last. */
const RECONNECT_DELAYS_MS = { first: 100, most: 5000 };

/**
 * A feed that brings nothing, not even the server's keep-alive comment (every 15 s), for this long is taken for cut
 * (a network that dropped it without a word) and opened again.
 */
export const FEED_SILENCE_MS = 45_000;

export interface FeedOptions {
  /** The seq of the last event the follower has: the feed starts after it (0: from the first event). */
  after: number;
  /** Ends the feed: the generator returns. */
  signal: AbortSignal;
  /**
   * Told when a connection failed before bringing any event, and is tried again after `delayMs`, on a connection
   * without `reconnect` (one with it tells its own onLost).
   */
  onRetry?: (error: Error, delayMs: number) => void;
}

/**
 * Follows a campaign's live feed (GET /campaigns/:id/feed, Server-Sent Events): yields the events as they arrive, in
 * batches of what each read of the connection brought. After a drop it reconnects with `Last-Event-ID` set to the last
 * seq it yielded, so that each event is yielded once and in order, whatever the server sends again; once connected
 * again after a drop it yields an empty batch, for the follower to read again what it waits on (an answer it lost
 * while the server was away). A refusal (401, 403, 404) ends it with a ServerError. A server out of reach or failing
 * (5xx) is tried again: on a connection with `reconnect`, as it says (until its offline timeout, then a
 * ServerOfflineError); without, ever more slowly until the signal.
 */
export async function* followFeed(
  server: ServerConnection,
  campaign: string,
  options: FeedOptions,
): AsyncGenerator<SeatEvent[]> {
  let last = options.after;
  let delay = RECONNECT_DELAYS_MS.first;
  let dropped = false;
  const path = `/campaigns/${encodeURIComponent(campaign)}/feed`;
  while (!options.signal.aborted) {
    let received = false;
    const connection = new AbortController();
    const stop = () => connection.abort();
    options.signal.addEventListener("abort", stop, { once: true });
    try {
      const response = await server.open(
        path,
        { accept: "text/event-stream", ...(last > 0 ? { "last-event-id": String(last) } : {}) },
        connection.signal,
      );
      server.answered();
      // Read as it comes, while the follower is busy with what came before: a cut loses nothing already received.
      const batches = readAhead(serverSentEvents(response.body!, () => connection.abort()));
      if (dropped) yield [];
      dropped = true;
      for await (const batch of batches) {
        // Each event carries its seq (the SSE id repeats it). What the server sends again after a reconnect, or out of
        // order, the follower already has.
        const fresh = batch.filter((event) => event.seq > last).sort((a, b) => a.seq - b.seq);
        if (fresh.length === 0) continue;
        last = fresh[fresh.length - 1]!.seq;
        received = true;
        delay = RECONNECT_DELAYS_MS.first;
        yield fresh;
      }
      // The server closed the stream: reconnect at once, as a browser's EventSource does.
      continue;
    } catch (error) {
      if (options.signal.aborted) return;
      // A refusal (401, 403, 404) ends the feed; the server failing (5xx) or the connection failing does not.
      if (error instanceof ServerError && error.status !== undefined && !serverFailing(error.status)) throw error;
      // A connection that brought events and was then cut is resumed at once, and quietly: it was making progress.
      if (received) continue;
      const failure =
        error instanceof ServerError
          ? error
          : unreachable(
              server.base,
              connection.signal.aborted ? new Error(`no word for ${FEED_SILENCE_MS / 1000} s`) : error,
            );
      if (server.reconnects) {
        await server.waitOut(failure, options.signal);
        continue;
      }
      options.onRetry?.(failure, delay);
      await pause(delay, options.signal);
      delay = Math.min(delay * 2, RECONNECT_DELAYS_MS.most);
    } finally {
      options.signal.removeEventListener("abort", stop);
      connection.abort();
    }
  }
}

/**
 * Takes from `source` from now on, as fast as it gives, whatever the pace of the reader; a failure comes after what
 * came before it.
 */
function readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const queue: T[] = [];
  let ended = false;
  let failure: { error: unknown } | undefined;
  let wake = () => {};
  void (async () => {
    try {
      for await (const item of source) {
        queue.push(item);
        wake();
      }
    } catch (error) {
      failure = { error };
    } finally {
      ended = true;
      wake();
    }
  })();
  return (async function* () {
    for (;;) {
      if (queue.length > 0) yield queue.shift()!;
      else if (failure) throw failure.error;
      else if (ended) return;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
  })();
}

/**
 * The `event` messages of an SSE stream, parsed per the HTML standard's rules (id, event, data; comments skipped).
 * `silent` is called when nothing has come for FEED_SILENCE_MS.
 */
async function* serverSentEvents(body: ReadableStream<Uint8Array>, silent: () => void): AsyncGenerator<SeatEvent[]> {
  const decoder = new TextDecoder();
  let pending = "";
  let data: string[] = [];
  let type = "message";
  let watchdog = setTimeout(silent, FEED_SILENCE_MS);
  try {
    for await (const chunk of body) {
      clearTimeout(watchdog);
      watchdog = setTimeout(silent, FEED_SILENCE_MS);
      pending += decoder.decode(chunk, { stream: true });
      const lines = pending.split(/\r\n|\r|\n/);
      pending = lines.pop()!;
      const batch: SeatEvent[] = [];
      for (const line of lines) {
        if (line === "") {
          if (type === "event" && data.length > 0) batch.push(JSON.parse(data.join("\n")) as SeatEvent);
          data = [];
          type = "message";
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "data") data.push(value);
        else if (field === "event") type = value;
      }
      if (batch.length > 0) yield batch;
    }
  } finally {
    clearTimeout(watchdog);
  }
}
