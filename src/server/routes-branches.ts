import { Type, type Static } from "@sinclair/typebox";
import type { FastifyInstance } from "fastify";
import { HOST, Id } from "../../events/common.js";
import { branchStream, createBranch, MAIN } from "../../replays/branches.js";
import { ReplayError, Replays } from "../../replays/replayer.js";
import { BranchError } from "../log/index.js";
import { seatIn } from "./auth.js";
import { HttpError } from "./errors.js";
import { CampaignParams, Count, type ServerContext } from "./context.js";

const BranchBody = Type.Object(
  {
    name: Id,
    /** The event of the parent line the branch forks after. */
    seq: Count(1),
    /** The line forked: the campaign's own (main, the default) or one of its branches. */
    from: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })),
  },
  { additionalProperties: false },
);

/**
 * `POST /campaigns/:id/branches`: the organiser forks a line of the campaign after an event, as `epicwar branch
 * --from-seq` does, for a what-if (docs/replays.md). No event is copied, nor any secret but the host's key: a fork
 * where commitments are open starts with the host's ForkLine, which voids them on the branch. Every seat then reads the branch (`?branch=NAME`) and its diff, and plays
 * it on with its commands (`POST /campaigns/:id/commands?branch=NAME`).
 */
export function branchRoutes(app: FastifyInstance, { engine, campaigns }: ServerContext): void {
  app.post<{ Params: CampaignParams; Body: Static<typeof BranchBody> }>(
    "/campaigns/:id/branches",
    { schema: { params: CampaignParams, body: BranchBody } },
    async (request, reply) => {
      const { id } = request.params;
      if (seatIn(request, id).seat !== HOST)
        throw new HttpError("forbidden", `only the organiser (the ${HOST} seat) creates branches`);
      const { name, seq, from } = request.body;
      const parent = await campaigns.line(id, from === undefined || from === MAIN ? undefined : from);
      try {
        const stream = branchStream(id, name);
        const { meta } = await campaigns.serialize(id, () =>
          createBranch(engine, new Replays(engine.store), {
            campaign: id,
            parent,
            from: { seq },
            name,
            secrets: { parent: campaigns.hostSecrets(parent), branch: campaigns.hostSecrets(stream) },
          }),
        );
        // A fork where one of the host's steps is due (a turn to start) has it taken, as after any command.
        await campaigns.takeHostChores(meta.stream, request.log);
        return reply.status(201).send({ branch: meta.name, stream: meta.stream, forkSeq: meta.forkSeq });
      } catch (error) {
        if (error instanceof BranchError) throw new HttpError("refused", `name: ${error.message}`, { field: "name" });
        if (error instanceof ReplayError) throw new HttpError("invalid", `seq: ${error.message}`, { field: "seq" });
        throw error;
      }
    },
  );
}
