import type { FastifyReply, FastifyRequest } from "fastify";
import { Subscription } from "rxjs";
import { initialState } from "../../projections/state.js";
import { toCurrent, type CurrentEvent, type StoredEvent } from "../../events/index.js";
import { eventsAsSeen } from "../../replays/as-seen.js";
import type { ViewContext } from "../views/secret-field.js";
import type { EventStore } from "../log/index.js";
import { seesAll, type Viewer } from "../views/view.js";
import { ContextSnapshots, type ContextAt } from "../../replays/context-snapshots.js";
import { GrowingViewContext } from "../views/log.js";
import { HttpError } from "./errors.js";
import { logRequest } from "./request-log.js";

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

/** One open feed: its seat, the last seq it has been sent, and its response. */
interface Follower {
  readonly viewer: Viewer;
  last: number;
  write(text: string): void;
  end(): void;
}

/** An event as Server-Sent Events carry it: its seq as the id, the view as the data. */
const sse = (view: { seq: number }) => `id: ${view.seq}\nevent: event\ndata: ${JSON.stringify(view)}\n\n`;

/**
 * A line followed by every feed open on it: read from the store once, followed through one subscription, and its
 * view context advanced once per batch, however many feeds watch it. Each batch is viewed and written out once per
 * seat, and that text goes to every feed of the seat: a hundred viewers cost one view per seat, not a hundred.
 */
class FollowedLine {
  private readonly events: CurrentEvent[];
  private readonly growing: GrowingViewContext;
  private context: ViewContext;
  private readonly followers = new Set<Follower>();
  private readonly subscription: Subscription;
  /** Followed no more: a feed that got this line as it closed follows a new one. */
  closed = false;

  constructor(
    store: EventStore,
    stream: string,
    /** The line's events from `firstSeq` on, as read when it was opened. */
    stored: readonly StoredEvent[],
    /** The first seq kept: a feed that asks for earlier ones is sent them from the store (Feeds.stream). */
    readonly firstSeq: number,
    /** The line's context at a seq (a context snapshot), which the events after it are folded onto. */
    start: ContextAt | undefined,
    log: FastifyRequest["log"],
    /** Called once the line is followed no more: its last feed ended, or the store's stream failed or completed. */
    private readonly onClosed: () => void,
  ) {
    this.events = stored.map(toCurrent);
    this.growing = new GrowingViewContext(start?.context);
    this.context = this.growing.advance(this.events.filter((event) => event.seq > (start?.seq ?? 0)));
    this.subscription = store.batches$(stream, this.lastSeq() + 1).subscribe({
      next: (batch) => this.deliver(batch),
      error: (error: unknown) => {
        log.error({ err: error, stream }, "feed failed");
        this.close();
      },
      complete: () => this.close(),
    });
  }

  private lastSeq(): number {
    return this.events[this.events.length - 1]?.seq ?? this.firstSeq - 1;
  }

  /** The context a seat's views are judged in: the campaign as it stands now, for a player. */
  private contextFor(viewer: Viewer): ViewContext {
    return seesAll(viewer) ? { state: initialState } : this.context;
  }

  /**
   * Starts a feed: sends it every event after `after` so far, then each batch as it comes. Both happen in one turn of
   * the event loop, so that no batch falls between the two.
   */
  join(follower: Follower, after: number, earlier: readonly StoredEvent[]): void {
    const missed = [...earlier.map(toCurrent), ...this.events.filter((event) => event.seq > after)];
    follower.write(eventsAsSeen(missed, follower.viewer, this.contextFor(follower.viewer)).map(sse).join(""));
    follower.last = Math.max(after, this.lastSeq());
    this.followers.add(follower);
  }

  /** The context the line's players' views are judged in now. */
  contextNow(): ViewContext {
    return this.context;
  }

  /** Sends a message that is no event of the log (it carries no id) to this seat's feeds only. */
  notify(viewer: Viewer, text: string): void {
    for (const follower of this.followers) if (follower.viewer === viewer) follower.write(text);
  }

  leave(follower: Follower): void {
    this.followers.delete(follower);
    if (this.followers.size === 0) this.close();
  }

  private deliver(batch: StoredEvent[]): void {
    const events = batch.map(toCurrent);
    this.events.push(...events);
    this.context = this.growing.advance(events);
    const viewsBySeat = new Map<Viewer, { seq: number; text: string }[]>();
    for (const follower of this.followers) {
      let views = viewsBySeat.get(follower.viewer);
      if (!views) {
        views = eventsAsSeen(batch, follower.viewer, this.contextFor(follower.viewer)).map((view) => ({
          seq: view.seq,
          text: sse(view),
        }));
        viewsBySeat.set(follower.viewer, views);
      }
      // A feed that asked for a Last-Event-ID beyond the head when it joined is sent only what comes after it.
      const last = follower.last;
      follower.write(
        views
          .filter((view) => view.seq > last)
          .map((view) => view.text)
          .join(""),
      );
      follower.last = Math.max(last, batch[batch.length - 1]!.seq);
    }
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.subscription.unsubscribe();
    this.onClosed();
    for (const follower of [...this.followers]) follower.end();
  }
}

/**
 * The open feeds of a server, ended before it closes (a feed never ends by itself) or once their token is revoked, and
 * the lines they follow.
 */
export class Feeds {
  /** How to end each open feed -> the hash of the token it was opened with. */
  private readonly open = new Map<() => void, string>();
  private readonly lines = new Map<string, Promise<FollowedLine>>();

  /** `held(tokenHashes)`: which of these tokens are still valid (SeatStore.held). */
  constructor(private readonly held: (tokenHashes: readonly string[]) => Promise<Set<string>>) {}

  /**
   * The followed line of a stream: the one its feeds already share, else one opened now. That reads only what its
   * first feed asks for (the events after `after`) and what the line's context needs (the events after its latest
   * context snapshot, replays/context-snapshots.ts): a feed resumed a few events back reads a few events.
   */
  private follow(store: EventStore, stream: string, log: FastifyRequest["log"], after: number): Promise<FollowedLine> {
    let line = this.lines.get(stream);
    if (!line) {
      const open = async () => {
        const snapshots = new ContextSnapshots(store);
        const head = await store.head(stream);
        const start = await snapshots.latest(stream, head.seq);
        const firstSeq = Math.min(after, start?.seq ?? 0, head.seq) + 1;
        const stored = await store.readAll(stream, firstSeq);
        const followed = new FollowedLine(store, stream, stored, firstSeq, start, log, () => {
          if (this.lines.get(stream) === opened) this.lines.delete(stream);
        });
        await snapshots.keep(stream, stored, followed.contextNow());
        return followed;
      };
      const opened: Promise<FollowedLine> = open();
      // A line that cannot be read is forgotten, so that the next feed of it tries again.
      opened.catch(() => {
        if (this.lines.get(stream) === opened) this.lines.delete(stream);
      });
      this.lines.set(stream, (line = opened));
    }
    return line;
  }

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
    /** The hash of the token that opened the feed: its revocation ends the feed. */
    tokenHash: string,
  ): Promise<void> {
    // Read before the answer starts: a line that cannot be read is an error status, not a feed that stops.
    let line: FollowedLine;
    let earlier: StoredEvent[];
    do {
      line = await this.follow(store, stream, request.log, after);
      // Events before those the line keeps (another feed opened it from further on) are read for this feed alone.
      earlier = after + 1 < line.firstSeq ? await store.readAll(stream, after + 1, line.firstSeq - 1) : [];
      // The line's last feed may have ended while this one waited for it.
    } while (line.closed);
    // Nor may the token have been revoked meanwhile: from here on, its revocation ends the feed.
    if (!(await this.held([tokenHash])).has(tokenHash))
      throw new HttpError("unauthorized", "this token is unknown or has been revoked");
    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    // Node sends the head with the first write: a feed with nothing to send yet would wait for the keep-alive.
    out.flushHeaders();
    const keepAlive = setInterval(() => out.write(": keep-alive\n\n"), KEEP_ALIVE_MS);
    let ended = false;
    const follower: Follower = {
      viewer,
      last: after,
      write: (text) => {
        if (text !== "") out.write(text);
      },
      end: () => end(),
    };
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(keepAlive);
      this.open.delete(end);
      line.leave(follower);
      if (!out.writableEnded) out.end();
      // The feed's line of the request log, written when it ends (a feed is answered only then).
      logRequest(request, reply, { status: 200, message: "request (feed closed)", viewer });
    };
    this.open.set(end, tokenHash);
    // The response closes when the client goes away (or when end() has ended it).
    out.on("close", end);
    line.join(follower, after, earlier);
  }

  /**
   * Tells one seat's open feeds of a line something that is no event of the log, as an SSE message of its own `type`
   * with no id (a reconnecting client's Last-Event-ID stays its last event's): the progress of its forecast. A line
   * nobody follows is told nothing.
   */
  notify(stream: string, viewer: Viewer, type: string, data: object): void {
    const text = `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
    void this.lines
      .get(stream)
      ?.then((line) => line.notify(viewer, text))
      .catch(() => {});
  }

  /** How many feeds are open now. */
  get size(): number {
    return this.open.size;
  }

  /** Ends every open feed: the server is closing. */
  endAll(): void {
    for (const end of [...this.open.keys()]) end();
  }

  /**
   * Ends every open feed whose token has been revoked: a revoked token is sent nothing more. Called after a revocation
   * here, and every second where other servers may revoke tokens (a shared store).
   */
  async endRevoked(): Promise<void> {
    if (this.open.size === 0) return;
    const open = [...this.open];
    const held = await this.held([...new Set(open.map(([, tokenHash]) => tokenHash))]);
    for (const [end, tokenHash] of open) if (!held.has(tokenHash)) end();
  }
}
