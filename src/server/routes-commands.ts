import { Type, type Static } from "@sinclair/typebox";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { StoredEvent } from "../../events/index.js";
import type { Receipt, ReceiptText } from "../crypto/receipts.js";
import type { BatchInWriting, WhileWriting } from "../engine/engine.js";
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
      const receipt = (text: ReceiptFields) => signReceipt(serverKey, { campaign: id, line: stream, seat, ...text });
      try {
        const taken = await take(stream, id, seat, expectedSeq, commands, request.log, receipt);
        // The computer answers after the request, as another player would: its steps wait for none of them.
        if (stream === id) computers.schedule(id, app.log);
        if ("answer" in taken) return taken.answer;
        const { written, accepted, from, view } = taken;
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

  /**
   * Checks and writes a seat's commands, then the host's chores; the events written and the seat's view after them,
   * and the whole answer when it could be worked out while the events were being written.
   */
  async function take(
    stream: string,
    id: string,
    seat: string,
    expectedSeq: number,
    commands: unknown[],
    log: FastifyBaseLogger,
    receipt: (text: ReceiptFields) => Receipt,
  ): Promise<
    | { answer: Answer }
    | {
        written: StoredEvent[];
        accepted: { from: number; to: number };
        from: { seq: number; view: string } | null;
        view: string;
      }
  > {
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
      const chain = before === expectedSeq ? await viewChains.at(stream, seat, before) : null;
      const from = chain && { seq: chain.seq, view: chain.head };
      const followUps = campaigns.hostChoresAfter(stream, log);
      let drafting: Promise<AnswerDraft | undefined> | undefined;
      const whileWriting: WhileWriting = (batch) => {
        // On the next turn of the event loop: by then a database's statement has been sent, not only queued. A draft
        // that fails is only a draft: the answer is then worked out after the write, where a failure is reported.
        drafting = new Promise((resolve) => setImmediate(resolve))
          .then(() => draftAnswer(stream, seat, from, batch, receipt))
          .catch(() => undefined);
      };
      // The state the batch was decided to leave tells which host's steps are still due: the answer waits for no fold.
      const outcome = await engine.execute(stream, commands, {
        expectedSeq,
        followUps,
        whileWriting,
        stateAsDecided: true,
      });
      if (!outcome.ok) {
        if (outcome.refusal.kind === "conflict") throw stale(expectedSeq, (await engine.store.head(stream)).seq);
        throw new HttpError("refused", outcome.refusal.message, {
          ...refusalDetails(outcome.refusal),
          index: outcome.index,
        });
      }
      // The host's steps the commands made due are in their batch, after theirs; any left are taken now.
      const written = [...outcome.events, ...(await campaigns.takeHostChores(stream, log, outcome))];
      const accepted = acceptedOf(outcome.events, outcome.followUps ?? 0);
      const draft = await drafting;
      if (draft && draft.written.length === written.length && draft.written.at(-1)!.hash === written.at(-1)!.hash) {
        draft.keep();
        return { answer: draft.answer };
      }
      const { head } = await viewChains.at(stream, seat, written.at(-1)!.seq, written);
      return { written, accepted, from, view: head };
    });
  }

  /**
   * A command's answer worked out while its batch is being written: the seat's view chain and the line's view context
   * advanced over the batch on copies, the answer's events as the seat sees them and the receipt signed. Undefined
   * when the chain or context kept is not right before the batch; `keep` puts them in place once it is written.
   */
  async function draftAnswer(
    stream: string,
    seat: string,
    from: ReceiptFields["from"],
    { stored, followUps }: BatchInWriting,
    receipt: (text: ReceiptFields) => Receipt,
  ): Promise<AnswerDraft | undefined> {
    const chains = await viewChains.draft(stream, seat, stored);
    const context = seesAll(seat) ? undefined : await lineContexts.draft(stream, stored);
    if (!chains.view || !(seesAll(seat) || context)) return undefined;
    const seq = stored.at(-1)!.seq;
    const accepted = acceptedOf(stored, followUps);
    const signed = receipt({ seq, view: chains.view.head, from, accepted, refused: null });
    return {
      written: stored,
      answer: { seq, events: context ? eventsAsSeen(stored, seat, context.context) : stored, receipt: signed },
      keep: () => {
        chains.keep();
        context?.keep();
      },
    };
  }
}

type ReceiptFields = Pick<ReceiptText, "seq" | "view" | "from" | "accepted" | "refused">;

/** The seqs a batch's commands wrote: its events but the follow-ups' after them. */
function acceptedOf(events: readonly StoredEvent[], followUps: number): { from: number; to: number } {
  const own = events.slice(0, events.length - followUps);
  return { from: own[0]!.seq, to: own.at(-1)!.seq };
}

/** A command's answer: every event written from the seq the client saw, as its seat sees them, and the receipt. */
interface Answer {
  seq: number;
  events: readonly unknown[];
  receipt: Receipt;
}

/** An answer worked out while its batch was being written (draftAnswer): good only for those very events. */
interface AnswerDraft {
  written: readonly StoredEvent[];
  answer: Answer;
  keep(): void;
}

const stale = (expected: number, seq: number) =>
  new HttpError("stale", `expectedSeq ${expected} is not the campaign's seq ${seq}: read it again and retry`, { seq });
