import { Type, type Static } from "@sinclair/typebox";
import type { FastifyInstance } from "fastify";
import { HOST } from "../../events/common.js";
import { seatIn } from "./auth.js";
import { CampaignParams, type ServerContext } from "./context.js";
import { HttpError } from "./errors.js";
import { WebhookNotifier, Webhooks } from "./webhooks.js";

const WebhooksBody = Type.Object({ webhooks: Webhooks }, { additionalProperties: false });

/**
 * `GET` and `PUT /campaigns/:id/webhooks`: the organiser reads and sets the campaign's webhooks (docs/web.md), each a
 * URL and the body it takes (generic JSON, Discord or Slack), told when the campaign waits on someone, when a result
 * awaits confirmation and when a turn begins. Only the organiser's seat may, as a webhook's URL may hold a channel's key.
 */
export async function webhookRoutes(
  app: FastifyInstance,
  { engine, seats, campaigns }: ServerContext,
  secretsKey: Buffer | undefined,
): Promise<void> {
  const { sealedTexts } = engine.store;
  // On a shared database with the secrets key, they are kept there sealed, and posted by the host's steps' holder
  // alone; else in this server's folder, and posted by this server.
  const notifier = await WebhookNotifier.open(
    seats.folder,
    engine,
    app.log,
    secretsKey && sealedTexts
      ? { sealed: { texts: sealedTexts, key: secretsKey }, delivers: () => campaigns.takesHostSteps }
      : {},
  );
  app.addHook("onClose", async () => notifier.close());
  const organiser = (request: Parameters<typeof seatIn>[0], id: string) => {
    campaigns.require(id);
    if (seatIn(request, id).seat !== HOST)
      throw new HttpError("forbidden", `only the organiser (the ${HOST} seat) reads and sets the campaign's webhooks`);
  };
  app.get<{ Params: CampaignParams }>(
    "/campaigns/:id/webhooks",
    { schema: { params: CampaignParams } },
    async (request) => {
      organiser(request, request.params.id);
      return { webhooks: await notifier.of(request.params.id) };
    },
  );
  app.put<{ Params: CampaignParams; Body: Static<typeof WebhooksBody> }>(
    "/campaigns/:id/webhooks",
    { schema: { params: CampaignParams, body: WebhooksBody } },
    async (request) => {
      organiser(request, request.params.id);
      await notifier.set(request.params.id, request.body.webhooks);
      return { webhooks: await notifier.of(request.params.id) };
    },
  );
}
