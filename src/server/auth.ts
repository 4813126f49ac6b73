import type {} from "@fastify/cookie";
import type { FastifyReply, FastifyRequest } from "fastify";
import { HOST } from "../../events/common.js";
import { HttpError } from "./errors.js";
import type { Caller, SeatRef, SeatStore } from "./seat-store.js";

/** The cookie a browser's session is carried in (an EventSource cannot send a header). */
export const SESSION_COOKIE = "epicwar_session";

declare module "fastify" {
  interface FastifyRequest {
    /** Who sent the request, once authenticate has run. */
    caller?: Caller;
  }
}

/** The token a request carries: `Authorization: Bearer <token>`, else the session cookie. Never one in the URL. */
function presentedToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header !== undefined) return /^Bearer ([A-Za-z0-9_-]+)$/.exec(header)?.[1] ?? "";
  return request.cookies[SESSION_COOKIE];
}

/** An onRequest hook: a request without a valid token gets 401 before its body is read. */
export function authenticate(seats: SeatStore) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const token = presentedToken(request);
    if (token === undefined)
      throw new HttpError(
        "unauthorized",
        `no token: send "Authorization: Bearer <token>" or the ${SESSION_COOKIE} cookie (POST /session exchanges an invite for one)`,
      );
    const caller = await seats.caller(token);
    if (!caller) throw new HttpError("unauthorized", "this token is unknown or has been revoked");
    request.caller = caller;
  };
}

/** The caller of a request that passed authenticate. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error("a route that needs a caller was reached without authenticate");
  return request.caller;
}

/** The seat of a campaign a request acts as: 403 for the operator and for a seat of another campaign. */
export function seatIn(request: FastifyRequest, campaign: string): SeatRef {
  const caller = callerOf(request);
  if (caller.kind === "operator")
    throw new HttpError(
      "forbidden",
      "the operator token acts as no party: redeem one of the campaign's invites (its host seat to organise it)",
    );
  if (caller.campaign !== campaign) throw new HttpError("forbidden", `this token is a seat of another campaign`);
  return caller;
}

/** Seat management of a campaign (invites, revocations): its organiser (the host seat) or the operator. */
export function requireOrganiser(request: FastifyRequest, campaign: string): void {
  const caller = callerOf(request);
  if (caller.kind === "operator") return;
  if (caller.campaign !== campaign) throw new HttpError("forbidden", "this token is a seat of another campaign");
  if (caller.seat !== HOST)
    throw new HttpError("forbidden", `only the organiser (the ${HOST} seat) or the operator manages seats`);
}
