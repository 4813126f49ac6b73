import type { FastifyReply, FastifyRequest } from "fastify";
import { TOKEN_PREFIX } from "./seat-store.js";

const REDACTED = "[redacted]";
/** A query member whose name says it carries a secret, whatever a client put in it. */
const SECRET_NAME = /token|invite|session|secret|key|code|password|auth/i;
/** A token, wherever it stands. */
const TOKEN = new RegExp(`${TOKEN_PREFIX}[A-Za-z0-9_-]*`, "g");
/** An invite (32 random bytes, base64url: 43 characters) or anything as long and as random, wherever it stands. */
const LONG_SECRET = /[A-Za-z0-9_-]{40,}/g;

/**
 * A request's URL as the request log may hold it: no token or invite, even one a client put where none belongs (a
 * query, a path). The value of a query member named like a secret is removed whole; a token, or a run as long as an
 * invite, anywhere else.
 */
export function redactedUrl(url: string): string {
  const at = url.indexOf("?");
  const path = at < 0 ? url : url.slice(0, at);
  const query =
    at < 0
      ? undefined
      : url
          .slice(at + 1)
          .split("&")
          .map((member) => {
            const equals = member.indexOf("=");
            const name = equals < 0 ? member : member.slice(0, equals);
            return equals >= 0 && SECRET_NAME.test(safeDecode(name)) ? `${name}=${REDACTED}` : member;
          })
          .join("&");
  const whole = query === undefined ? path : `${path}?${query}`;
  return whole.replace(TOKEN, `${TOKEN_PREFIX}${REDACTED}`).replace(LONG_SECRET, REDACTED);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The request log's line of a request answered (or of a feed, once it ends): method, URL redacted, status, time. */
export function logRequest(
  request: FastifyRequest,
  reply: FastifyReply,
  { status, message = "request", ...more }: { status: number; message?: string; [member: string]: unknown },
): void {
  request.log.info(
    { method: request.method, url: redactedUrl(request.url), status, ms: Math.round(reply.elapsedTime), ...more },
    message,
  );
}
