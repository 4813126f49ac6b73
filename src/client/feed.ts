import type { SeatEvent } from "./remote.js";
import { ServerError, type ServerConnection } from "./server.js";

/** How long to wait before reconnecting after a drop: doubling from the first, up to the last. */
const RECONNECT_DELAYS_MS = { first: 100, most: 5000 };

export interface FeedOptions {
  /** The seq of the last event the follower has: the feed starts after it (0: from the first event). */
  after: number;
  /** Ends the feed: the generator returns. */
  signal: AbortSignal;
  /** Told when a connection failed before bringing any event, and is tried again after `delayMs`. */
  onRetry?: (error: Error, delayMs: number) => void;
}

/**
 * Follows a campaign's live feed (GET /campaigns/:id/feed, Server-Sent Events): yields the events as they arrive, in
 * batches of what each read of the connection brought. After a drop it reconnects with `Last-Event-ID` set to the last
 * seq it yielded, so that each event is yielded once and in order, whatever the server sends again. A refusal (401,
 * 403, 404) ends it with a ServerError; an unreachable server is tried again, ever more slowly, until the signal.
 */
export async function* followFeed(
  server: ServerConnection,
  campaign: string,
  options: FeedOptions,
): AsyncGenerator<SeatEvent[]> {
  let last = options.after;
  let delay = RECONNECT_DELAYS_MS.first;
  const path = `/campaigns/${encodeURIComponent(campaign)}/feed`;
  while (!options.signal.aborted) {
    let received = false;
    try {
      const response = await server.open(
        path,
        { accept: "text/event-stream", ...(last > 0 ? { "last-event-id": String(last) } : {}) },
        options.signal,
      );
      for await (const batch of serverSentEvents(response.body!)) {
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
      if (error instanceof ServerError && error.status !== undefined) throw error;
      // A connection that brought events and was then cut is resumed at once, and quietly: it was making progress.
      if (received) continue;
      options.onRetry?.(error as Error, delay);
      await pause(delay, options.signal);
      delay = Math.min(delay * 2, RECONNECT_DELAYS_MS.most);
    }
  }
}

/** The `event` messages of an SSE stream, parsed per the HTML standard's rules (id, event, data; comments skipped). */
async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SeatEvent[]> {
  const decoder = new TextDecoder();
  let pending = "";
  let data: string[] = [];
  let type = "message";
  for await (const chunk of body) {
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
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
