import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { describeAjvError } from "../../events/index.js";
import { DatabaseAwayError, storeFailure } from "../log/index.js";
import type { Refusal } from "../rules/refusal.js";
import { SeatStoreError } from "./seat-store.js";

/** The error codes of the protocol (docs/server.md), each with its HTTP status. */
export const ERROR_STATUS = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  "not-found": 404,
  timeout: 408,
  stale: 409,
  "too-large": 413,
  "unsupported-media-type": 415,
  refused: 422,
  "rate-limited": 429,
  "headers-too-large": 431,
  internal: 500,
  unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

/** A request the server answers with an error: `{"error": code, "message": sentence, ...details}`. */
export class HttpError extends Error {
  override readonly name = "HttpError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Further members of the body: the field, rule, index or seq the message speaks of. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** The body of an error answer, as every error of the protocol has it. */
export const errorBody = (error: HttpError) => ({ error: error.code, message: error.message, ...error.details });

/**
 * Every error a route or Fastify raises, as the protocol's JSON body. Fastify's own (a URL it cannot decode, a body
 * that is not JSON, too large, of another media type; a query or body its schema rejects) are named by field; anything
 * else is an internal error, logged with its stack and answered without it. `bodyLimit` is the largest body, in bytes.
 */
export function errorHandler(bodyLimit: number) {
  return (error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const http = asHttpError(error, bodyLimit);
    if (http.code === "internal") request.log.error({ err: error }, "internal error");
    return reply.status(http.status).send(errorBody(http));
  };
}

/**
 * A request Node's parser refuses before Fastify sees it (a malformed request line or header, headers too large, a
 * request that took longer than the timeouts allow to arrive), answered with the protocol's body and its connection
 * closed.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const http =
    error.code === "ERR_HTTP_REQUEST_TIMEOUT"
      ? new HttpError("timeout", "the request did not arrive in the time the server allows: send it whole, at once")
      : error.code === "HPE_HEADER_OVERFLOW"
        ? new HttpError("headers-too-large", "the request's headers are larger than the server takes")
        : new HttpError("invalid", "the request is not valid HTTP: its request line or a header is malformed", {
            field: "(request)",
          });
  const body = JSON.stringify(errorBody(http));
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${http.status} ${STATUS_CODES[http.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy();
}

/** A size in bytes as people read it: 1 MiB, 64 KiB, 100 bytes. */
export function bytesInWords(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

function asHttpError(error: FastifyError | HttpError, bodyLimit: number): HttpError {
  if (error instanceof HttpError) return error;
  const unavailable = unavailableBecause(error);
  if (unavailable) return unavailable;
  if (error.validation) {
    const where = error.validationContext === "querystring" ? "query" : (error.validationContext ?? "body");
    const { field, message } = describeAjvError(error.validation as Parameters<typeof describeAjvError>[0], "");
    return new HttpError("invalid", `${where} ${field}: ${message}`, { field });
  }
  if (error.code === "FST_ERR_BAD_URL")
    return new HttpError("invalid", "the URL's path is not valid percent-encoded UTF-8", { field: "(url)" });
  if (error.code === "FST_ERR_MAX_PARAM_LENGTH")
    return new HttpError("invalid", "a part of the URL's path is longer than any id", { field: "(url)" });
  switch (error.statusCode) {
    case 400:
      return new HttpError("invalid", `the body is not valid JSON: ${error.message}`, { field: "(body)" });
    case 413:
      return new HttpError("too-large", `the body is larger than the ${bytesInWords(bodyLimit)} a request may carry`);
    case 415:
      return new HttpError("unsupported-media-type", "a body must be JSON (Content-Type: application/json)");
    default:
      return new HttpError("internal", "the server failed on this request (its log says why)");
  }
}

/**
 * A write the server could not make (a full disk): its log, which then takes no command until the server has reopened
 * it, or its seats file; or the log's database away (PostgreSQL restarting). Nothing was acknowledged; the request may
 * be sent again once the disk has room or the database is back.
 */
function unavailableBecause(error: Error): HttpError | undefined {
  const failure = storeFailure(error);
  if (failure instanceof DatabaseAwayError)
    return new HttpError(
      "unavailable",
      `the server cannot reach its log's database (${failure.reason}): nothing is acknowledged until it can; it connects again by itself, so send this again shortly`,
      { reason: failure.reason },
    );
  if (failure)
    return new HttpError(
      "unavailable",
      `the server cannot write its log (${failure.reason}): nothing is acknowledged until it can; it tries again by itself, so send this again shortly`,
      { reason: failure.reason },
    );
  if (error instanceof SeatStoreError)
    return new HttpError(
      "unavailable",
      `the server cannot write its seats file (${error.reason}): nothing was changed; send this again shortly`,
      { reason: error.reason },
    );
  return undefined;
}

/** The rule or field a refusal names, as members of an error body. */
export function refusalDetails(refusal: Refusal): Record<string, string> {
  if (refusal.kind === "rule")
    return { rule: refusal.rule, ...(refusal.field === undefined ? {} : { field: refusal.field }) };
  if (refusal.kind === "field") return { field: refusal.field };
  return {};
}
