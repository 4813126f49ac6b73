/**
 * One seat's connection to a campaign server (the protocol of docs/server.md): requests with the seat's bearer token,
 * over fetch or another Transport; the live feed over fetch's streams. The token goes in the Authorization header only:
 * never in a URL, never in a message. The web page gives no token: its session cookie goes with every request to its
 * own server.
 */

/** A request the server could not be asked, or answered with no use to the seat: the CLI reports it as one line. */
export class ServerError extends Error {
  override readonly name = "ServerError";
  constructor(
    message: string,
    /** The HTTP status, when the server answered. */
    readonly status?: number,
  ) {
    super(message);
  }
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
function unreachable(base: string, error: unknown): ServerError {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const reason = cause?.code ?? cause?.message ?? (error as Error).message;
  return new ServerError(`cannot reach the server at ${base} (${reason}): is it running, and is --server right?`);
}

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

/** How requests reach the server: fetch by default (a browser's, or Node's); src/client/http-transport.ts on Node. */
export type Transport = (request: TransportRequest) => Promise<{ status: number; text: string }>;

export const fetchTransport: Transport = async ({ method, url, headers, body }) => {
  const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
  return { status: response.status, text: await response.text() };
};

export class ServerConnection {
  readonly base: string;

  constructor(
    server: string,
    private readonly token?: string,
    private readonly transport: Transport = fetchTransport,
  ) {
    this.base = serverBase(server);
  }

  /** The headers of every request: the token as a bearer (when there is one), JSON both ways. */
  headers(extra: Record<string, string> = {}): Record<string, string> {
    const bearer: Record<string, string> = this.token === undefined ? {} : { authorization: `Bearer ${this.token}` };
    return { ...bearer, accept: "application/json", ...extra };
  }

  /** One request; a network failure becomes a ServerError naming the address. */
  async send(method: "GET" | "POST", path: string, body?: unknown): Promise<ServerAnswer> {
    let answer: { status: number; text: string };
    try {
      answer = await this.transport({
        method,
        url: `${this.base}${path}`,
        headers: this.headers(body === undefined ? {} : { "content-type": "application/json" }),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw unreachable(this.base, error);
    }
    return { status: answer.status, body: parseJson(answer.text) };
  }

  /** A read that must succeed: its JSON body, or a ServerError saying why not. */
  async read<T>(path: string): Promise<T> {
    const answer = await this.send("GET", path);
    if (answer.status !== 200) throw refusedAccess(this.base, answer);
    return answer.body as T;
  }

  /** Opens a stream (the live feed): the response, or a ServerError for a refusal or an unreachable server. */
  async open(path: string, headers: Record<string, string>, signal: AbortSignal): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, { headers: this.headers(headers), signal });
    } catch (error) {
      if (signal.aborted) throw error;
      throw unreachable(this.base, error);
    }
    if (response.status !== 200)
      throw refusedAccess(this.base, { status: response.status, body: await readJson(response) });
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
