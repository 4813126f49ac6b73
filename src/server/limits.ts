import type { FastifyInstance } from "fastify";
import { HttpError } from "./errors.js";

/**
 * What one client may hold of the server (docs/server.md, "Limits"): how long a request may take to arrive, how many
 * connections are open at once, how large a body is, and how often one address may sign in. A slow or endless request
 * is cut off by the timeouts, so that no number of them keeps the server from answering the others.
 */
export interface ServerLimits {
  /** Milliseconds a request's headers may take to arrive, from the connection's start. */
  headersTimeout: number;
  /** Milliseconds a whole request (headers and body) may take to arrive; its answer may take longer (a feed). */
  requestTimeout: number;
  /** Milliseconds a connection may stay idle, neither side sending a byte (0: no limit; a feed's keep-alive counts). */
  connectionTimeout: number;
  /** Milliseconds a kept-alive connection waits for its next request. */
  keepAliveTimeout: number;
  /** Requests one kept-alive connection may carry (0: no limit). */
  maxRequestsPerSocket: number;
  /** Connections open at once; one more is closed at once. */
  maxConnections: number;
  /** The largest body, in bytes. */
  bodyLimit: number;
  /** Sign-ins (POST /session: an invite redeemed) one address may try per `signInWindow`; one more is 429. */
  signInMax: number;
  /** Milliseconds over which `signInMax` is counted. */
  signInWindow: number;
  /** Milliseconds between the checks of the request timeouts (Node's connectionsCheckingInterval). */
  timeoutCheckInterval: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  connectionTimeout: 0,
  keepAliveTimeout: 72_000,
  maxRequestsPerSocket: 0,
  maxConnections: 1000,
  bodyLimit: 1024 * 1024,
  // A club behind one address (a LAN's NAT) signs in a browser per seat and campaign; an invite, 256 random bits, is
  // never guessed: the limit bounds the work one address makes, not guessing.
  signInMax: 60,
  signInWindow: 60_000,
  timeoutCheckInterval: 1_000,
};

/** The options of Node's HTTP(S) server and of Fastify that enforce the limits. */
export function serverOptions(limits: ServerLimits) {
  return {
    /** For http.createServer or https.createServer (where they join the TLS options). */
    node: {
      headersTimeout: limits.headersTimeout,
      requestTimeout: limits.requestTimeout,
      connectionsCheckingInterval: limits.timeoutCheckInterval,
    },
    fastify: {
      bodyLimit: limits.bodyLimit,
      requestTimeout: limits.requestTimeout,
      connectionTimeout: limits.connectionTimeout,
      keepAliveTimeout: limits.keepAliveTimeout,
      maxRequestsPerSocket: limits.maxRequestsPerSocket,
    },
  };
}

/**
 * The per-address limit on sign-ins (@fastify/rate-limit), for the routes whose config says `rateLimit`: one more is
 * 429 with Retry-After. The address is the client's, or the one a trusted proxy forwards (trustProxy).
 */
export async function limitSignIns(app: FastifyInstance, limits: ServerLimits): Promise<void> {
  const { default: rateLimit } = await import("@fastify/rate-limit");
  await app.register(rateLimit, {
    global: false,
    max: limits.signInMax,
    timeWindow: limits.signInWindow,
    errorResponseBuilder: (_request, context) =>
      new HttpError(
        "rate-limited",
        `too many sign-ins from this address (at most ${context.max} in ${limits.signInWindow / 1000} s): retry in ${context.after}`,
      ),
  });
}
