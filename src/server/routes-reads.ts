import { randomBytes } from "node:crypto";
import { Type, type Static } from "@sinclair/typebox";
import { Id } from "../../events/common.js";
import type { FastifyInstance } from "fastify";
import { toCurrent } from "../../events/index.js";
import {
  auditAsSeen,
  describeAs,
  diffAsSeen,
  eventsAsSeen,
  linesAsSeen,
  lineView,
  stateAsSeen,
  stateContext,
  ViewerError,
} from "../../replays/as-seen.js";
import { MAIN } from "../../replays/branches.js";
import { PHASES, type Position } from "../../replays/positions.js";
import { ReplayError, Replays } from "../../replays/replayer.js";
import { timeline, type TimelineEntry } from "../../replays/timeline.js";
import { callerOf, seatIn } from "./auth.js";
import { HttpError } from "./errors.js";
import { CampaignParams, Count, type ServerContext } from "./context.js";
import { lastEventId } from "./feed.js";
import { waitingOn } from "../rules/waiting-on.js";
import { battleSheet } from "../sheet/battle-sheet.js";
import { viewState } from "../views/view.js";
import type { ViewContext } from "../views/secret-field.js";

const Line = Type.String({ minLength: 1, maxLength: 80 });
const BranchQuery = Type.Object({ branch: Type.Optional(Line) }, { additionalProperties: false });
const Seq = Count(0);
const StateQuery = Type.Object(
  {
    branch: Type.Optional(Line),
    seq: Type.Optional(Seq),
    turn: Type.Optional(Count(1)),
    phase: Type.Optional(Type.Union(PHASES.map((phase) => Type.Literal(phase)))),
  },
  { additionalProperties: false },
);
const LogQuery = Type.Object(
  { branch: Type.Optional(Line), after: Type.Optional(Seq) },
  { additionalProperties: false },
);
const AuditQuery = Type.Object(
  { branch: Type.Optional(Line), turn: Type.Optional(Count(1)) },
  { additionalProperties: false },
);
const BattleParams = Type.Object({ ...CampaignParams.properties, battle: Id }, { additionalProperties: false });
type BattleParams = Static<typeof BattleParams>;
const DiffQuery = Type.Object({ a: Line, b: Line }, { additionalProperties: false });

/** A point of the log a query names: `seq`, or `turn` (with `phase`), or none for now. */
function positionOf(query: Static<typeof StateQuery>): Position | undefined {
  if (query.seq !== undefined && (query.turn !== undefined || query.phase !== undefined))
    throw new HttpError("invalid", "query: give either seq or turn (with phase), not both", { field: "seq" });
  if (query.phase !== undefined && query.turn === undefined)
    throw new HttpError("invalid", "query phase: needs turn", { field: "phase" });
  if (query.seq !== undefined) return { seq: query.seq };
  if (query.turn === undefined) return undefined;
  return query.phase === undefined ? { turn: query.turn } : { turn: query.turn, phase: query.phase };
}

/** This process's part of every ETag: a view is judged by the code that serves it, which a restart may change. */
const SERVED_BY = randomBytes(6).toString("base64url");

/** The ETag of a seat's view of a line's current state: the line, the seq and the seat are all it depends on. */
const stateTag = (stream: string, seat: string, seq: number) =>
  `"${SERVED_BY}-${Buffer.from(`${stream}\u0000${seat}`).toString("base64url")}-${seq}"`;

/**
 * The context a seat is shown a point of a line in: the line now (kept between requests), or at a point of its log. A
 * point that is not in the log (a seq past the head, a turn not begun) is not found, nor, for a player, a point before
 * the set-up named it a player (seq 0): it has no view there.
 */
async function contextAt(
  { engine: { store }, lineContexts }: ServerContext,
  { campaign, stream, seat }: { campaign: string; stream: string; seat: string },
  position: Position | undefined,
): Promise<ViewContext> {
  try {
    return await (position === undefined ? lineContexts.now(stream) : stateContext(store, stream, seat, position));
  } catch (error) {
    if (error instanceof ReplayError) throw new HttpError("not-found", error.message);
    if (error instanceof ViewerError && position !== undefined) {
      const field = "seq" in position ? "seq" : "turn";
      const at = "seq" in position ? `seq ${position.seq}` : `turn ${position.turn}`;
      throw new HttpError(
        "not-found",
        `${field}: ${seat} is not yet a player of ${campaign} at ${at}: a player's view begins once the campaign's set-up names it`,
        { field },
      );
    }
    throw error;
  }
}

/**
 * The reads (docs/server.md), each as the requesting seat may see it (replays/as-seen.ts, the same functions as the
 * CLI's --json --as): the host sees what `--as host` sees, a player only its view. No read holds a player's hidden
 * orders: the server never has them.
 */
export function readRoutes(app: FastifyInstance, context: ServerContext): void {
  const { engine, campaigns, feeds } = context;
  const store = engine.store;
  /** The seat asking and the stream of the line it reads. */
  const reader = async (request: { params: CampaignParams; query: { branch?: string } }, seat: string) =>
    campaigns.line(request.params.id, request.query.branch).then((stream) => ({ seat, stream }));

  app.get<{ Params: CampaignParams; Querystring: Static<typeof StateQuery> }>(
    "/campaigns/:id/state",
    { schema: { params: CampaignParams, querystring: StateQuery } },
    async (request, reply) => {
      const { seat, stream } = await reader(request, seatIn(request, request.params.id).seat);
      // The campaign now comes from the context kept for the line; a past point is judged from the log up to it.
      const position = positionOf(request.query);
      const at = await contextAt(context, { campaign: request.params.id, stream, seat }, position);
      if (position === undefined) {
        // The view of a line at a seq never changes: a client that holds it is told so, with nothing viewed or sent.
        const tag = stateTag(stream, seat, at.state.seq);
        void reply.header("etag", tag).header("cache-control", "private, no-cache");
        if (request.headers["if-none-match"] === tag) return reply.code(304).send();
      }
      return { seq: at.state.seq, state: stateAsSeen(at, seat, {}) };
    },
  );

  app.get<{ Params: BattleParams; Querystring: Static<typeof StateQuery> }>(
    "/campaigns/:id/battles/:battle/sheet",
    { schema: { params: BattleParams, querystring: StateQuery } },
    async (request) => {
      const { seat, stream } = await reader(request, seatIn(request, request.params.id).seat);
      const at = await contextAt(context, { campaign: request.params.id, stream, seat }, positionOf(request.query));
      // K1-K5: the sheet is drawn from the seat's view, never from the state itself.
      const sheet = battleSheet(viewState(at.state, seat, at), request.params.battle);
      if (!sheet) throw new HttpError("not-found", `battle: no battle "${request.params.battle}" in this campaign`);
      return { seq: at.state.seq, sheet };
    },
  );

  app.get<{ Params: CampaignParams; Querystring: Static<typeof LogQuery> }>(
    "/campaigns/:id/log",
    { schema: { params: CampaignParams, querystring: LogQuery } },
    async (request) => {
      const { seat, stream } = await reader(request, seatIn(request, request.params.id).seat);
      const line = await store.readAll(stream);
      const view = await lineView(store, stream, seat, line.map(toCurrent));
      const after = line.slice(request.query.after ?? 0);
      return { seq: line.length, events: view ? eventsAsSeen(after, seat, view.context) : after };
    },
  );

  app.get<{ Params: CampaignParams; Querystring: Static<typeof BranchQuery> }>(
    "/campaigns/:id/timeline",
    { schema: { params: CampaignParams, querystring: BranchQuery } },
    async (request) => {
      const { seat, stream } = await reader(request, seatIn(request, request.params.id).seat);
      const view = await lineView(store, stream, seat);
      const entries: TimelineEntry[] = [];
      for await (const batch of timeline(store, new Replays(store), stream, { describe: describeAs(view) }))
        entries.push(...batch);
      return { seq: entries.at(-1)?.seq ?? 0, entries };
    },
  );

  app.get<{ Params: CampaignParams; Querystring: Static<typeof AuditQuery> }>(
    "/campaigns/:id/audit",
    { schema: { params: CampaignParams, querystring: AuditQuery } },
    async (request) => {
      const { seat, stream } = await reader(request, seatIn(request, request.params.id).seat);
      const { turn } = request.query;
      return (await auditAsSeen(store, stream, seat, turn === undefined ? {} : { turn })).report;
    },
  );

  app.get<{ Params: CampaignParams }>(
    "/campaigns/:id/branches",
    { schema: { params: CampaignParams } },
    async (request) => {
      const { seat } = seatIn(request, request.params.id);
      campaigns.require(request.params.id);
      return linesAsSeen(store, request.params.id, seat);
    },
  );

  app.get<{ Params: CampaignParams; Querystring: Static<typeof DiffQuery> }>(
    "/campaigns/:id/diff",
    { schema: { params: CampaignParams, querystring: DiffQuery } },
    async (request) => {
      const { id } = request.params;
      const { seat } = seatIn(request, id);
      const { a, b } = request.query;
      const line = async (name: string) => ({
        line: name,
        stream: await campaigns.line(id, name === MAIN ? undefined : name),
      });
      return diffAsSeen(store, await line(a), await line(b), seat);
    },
  );

  app.get<{ Params: CampaignParams; Querystring: Static<typeof BranchQuery> }>(
    "/campaigns/:id/waiting",
    { schema: { params: CampaignParams, querystring: BranchQuery } },
    async (request) => {
      const { stream } = await reader(request, seatIn(request, request.params.id).seat);
      return waitingOn(await engine.state(stream));
    },
  );

  app.get<{ Params: CampaignParams; Querystring: Static<typeof BranchQuery> }>(
    "/campaigns/:id/feed",
    { schema: { params: CampaignParams, querystring: BranchQuery } },
    async (request, reply) => {
      const { seat, stream } = await reader(request, seatIn(request, request.params.id).seat);
      await feeds.stream(request, reply, store, stream, seat, lastEventId(request), callerOf(request).tokenHash);
    },
  );
}
