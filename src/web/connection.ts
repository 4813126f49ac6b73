import { signal } from "@preact/signals";
import { fetchTransport, ServerError, type Transport } from "../client/server.js";

/** Whether the page reaches its server: since when it does not, or when it came back after it did not. */
export type ConnectionState =
  { kind: "online" } | { kind: "offline"; since: Date } | { kind: "back"; since: Date; at: Date };

/**
 * The page's connection to its server, as every request and the live feed find it: a request that gets no answer
 * makes it offline (since then), the next answer makes it back. The page's requests go through `transport`.
 */
export class Connection {
  readonly state = signal<ConnectionState>({ kind: "online" });

  constructor(
    private readonly now: () => Date = () => new Date(),
    private readonly send: Transport = fetchTransport,
  ) {}

  readonly transport: Transport = async (request) => {
    let answer: Awaited<ReturnType<Transport>>;
    try {
      answer = await this.send(request);
    } catch (error) {
      this.lost();
      throw error;
    }
    this.reached();
    return answer;
  };

  /** No answer came (a request failed, the feed dropped): offline, since the first time. */
  lost(): void {
    if (this.state.value.kind !== "offline") this.state.value = { kind: "offline", since: this.now() };
  }

  /** An answer came: back, if it was offline. */
  reached(): void {
    const state = this.state.value;
    if (state.kind === "offline") this.state.value = { kind: "back", since: state.since, at: this.now() };
  }

  get offline(): boolean {
    return this.state.value.kind === "offline";
  }
}

/** A time of day as the page shows it: HH:MM:SS in the browser's local time. */
export function clockTime(at: Date): string {
  return [at.getHours(), at.getMinutes(), at.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":");
}

/** The connection's state in the page's words. */
export function connectionWords(state: ConnectionState): string {
  switch (state.kind) {
    case "online":
      return "Connected to the server.";
    case "offline":
      return `Offline since ${clockTime(state.since)}: the server does not answer. Reconnecting…`;
    case "back":
      return `Back at ${clockTime(state.at)} (offline from ${clockTime(state.since)}): the page has caught up.`;
  }
}

/**
 * A request that got no answer, in the page's words: the server may be down or restarting, and what was sent may or
 * may not have reached it. Any other error keeps its own message.
 */
export function problemWords(error: unknown): string {
  if (error instanceof ServerError && error.status === undefined)
    return "The server did not answer (it may be down or restarting). The page reconnects by itself; once it is back, check the campaign before you try again.";
  return error instanceof Error ? error.message : String(error);
}
