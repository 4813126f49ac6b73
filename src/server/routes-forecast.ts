import { Type, type Static } from "@sinclair/typebox";
import type { FastifyInstance } from "fastify";
import { HOST } from "../../events/common.js";
import { stateContext, ViewerError } from "../../replays/as-seen.js";
import { PHASES, type Position } from "../../replays/positions.js";
import { ReplayError } from "../../replays/replayer.js";
import { MAIN } from "../../replays/branches.js";
import { compareForecasts, forecast, MAX_FORECAST_TURNS, type ForecastRequest } from "../forecast/forecast.js";
import { POLICIES, type PolicyName } from "../forecast/policies.js";
import { ForecastError, forecastStart, type ForecastStart } from "../forecast/start.js";
import { seatIn } from "./auth.js";
import { CampaignParams, Count, type ServerContext } from "./context.js";
import { HttpError } from "./errors.js";

/** Runs one request may ask for: a forecast holds the server's cores while it plays. */
export const MAX_SERVED_RUNS = 10_000;

const Line = Type.String({ minLength: 1, maxLength: 80 });
const ForecastBody = Type.Object(
  {
    branch: Type.Optional(Line),
    /** Two lines (branch names, or main) forecast from the same seed, and the difference in their odds. */
    compare: Type.Optional(Type.Tuple([Line, Line])),
    turn: Type.Optional(Count(1)),
    phase: Type.Optional(Type.Union(PHASES.map((phase) => Type.Literal(phase)))),
    /** Whose view it starts from: the seat's own (a player may name only itself); the host may name a player. */
    as: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })),
    runs: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SERVED_RUNS })),
    turns: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_FORECAST_TURNS })),
    seed: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    policy: Type.Optional(Type.Union(Object.keys(POLICIES).map((name) => Type.Literal(name)))),
  },
  { additionalProperties: false },
);
type ForecastBody = Static<typeof ForecastBody>;

/** The view a forecast starts from for the requesting seat: its own, or for the host any seat's (HOST: the truth). */
function viewerFor(seat: string, body: ForecastBody): string {
  const as = body.as ?? seat;
  if (seat !== HOST && as !== seat)
    throw new HttpError("forbidden", `a player forecasts from its own view only: as must be "${seat}" or left out`, {
      field: "as",
    });
  return as;
}

/**
 * `POST /campaigns/:id/forecast` (docs/server.md, docs/forecast.md): the odds of a line played on from a moment, from
 * what the requesting seat may see. The server holds no player's secrets, so a player's own hidden orders are drawn
 * like the enemy's. A client that hangs up stops the forecast. The seat's open feeds of the line are told its progress
 * (`event: forecast`).
 */
export function forecastRoutes(app: FastifyInstance, { engine, campaigns, feeds }: ServerContext): void {
  app.post<{ Params: CampaignParams; Body: ForecastBody }>(
    "/campaigns/:id/forecast",
    { schema: { params: CampaignParams, body: ForecastBody } },
    async (request) => {
      const { id } = request.params;
      const { seat } = seatIn(request, id);
      const body = request.body ?? {};
      const viewer = viewerFor(seat, body);
      if (body.compare && body.branch !== undefined)
        throw new HttpError("invalid", "body: give branch or compare, not both", { field: "compare" });
      if (body.phase !== undefined && body.turn === undefined)
        throw new HttpError("invalid", "body phase: needs turn", { field: "phase" });
      const position: Position | undefined =
        body.turn === undefined ? undefined : body.phase ? { turn: body.turn, phase: body.phase } : { turn: body.turn };
      const lines = body.compare ?? [body.branch ?? MAIN];
      const streams = await Promise.all(lines.map((line) => campaigns.line(id, line === MAIN ? undefined : line)));
      const stop = new AbortController();
      request.raw.on("close", () => stop.abort());
      const seed = body.seed ?? "1";
      // The seat's own feeds of the lines hear how far its forecast is, at most once a per cent of each line.
      const requestFor = (stream: string, start: ForecastStart): ForecastRequest => {
        let told = -1;
        return {
          start,
          runs: body.runs ?? 1000,
          seed,
          policy: (body.policy ?? "scripted") as PolicyName,
          ...(body.turns !== undefined ? { turns: body.turns } : {}),
          signal: stop.signal,
          onProgress: (done, total) => {
            const percent = Math.floor((100 * done) / total);
            if (percent === told) return;
            told = percent;
            for (const line of streams)
              feeds.notify(line, seat, "forecast", { request: request.id, line: stream, seed, runs: done, of: total });
          },
        };
      };
      try {
        const requests: ForecastRequest[] = [];
        for (const stream of streams) {
          const context = await stateContext(engine.store, stream, viewer, position);
          const finished = (await engine.state(stream)).status === "finished";
          requests.push(requestFor(stream, forecastStart(context, viewer, finished)));
        }
        return requests.length === 2
          ? await compareForecasts(requests[0]!, requests[1]!)
          : await forecast(requests[0]!);
      } catch (error) {
        if (error instanceof ReplayError) throw new HttpError("not-found", error.message);
        if (error instanceof ViewerError) throw new HttpError("invalid", error.message, { field: "as" });
        if (error instanceof ForecastError) throw new HttpError("refused", error.message);
        throw error;
      }
    },
  );
}
