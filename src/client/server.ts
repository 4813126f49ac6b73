/**
 * One seat's connection to a campaign server (the protocol of docs/server.md): requests with the seat's bearer token,
 * over fetch or another Transport; the live feed over fetch's streams. The token goes in the Authorization header only:
 * never in a URL, never in a message. The web page gives no token: its session cookie goes with every request to its
 * own server.
 */

import { Outage, pause, retryAfterMs, type ReconnectOptions } from "./reconnect.js";

/** A request the server could not be asked, or answered with no use to the seat: the CLI reports it as one line. */
export class ServerError extends Error {
  override readonly name: string = "ServerError";
  constructor(
    message: string,
    /** The HTTP status, when the server answered. */
    readonly status?: number,
    /** Why the server was not reached (ECONNREFUSED, ...) or failed (503 ...), in a few words. */
    readonly reason = message,
    /** A 503's Retry-After header. */
    readonly retryAfter?: string,
  ) {
    super(message);
  }
}

/** The server stayed out of reach (no answer, or only 5xx) longer than the connection's offline timeout. */
export class ServerOfflineError extends ServerError {
  override readonly name = "ServerOfflineError";
}

/** The JSON body the server answers an error with: `{error, message, ...}` (docs/server.md, Errors). */
export interface ServerErrorBody {
  error?: string;
  message?: string;
  field?: string;
  rule?: string;
  index?: number;
  seq?: number;
}

export interface ServerAnswer {
  status: number;
  body: unknown;
  /** The answer's Retry-After header, for a 503. */
  retryAfter?: string;
  /** The answer's ETag header: a read sent again with it is answered 304 while what it reads is unchanged. */
  etag?: string;
}

/** The base URL of a server as given (`http://host:port`, maybe with a path), checked and without a trailing slash. */
export function serverBase(given: string): string {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new ServerError(`--server must be the server's address, such as http://127.0.0.1:4100, not "${given}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new ServerError(`--server must be an http:// or https:// address, not "${given}"`);
  if (url.username || url.password || url.search || url.hash)
    throw new ServerError(
      "--server takes the server's address only (no user, query or #fragment): the token goes in --token",
    );
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/** Why a request never got an answer, in a user's words: the address and the network's reason (ECONNREFUSED, ...). */
export function unreachable(base: string, error: unknown): ServerError {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const reason = cause?.code ?? cause?.message ?? (error as Error).message;
  return new ServerError(
    `cannot reach the server at ${base} (${reason}): is it running, and is --server right?`,
    undefined,
    reason,
  );
}

/** A 5xx answer's reason, in a few words: `503 unavailable: the store failed...`. */
function failingReason(answer: ServerAnswer): string {
  const body = (answer.body ?? {}) as ServerErrorBody;
  return `${answer.status}${body.error ? ` ${body.error}` : ""}${body.message ? `: ${body.message}` : ""}`;
}

/** Milliseconds as seconds with one decimal. */
const seconds = (ms: number) => (ms / 1000).toFixed(1);

/** The sentence for an answer the seat cannot act on: a bad token, another seat's campaign, no such campaign. */
export function refusedAccess(base: string, answer: ServerAnswer): ServerError {
  const body = (answer.body ?? {}) as ServerErrorBody;
  const said = body.message ? `: ${body.message}` : "";
  switch (answer.status) {
    case 401:
      return new ServerError(
        `the server at ${base} does not accept this token (401 unauthorized${said}); it may be revoked or mistyped: ask the organiser for a new invite and run epicwar join`,
        401,
      );
    case 403:
      return new ServerError(
        `this token's seat may not do that (403 forbidden${said}); a token acts as one seat of one campaign`,
        403,
      );
    case 404:
      return new ServerError(`not found on ${base} (404${said}): check --campaign and --branch`, 404);
    default:
      return new ServerError(
        `the server at ${base} answered ${answer.status}${body.error ? ` ${body.error}` : ""}${said}`,
        answer.status,
        failingReason(answer),
        answer.retryAfter,
      );
  }
}

/** One request as a Transport sends it: an absolute URL, the headers, and a body already serialised. */
export interface TransportRequest {
  method: "GET" | "POST";
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** What a Transport brings back: the status, the body's text, and the Retry-After and ETag headers when there are. */
export interface TransportAnswer {
  status: number;
  text: string;
  retryAfter?: string;
  etag?: string;
}

/** How requests reach the server: fetch by default (a browser's, or Node's); src/client/http-transport.ts on Node. */
export type Transport = (request: TransportRequest) => Promise<TransportAnswer>;

export const fetchTransport: Transport = async ({ method, url, headers, body }) => {
  const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
  const retryAfter = response.headers.get("retry-after");
  const etag = response.headers.get("etag");
  return {
    status: response.status,
    text: await response.text(),
    ...(retryAfter ? { retryAfter } : {}),
    ...(etag ? { etag } : {}),
  };
};

export interface ConnectionOptions {
  /**
   * Ride out a server that is out of reach or failing (5xx) instead of failing at once: reads and the feed are tried
   * again, and a command whose answer was lost is looked for in the log before it is sent again (RemoteCampaign).
   * Without it, the first such failure is thrown.
   */
  reconnect?: ReconnectOptions;
}

/** Whether an answer is the server failing (5xx), which a reconnecting client waits out, rather than a refusal. */
export const serverFailing = (status: number) => status >= 500;

export class ServerConnection {
  readonly base: string;
  /** The time out of reach of the server, with `reconnect`: shared by every request and feed of this connection. */
  private readonly outage: Outage | undefined;

  constructor(
    server: string,
    private readonly token?: string,
    private readonly transport: Transport = fetchTransport,
    options: ConnectionOptions = {},
  ) {
    this.base = serverBase(server);
    this.outage = options.reconnect && new Outage(options.reconnect);
  }

  /** Whether this connection rides out a server out of reach (ConnectionOptions.reconnect). */
  get reconnects(): boolean {
    return this.outage !== undefined;
  }

  /**
   * After a failed try (a ServerError with no status: no answer; or a 5xx answer): waits before the next try, or throws
   * a ServerOfflineError once the server has been out of reach for the offline timeout. Without `reconnect`, throws the
   * failure at once.
   */
  async waitOut(failure: ServerError | ServerAnswer, signal?: AbortSignal): Promise<void> {
    const error = failure instanceof ServerError ? failure : refusedAccess(this.base, failure);
    if (!this.outage) throw error;
    const reason = error.reason;
    const wait = this.outage.failed(reason, retryAfterMs(error.retryAfter, Date.now()));
    if (wait === undefined)
      throw new ServerOfflineError(
        `the server at ${this.base} has been out of reach for ${seconds(this.outage.offlineMs())} s (${reason}), the offline timeout (${seconds(this.outage.options.offlineTimeoutMs)} s): giving up`,
      );
    await pause(wait, signal);
  }

  /** A try got an answer that is not the server failing: the outage, if there was one, is over. */
  answered(): void {
    this.outage?.answered();
  }

  /** The headers of every request: the token as a bearer (when there is one), JSON both ways. */
  headers(extra: Record<string, string> = {}): Record<string, string> {
    const bearer: Record<string, string> = this.token === undefined ? {} : { authorization: `Bearer ${this.token}` };
    return { ...bearer, accept: "application/json", ...extra };
  }

  /**
   * One request; a network failure becomes a ServerError naming the address. With `reconnect`, a read (GET) is tried
   * again until it is answered other than by a 5xx, or the offline timeout runs out; a POST is sent once (whether it
   * may be sent again is its caller's to judge: RemoteCampaign looks in the log first).
   */
  async send(
    method: "GET" | "POST",
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ServerAnswer> {
    for (;;) {
      let answer: ServerAnswer;
      try {
        answer = await this.sendOnce(method, path, body, headers);
      } catch (error) {
        if (method === "GET" && this.reconnects && error instanceof ServerError && error.status === undefined) {
          await this.waitOut(error);
          continue;
        }
        throw error;
      }
      if (method === "GET" && this.reconnects && serverFailing(answer.status)) {
        await this.waitOut(answer);
        continue;
      }
      if (!serverFailing(answer.status)) this.answered();
      return answer;
    }
  }

  /** One try of a request, whatever the connection's `reconnect`. */
  private async sendOnce(
    method: "GET" | "POST",
    path: string,
    body: unknown,
    headers: Record<string, string>,
  ): Promise<ServerAnswer> {
    let answer: TransportAnswer;
    try {
      answer = await this.transport({
        method,
        url: `${this.base}${path}`,
        headers: this.headers(body === undefined ? headers : { ...headers, "content-type": "application/json" }),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw unreachable(this.base, error);
    }
    return {
      status: answer.status,
      body: parseJson(answer.text),
      ...(answer.retryAfter ? { retryAfter: answer.retryAfter } : {}),
      ...(answer.etag ? { etag: answer.etag } : {}),
    };
  }

  /** A read that must succeed: its JSON body, or a ServerError saying why not. */
  async read<T>(path: string): Promise<T> {
    const answer = await this.send("GET", path);
    if (answer.status !== 200) throw refusedAccess(this.base, answer);
    return answer.body as T;
  }

  /**
   * A read of what was read before with the ETag `held`: "unchanged" when the server says so (304), else the body and
   * its ETag, or a ServerError saying why not.
   */
  async readIfChanged<T>(path: string, held: string | undefined): Promise<{ body: T; etag?: string } | "unchanged"> {
    const answer = await this.send("GET", path, undefined, held === undefined ? {} : { "if-none-match": held });
    if (answer.status === 304 && held !== undefined) return "unchanged";
    if (answer.status !== 200) throw refusedAccess(this.base, answer);
    return { body: answer.body as T, ...(answer.etag ? { etag: answer.etag } : {}) };
  }

  /**
   * Opens a stream (the live feed): the response, or a ServerError for a refusal or an unreachable server (with no
   * status), or a 5xx (with its status; the answer's Retry-After as `retryAfter`).
   */
  async open(path: string, headers: Record<string, string>, signal: AbortSignal): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, { headers: this.headers(headers), signal });
    } catch (error) {
      if (signal.aborted) throw error;
      throw unreachable(this.base, error);
    }
    if (response.status !== 200) {
      const retryAfter = response.headers.get("retry-after");
      throw refusedAccess(this.base, {
        status: response.status,
        body: await readJson(response),
        ...(retryAfter ? { retryAfter } : {}),
      });
    }
    return response;
  }
}

/** A response's JSON body. */
async function readJson(response: Response): Promise<unknown> {
  return parseJson(await response.text());
}

/** A body's JSON; text that is not JSON is kept as the message of an error body. */
function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { message: text.slice(0, 200) };
  }
}

/**
 * Redeems an invite (POST /session): the seat's token, campaign and seat. The invite is single use: a used or unknown
 * one is refused (401).
 */
export async function redeemInvite(
  server: string,
  invite: string,
): Promise<{ token: string; campaign: string; seat: string }> {
  const base = serverBase(server);
  let response: Response;
  try {
    response = await fetch(`${base}/session`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ invite }),
    });
  } catch (error) {
    throw unreachable(base, error);
  }
  const body = (await readJson(response)) as Partial<{ token: string; campaign: string; seat: string }> &
    ServerErrorBody;
  if (response.status === 401)
    throw new ServerError(
      `the server at ${base} does not know this invite, or it was used already (an invite works once): ask the organiser for a new one`,
      401,
    );
  if (response.status !== 200) throw refusedAccess(base, { status: response.status, body });
  if (typeof body.token !== "string" || typeof body.campaign !== "string" || typeof body.seat !== "string")
    throw new ServerError(`the server at ${base} answered the invite without a token, campaign and seat`);
  return { token: body.token, campaign: body.campaign, seat: body.seat };
}
