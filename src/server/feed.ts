import type { FastifyReply, FastifyRequest } from "fastify";
import { Subscription } from "rxjs";
import { initialState } from "../../projections/state.js";
import { toCurrent, type CurrentEvent, type StoredEvent } from "../../events/index.js";
import { eventsAsSeen } from "../../replays/as-seen.js";
import type { EventStore } from "../log/index.js";
import { seesAll, type Viewer } from "../views.js";
import { logViewContext } from "../views-log.js";
import { HttpError } from "./errors.js";

/** How often an idle feed sends a comment, so that proxies and clients know the connection is alive. */
export const KEEP_ALIVE_MS = 15_000;

/** The seq a reconnecting client last received (`Last-Event-ID`), 0 when absent. */
export function lastEventId(request: FastifyRequest): number {
  const header = request.headers["last-event-id"];
  if (header === undefined || header === "") return 0;
  if (typeof header !== "string" || !/^(0|[1-9][0-9]{0,11})$/.test(header))
    throw new HttpError(
      "invalid",
      `Last-Event-ID must be the seq of an event (0, 1, 2, ...), not "${String(header)}"`,
      {
        field: "Last-Event-ID",
      },
    );
  return Number(header);
}

/** The open feeds of a server, ended before it closes (a feed never ends by itself). */
export class Feeds {
  private readonly open = new Set<() => void>();

  /**
   * Streams a line's events to one viewer as Server-Sent Events (docs/server.md): every event after `after`, then each
   * new one as it is appended, each once and in seq order (the store's batches$), as the viewer may see it. A player's
   * event is judged with the campaign as it stands when its batch is sent, as `log --as` judges the whole log.
   */
  async stream(
    request: FastifyRequest,
    reply: FastifyReply,
    store: EventStore,
    stream: string,
    viewer: Viewer,
    after: number,
  ): Promise<void> {
    // Read before the answer starts: a line that cannot be read is an error status, not a feed that stops.
    const seen: CurrentEvent[] = (await store.readAll(stream)).map(toCurrent);
    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    const send = (events: readonly (StoredEvent | CurrentEvent)[]) => {
      const context = seesAll(viewer) ? { state: initialState } : logViewContext(seen);
      for (const view of eventsAsSeen(
        events.filter((event) => event.seq > after),
        viewer,
        context,
      ))
        out.write(`id: ${view.seq}\nevent: event\ndata: ${JSON.stringify(view)}\n\n`);
    };
    send(seen);
    const subscription = new Subscription();
    const keepAlive = setInterval(() => out.write(": keep-alive\n\n"), KEEP_ALIVE_MS);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(keepAlive);
      subscription.unsubscribe();
      this.open.delete(end);
      if (!out.writableEnded) out.end();
      // The feed's line of the request log, written when it ends (a feed is answered only then).
      request.log.info(
        { method: request.method, url: request.url, status: 200, ms: Math.round(reply.elapsedTime), viewer },
        "request (feed closed)",
      );
    };
    this.open.add(end);
    // The response closes when the client goes away (or when end() has ended it).
    out.on("close", end);
    subscription.add(
      store.batches$(stream, (seen[seen.length - 1]?.seq ?? 0) + 1).subscribe({
        next: (batch) => {
          seen.push(...batch.map(toCurrent));
          send(batch);
        },
        error: (error: unknown) => {
          request.log.error({ err: error, stream }, "feed failed");
          end();
        },
        complete: end,
      }),
    );
  }

  /** Ends every open feed: the server is closing. */
  endAll(): void {
    for (const end of [...this.open]) end();
  }
}
