import { Type, type Static } from "@sinclair/typebox";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { Catalogue, Id } from "../../events/common.js";
import { seatsOf } from "../client/seats.js";
import { describeRefusal } from "../rules/refusal.js";
import { setupCommands, SetupFile } from "../setup/setup-file.js";
import { callerOf, requireOrganiser, SESSION_COOKIE } from "./auth.js";
import { HttpError, refusalDetails } from "./errors.js";
import { CampaignParams, type ServerContext } from "./context.js";
import { ComputerField } from "./computer-seats.js";

const SessionBody = Type.Object(
  { invite: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
const InviteBody = Type.Object({ seat: Id }, { additionalProperties: false });
const SeatParams = Type.Object({ id: Id, seat: Id });
/** A set-up, and the seat the computer plays if it plays one (docs/computer.md). */
const CreateBody = Type.Object(
  { ...SetupFile.properties, computer: Type.Optional(ComputerField) },
  { additionalProperties: false },
);
type CreateBody = Static<typeof CreateBody>;

/**
 * The session cookie's attributes: `Secure` whenever the page is served over HTTPS, by this server or by a
 * TLS-terminating proxy it trusts (X-Forwarded-Proto), so that a browser never sends the token in the clear.
 */
const cookieOptions = (request: FastifyRequest) =>
  ({ httpOnly: true, sameSite: "strict", path: "/", secure: request.protocol === "https" }) as const;

/** Seats and sessions (docs/server.md): redeeming invites, revoking tokens, issuing invites, creating campaigns. */
export function sessionRoutes(
  app: FastifyInstance,
  { engine, seats, campaigns, computers, feeds }: ServerContext,
): void {
  /** The seats of a campaign the server serves: its host and players. */
  const seatsOfCampaign = async (campaign: string) => {
    campaigns.require(campaign);
    return seatsOf(await engine.state(campaign));
  };

  app.post<{ Body: Static<typeof SessionBody> }>(
    "/session",
    // Rate-limited per address (limits.ts): invites are not to be guessed.
    { schema: { body: SessionBody }, config: { public: true, rateLimit: {} } },
    async (request, reply) => {
      const redeemed = await seats.redeem(request.body.invite);
      if (!redeemed) throw new HttpError("unauthorized", "this invite is unknown or has been used already");
      reply.setCookie(SESSION_COOKIE, redeemed.token, cookieOptions(request));
      return redeemed;
    },
  );

  app.delete("/session", async (request, reply) => {
    await seats.revokeToken(callerOf(request).tokenHash);
    // A revoked token is sent nothing more: its open feeds end with its revocation.
    await feeds.endRevoked();
    reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
    return reply.status(204).send();
  });

  app.get("/campaigns", async (request) => {
    const caller = callerOf(request);
    const entry = async (id: string, seat: string | null) => ({
      id,
      seat,
      computer: (await computers.seatOf(id)) ?? null,
    });
    return {
      campaigns: await Promise.all(
        caller.kind === "operator"
          ? campaigns.ids().map((id) => entry(id, null))
          : [entry(caller.campaign, caller.seat)],
      ),
    };
  });

  app.post<{ Params: CampaignParams; Body: Static<typeof InviteBody> }>(
    "/campaigns/:id/invites",
    { schema: { params: CampaignParams, body: InviteBody } },
    async (request, reply) => {
      const { id } = request.params;
      requireOrganiser(request, id);
      const { seat } = request.body;
      const known = await seatsOfCampaign(id);
      if (!known.includes(seat))
        throw new HttpError("invalid", `seat: "${seat}" is not a seat of ${id} (its seats: ${known.join(", ")})`, {
          field: "seat",
        });
      if ((await computers.seatOf(id)) === seat)
        throw new HttpError(
          "refused",
          `seat: ${seat} is played by the computer in ${id}: no invite is issued for it (invite one of ${known.filter((s) => s !== seat).join(", ")})`,
          { field: "seat" },
        );
      return reply.status(201).send({ invite: await seats.invite({ campaign: id, seat }) });
    },
  );

  app.delete<{ Params: Static<typeof SeatParams> }>(
    "/campaigns/:id/seats/:seat",
    { schema: { params: SeatParams } },
    async (request) => {
      const { id, seat } = request.params;
      requireOrganiser(request, id);
      if (!(await seatsOfCampaign(id)).includes(seat))
        throw new HttpError("not-found", `"${seat}" is not a seat of ${id}`);
      const revoked = await seats.revokeSeat({ campaign: id, seat });
      await feeds.endRevoked();
      return { revoked };
    },
  );

  const operatorOnly = async (request: FastifyRequest) => {
    if (callerOf(request).kind !== "operator")
      throw new HttpError("forbidden", "only the operator token creates campaigns");
  };
  app.post<{ Body: CreateBody }>(
    "/campaigns",
    { schema: { body: CreateBody }, preValidation: operatorOnly },
    async (request, reply) => {
      const { computer: computerField, ...setup } = request.body;
      const computer = computerField && computers.settingsFor(computerField, setup);
      // The server reads no file a request names: the catalogue comes in the set-up itself.
      if (typeof setup.catalogue === "string")
        throw new HttpError(
          "invalid",
          "catalogue: must be the catalogue itself, not the name of a file on the server",
          {
            field: "catalogue",
          },
        );
      const steps = setupCommands(setup as SetupFile & { catalogue: Catalogue });
      const outcome = await campaigns.serialize(setup.campaign, async () => {
        if (campaigns.ids().includes(setup.campaign))
          throw new HttpError("refused", `campaign: this server already has a campaign "${setup.campaign}"`, {
            field: "campaign",
            index: 0,
          });
        // Its settings kept before the campaign is: a campaign made is never one whose computer is forgotten.
        if (computer) await computers.keep(setup.campaign, computer);
        // Its seats claimed before it is made: a server that finds it made issues no invites of its own for it.
        const claimed = await seats.claim(setup.campaign);
        const created = await engine.create(steps.map((step) => step.command));
        if (created.ok) {
          campaigns.add(setup.campaign, request.log);
          await campaigns.takeHostChores(setup.campaign, request.log);
        } else {
          if (computer) await computers.forget(setup.campaign);
          if (claimed) await seats.release(setup.campaign);
        }
        return created;
      });
      if (!outcome.ok) {
        const source = steps[outcome.index]?.source ?? "setup";
        throw new HttpError("refused", `${source}: ${describeRefusal(outcome.refusal)}`, {
          ...refusalDetails(outcome.refusal),
          index: outcome.index,
          source,
        });
      }
      const people = seatsOf(outcome.state).filter((seat) => seat !== computer?.seat);
      const invites = await seats.issueInvites(setup.campaign, people);
      if (computer) computers.schedule(setup.campaign, app.log);
      return reply
        .status(201)
        .send({ campaign: setup.campaign, invites, ...(computer ? { computer: computer.seat } : {}) });
    },
  );
}
