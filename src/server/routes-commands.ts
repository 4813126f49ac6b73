import { Type, type Static } from "@sinclair/typebox";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { StoredEvent } from "../../events/index.js";
import type { ReceiptText } from "../crypto/receipts.js";
import { signReceipt } from "./server-key.js";
import { eventsAsSeen } from "../../replays/as-seen.js";
import { seesAll } from "../views/view.js";
import { HOST, ORGANISER } from "../../events/common.js";
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
 * chores. The answer holds every event written since that seq, the chores' too, as the seat may see them, and the
 * server's receipt (docs/signatures.md): its signature over what it accepted, or refused, and over the head of the
 * seat's view chain.
 */
export function commandRoutes(
  app: FastifyInstance,
  { engine, campaigns, computers, lineContexts, viewChains, serverKey }: ServerContext,
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
      const receipt = (text: Pick<ReceiptText, "seq" | "view" | "from" | "accepted" | "refused">) =>
        signReceipt(serverKey, { campaign: id, line: stream, seat, ...text });
      try {
        const { written, accepted, from, view } = await take(stream, id, seat, expectedSeq, commands, request.log);
        // The computer answers after the request, as another player would: its steps wait for none of them.
        if (stream === id) computers.schedule(id, app.log);
        const seq = written.at(-1)!.seq;
        const signed = receipt({ seq, view, from, accepted, refused: null });
        if (seesAll(seat)) return { seq, events: written, receipt: signed };
        // The engine's live state after them (unless the line has moved on since): the context needs no fold of its own.
        const context = await lineContexts.now(stream, written, await engine.state(stream));
        return { seq, events: eventsAsSeen(written, seat, context), receipt: signed };
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        // A refusal is signed too: the seat can show what it sent and why it was refused, and where its view stood.
        const { seq, head } = await campaigns.serialize(id, async () =>
          viewChains.at(stream, seat, (await engine.store.head(stream)).seq),
        );
        const refused = { commands, error: error.code, message: error.message };
        throw new HttpError(error.code, error.message, {
          ...error.details,
          receipt: receipt({ seq, view: head, from: null, accepted: null, refused }),
        });
      }
    },
  );

  /** Checks and writes a seat's commands, then the host's chores; the events written and the seat's view after them. */
  async function take(
    stream: string,
    id: string,
    seat: string,
    expectedSeq: number,
    commands: unknown[],
    log: FastifyBaseLogger,
  ): Promise<{
    written: StoredEvent[];
    accepted: { from: number; to: number };
    from: { seq: number; view: string } | null;
    view: string;
  }> {
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
      if (seat === HOST && type === "RegisterSeatKey" && checked.command.role === undefined)
        throw new HttpError(
          "forbidden",
          `commands[${index}].role: the host's key is the server's, kept with the host's dice seeds; the organiser registers its own with role "${ORGANISER}" (D2)`,
          { field: `commands[${index}].role`, index },
        );
      if (SERVER_STEPS.has(type))
        throw new HttpError(
          "forbidden",
          `commands[${index}].type: the server takes ${type} itself, as the keeper of the host's dice seeds`,
          { field: `commands[${index}].type`, index },
        );
    });
    // Every event written from expectedSeq on, in hand: the commands' and then the host's chores'.
    return campaigns.serialize(id, async () => {
      // Decided on the seq the client saw and appended only while the line is still there, on every instance.
      // The seat's view where the commands were decided: the receipt chains the answer's events from it.
      const before = (await engine.store.head(stream)).seq;
      const from = before === expectedSeq ? await viewChains.at(stream, seat, before) : null;
      const followUps = campaigns.hostChoresAfter(stream, log);
      const outcome = await engine.execute(stream, commands, { expectedSeq, followUps });
      if (!outcome.ok) {
        if (outcome.refusal.kind === "conflict") throw stale(expectedSeq, (await engine.store.head(stream)).seq);
        throw new HttpError("refused", outcome.refusal.message, {
          ...refusalDetails(outcome.refusal),
          index: outcome.index,
        });
      }
      // The host's steps the commands made due are in their batch, after theirs; any left are taken now.
      const written = [...outcome.events, ...(await campaigns.takeHostChores(stream, log, outcome))];
      const own = outcome.events.slice(0, outcome.events.length - (outcome.followUps ?? 0));
      const accepted = { from: own[0]!.seq, to: own.at(-1)!.seq };
      const { head } = await viewChains.at(stream, seat, written.at(-1)!.seq, written);
      return { written, accepted, from: from && { seq: from.seq, view: from.head }, view: head };
    });
  }
}

const stale = (expected: number, seq: number) =>
  new HttpError("stale", `expectedSeq ${expected} is not the campaign's seq ${seq}: read it again and retry`, { seq });
