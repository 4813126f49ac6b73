import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { describeAjvError } from "../../events/index.js";
import { storeFailure } from "../log/index.js";
import type { Refusal } from "../rules/refusal.js";
import { SeatStoreError } from "./seat-store.js";

/** The error codes of the protocol (docs/server.md), each with its HTTP status. */
export const ERROR_STATUS = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  "not-found": 404,
  stale: 409,
  "too-large": 413,
  "unsupported-media-type": 415,
  refused: 422,
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

/**
 * Every error a route or Fastify raises, as the protocol's JSON body. Fastify's own (a body that is not JSON, too large,
 * of another media type; a query or body its schema rejects) are named by field; anything else is an internal error,
 * logged with its stack and answered without it.
 */
export function sendError(error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const http = asHttpError(error);
  if (http.code === "internal") request.log.error({ err: error }, "internal error");
  return reply.status(http.status).send({ error: http.code, message: http.message, ...http.details });
}

function asHttpError(error: FastifyError | HttpError): HttpError {
  if (error instanceof HttpError) return error;
  const unavailable = unavailableBecause(error);
  if (unavailable) return unavailable;
  if (error.validation) {
    const where = error.validationContext === "querystring" ? "query" : (error.validationContext ?? "body");
    const { field, message } = describeAjvError(error.validation as Parameters<typeof describeAjvError>[0], "");
    return new HttpError("invalid", `${where} ${field}: ${message}`, { field });
  }
  switch (error.statusCode) {
    case 400:
      return new HttpError("invalid", `the body is not valid JSON: ${error.message}`, { field: "(body)" });
    case 413:
      return new HttpError("too-large", "the body is larger than the 1 MiB a request may carry");
    case 415:
      return new HttpError("unsupported-media-type", "a body must be JSON (Content-Type: application/json)");
    default:
      return new HttpError("internal", "the server failed on this request (its log says why)");
  }
}

/**
 * A write the server could not make (a full disk): its log, which then takes no command until the server has reopened
 * it, or its seats file. Nothing was acknowledged; the request may be sent again once the disk has room.
 */
function unavailableBecause(error: Error): HttpError | undefined {
  const failure = storeFailure(error);
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
