import { Type, type Static } from "@sinclair/typebox";
import type { FastifyInstance } from "fastify";
import { eventsAsSeen } from "../../replays/as-seen.js";
import { seesAll } from "../views/view.js";
import { HOST } from "../../events/common.js";
import { checkCommand } from "../engine/command-schemas.js";
import { seatIn } from "./auth.js";
import { HttpError, refusalDetails } from "./errors.js";
import { CampaignParams, Count, type ServerContext } from "./context.js";

const LineQuery = Type.Object(
  { branch: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })) },
  { additionalProperties: false },
);

/** Most commands one request may carry: a whole activation with its reveals is a handful. */
const MAX_COMMANDS = 100;

const CommandsBody = Type.Object(
  {
    expectedSeq: Count(0),
    // Each command is checked by checkCommand (src/engine/command-schemas.ts), which names the field a schema rejects.
    commands: Type.Array(Type.Unknown(), { minItems: 1, maxItems: MAX_COMMANDS }),
  },
  { additionalProperties: false },
);

/** The host's steps the server takes itself, holding the host's dice seeds (docs/fair-dice.md): no seat sends them. */
const SERVER_STEPS = new Set([
  "StartTurn",
  "RollInitiative",
  "RollScouting",
  "RollScenario",
  "RollBattleConditions",
  "RollGravityFlux",
  "RollWhiteOut",
  "RollSaves",
  "RollBarrage",
  "EndTurn",
]);

/**
 * `POST /campaigns/:id/commands`: a seat's commands, all or nothing, at the seq the client last saw; then the host's
 * chores. The answer holds every event written since that seq, the chores' too, as the seat may see them.
 */
export function commandRoutes(
  app: FastifyInstance,
  { engine, campaigns, computers, lineContexts }: ServerContext,
): void {
  app.post<{ Params: CampaignParams; Body: Static<typeof CommandsBody>; Querystring: Static<typeof LineQuery> }>(
    "/campaigns/:id/commands",
    { schema: { params: CampaignParams, body: CommandsBody, querystring: LineQuery } },
    async (request) => {
      const { id } = request.params;
      const { seat } = seatIn(request, id);
      // The campaign's own line, or one of its branches (`?branch=NAME`): a what-if is played on like the campaign.
      const stream = await campaigns.line(id, request.query.branch);
      const { expectedSeq, commands } = request.body;
      commands.forEach((command, index) => {
        const checked = checkCommand(command);
        if (!checked.ok) {
          const field = `commands[${index}].${checked.field}`;
          throw new HttpError("invalid", `${field}: ${checked.message}`, { field, index });
        }
        const { actor, type } = checked.command;
        if (actor !== seat)
          throw new HttpError("forbidden", `commands[${index}].actor: this token acts as ${seat}, not ${actor}`, {
            field: `commands[${index}].actor`,
            index,
          });
        if (SERVER_STEPS.has(type))
          throw new HttpError(
            "forbidden",
            `commands[${index}].type: the server takes ${type} itself, as the keeper of the host's dice seeds`,
            { field: `commands[${index}].type`, index },
          );
      });
      // Every event written from expectedSeq on, in hand: the commands' and then the host's chores'.
      const written = await campaigns.serialize(id, async () => {
        // Decided on the seq the client saw and appended only while the line is still there, on every instance.
        const signed = seat === HOST ? await campaigns.signForHost(stream, commands) : commands;
        const outcome = await engine.execute(stream, signed, { expectedSeq });
        if (!outcome.ok) {
          if (outcome.refusal.kind === "conflict") throw stale(expectedSeq, (await engine.store.head(stream)).seq);
          throw new HttpError("refused", outcome.refusal.message, {
            ...refusalDetails(outcome.refusal),
            index: outcome.index,
          });
        }
        return [...outcome.events, ...(await campaigns.takeHostChores(stream, request.log, outcome.state))];
      });
      // The computer answers after the request, as another player would: its steps wait for none of them.
      if (stream === id) computers.schedule(id, app.log);
      const seq = written.at(-1)!.seq;
      if (seesAll(seat)) return { seq, events: written };
      // The engine's live state after them (unless the line has moved on since): the context needs no fold of its own.
      const context = await lineContexts.now(stream, written, await engine.state(stream));
      return { seq, events: eventsAsSeen(written, seat, context) };
    },
  );
}

const stale = (expected: number, seq: number) =>
  new HttpError("stale", `expectedSeq ${expected} is not the campaign's seq ${seq}: read it again and retry`, { seq });
