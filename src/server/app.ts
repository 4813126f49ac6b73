import cookie from "@fastify/cookie";
import { Type } from "@sinclair/typebox";
import { Ajv } from "ajv";
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { DatabaseAwayError, storeFailure } from "../log/index.js";
import type { Engine } from "../engine/engine.js";
import { authenticate } from "./auth.js";
import { Campaigns } from "./campaigns.js";
import { ServerComputers } from "./computer-seats.js";
import { clientErrorHandler, errorHandler, HttpError } from "./errors.js";
import { Feeds } from "./feed.js";
import { DEFAULT_LIMITS, limitSignIns, serverOptions, type ServerLimits } from "./limits.js";
import { LineContexts } from "./line-contexts.js";
import { healthRoutes, ServerMetrics } from "./metrics.js";
import { logRequest } from "./request-log.js";
import { commandRoutes } from "./routes-commands.js";
import { branchRoutes } from "./routes-branches.js";
import { readRoutes } from "./routes-reads.js";
import { forecastRoutes } from "./routes-forecast.js";
import { sessionRoutes } from "./routes-session.js";
import type { SeatStore } from "./seat-store.js";
import { loadServerKey, loadSharedServerKey, serverKeyRoute } from "./server-key.js";
import { ViewChains } from "./view-chains.js";
import { setupRoutes } from "./routes-setups.js";
import { faviconRoute, webPageRoutes } from "./web-page.js";
import { webhookRoutes } from "./routes-webhooks.js";

export interface ServerOptions {
  /** The engine on the campaign folder; the caller closes it once the server has closed. */
  engine: Engine;
  seats: SeatStore;
  /** The host's secrets folder (its dice seeds): the server takes the host's chores. */
  secrets: string;
  /**
   * Whether this server takes the host's chores (default true). Of several servers on one database, the one that holds
   * their lease does.
   */
  hostChores?: boolean;
  /** The key the host's secrets are sealed with in a shared store (docs/scaling.md); in the secrets folder without it. */
  secretsKey?: Buffer;
  /**
   * Folders where campaigns made elsewhere keep the computer's settings and secrets (`epicwar new --computer`'s
   * `<db>-computer/`): the server plays their computer's seat too.
   */
  computerFolders?: string[];
  /** Where the request log goes, one JSON line per request (pino); no log when not given. */
  log?: (line: string) => void;
  /** The built web page's folder (builtWebPage), served at `/`; no page when not given. */
  webPage?: string;
  /** Timeouts, the connection cap, the body limit and the sign-in rate (limits.ts); each defaults to DEFAULT_LIMITS. */
  limits?: Partial<ServerLimits>;
  /** Serve HTTPS with this certificate (chain) and private key, PEM; HTTP when not given. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /**
   * The addresses of reverse proxies to trust (Fastify's trustProxy: "127.0.0.1", "10.0.0.0/8,::1", "loopback"): from
   * them, X-Forwarded-For gives the client's address (the sign-in limit's) and X-Forwarded-Proto whether the page was
   * served over HTTPS (the cookie's Secure flag). None when not given.
   */
  trustProxy?: string;
  /** Told of each campaign another process made in a shared store, once this server serves it (to seat it). */
  onCampaignFound?: (campaign: string) => Promise<void>;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** A route any caller may reach without a token (POST /session, the page's files). */
    public?: boolean;
  }
}

/*
 * Bodies and queries are checked with the project's schemas (src/engine/command-schemas.ts, src/setup/setup-file.ts, typebox) by
 * ajv as strict as the engine's: no field is removed, defaulted or coerced, except that a query's numbers arrive as
 * text.
 */
const NO_QUERY = Type.Object({}, { additionalProperties: false });
const bodyAjv = new Ajv({ strict: true, allErrors: false });
const queryAjv = new Ajv({ strict: true, coerceTypes: true });
/** The stream whose head /readyz reads: any name will do, a stream with no events is read all the same. */
const READINESS_PROBE = "readyz";

/** How often a server on a shared store looks for its open feeds' tokens revoked by another server, in milliseconds. */
const REVOCATION_MS = 1_000;

/** Ends the feeds whose tokens were revoked; a database away is looked at again the next time. */
async function endRevokedFeeds(feeds: Feeds, log: FastifyBaseLogger): Promise<void> {
  try {
    await feeds.endRevoked();
  } catch (error) {
    if (!(storeFailure(error) instanceof DatabaseAwayError))
      log.error({ err: error }, `looking for revoked tokens failed: ${(error as Error).message}`);
  }
}

/**
 * The campaign server (docs/server.md) over an open engine: seats and sessions, commands, reads and the live feed,
 * every one as its seat may see it. `app.inject` drives it in tests; `epicwar serve` listens with it.
 */
export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const { engine, seats } = options;
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const handleError = errorHandler(limits.bodyLimit);
  const enforced = serverOptions(limits);
  // The HTTPS server is an https.Server, not the http.Server the routes are typed with; they use nothing of either.
  const app = Fastify({
    ...enforced.fastify,
    ...(options.tls ? { https: { ...options.tls, ...enforced.node } } : { http: enforced.node }),
    ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
    // A URL Fastify cannot route, and a request Node's parser refuses, get the protocol's error body too.
    frameworkErrors: handleError,
    clientErrorHandler,
    // One line per request, written when it is answered (the onResponse hook below), not Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    logger: options.log
      ? {
          level: "info",
          stream: { write: options.log },
          // No token may reach the log: none is ever in a URL, and these headers are never written.
          redact: {
            paths: ["req.headers.authorization", "req.headers.cookie", 'res.headers["set-cookie"]'],
            remove: true,
          },
        }
      : false,
  }) as unknown as FastifyInstance;
  app.server.maxConnections = limits.maxConnections;
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === "querystring" || httpPart === "params" ? queryAjv : bodyAjv).compile(schema),
  );
  app.setErrorHandler(handleError);
  // A route that takes no query refuses one as strictly as the others refuse an unknown member: a query the server
  // would ignore is a client's mistake, told rather than acted on (DELETE /session?... would revoke the token).
  app.addHook("onRoute", (route) => {
    route.schema = { ...route.schema, querystring: route.schema?.querystring ?? NO_QUERY };
  });
  app.setNotFoundHandler((request) => {
    throw new HttpError("not-found", `no route ${request.method} ${request.url.split("?")[0]}`);
  });
  await app.register(cookie);
  await limitSignIns(app, limits);
  app.addHook("onRequest", async (request, reply) => {
    if (!request.routeOptions.config.public) await authenticate(seats)(request, reply);
  });
  app.addHook("onResponse", async (request, reply) => logRequest(request, reply, { status: reply.statusCode }));
  const feeds = new Feeds((tokenHashes) => seats.held(tokenHashes));
  const metrics = new ServerMetrics(() => feeds.size);
  metrics.register(app);
  healthRoutes(app, async () => {
    // Ready when the log answers a read: a LevelDB that failed a write, or a database away, is not.
    if (engine.store.failure) throw engine.store.failure;
    await engine.store.storedHead(READINESS_PROBE);
  });
  let closing = false;
  // Feeds never end by themselves: ended first, so that closing waits only for the requests in flight.
  app.addHook("preClose", async () => {
    closing = true;
    feeds.endAll();
  });
  // A request in flight when the server closes is answered, and its connection then closed rather than kept alive.
  app.addHook("onSend", async (_request, reply) => {
    if (closing) reply.header("connection", "close");
  });
  const campaigns = await Campaigns.open(
    engine,
    options.secrets,
    options.hostChores ?? true,
    (result, count) => metrics.hostStep(result, count),
    options.secretsKey,
  );
  // A server stopped between a command and the host's chores after it left them due: they are taken first.
  for (const campaign of campaigns.ids()) await campaigns.takeHostChores(campaign, app.log);
  campaigns.followChores(app.log);
  campaigns.discoverCampaigns(options.onCampaignFound ?? (async () => {}));
  const computers = ServerComputers.inServerData(campaigns, seats.folder, options.computerFolders);
  // Likewise the computer's steps, between requests, and after other processes' appends.
  computers.follow(app.log);
  // Another server on the same database may revoke a token: its feeds here end within a second.
  const revocations = engine.store.shared
    ? setInterval(() => void endRevokedFeeds(feeds, app.log), REVOCATION_MS)
    : undefined;
  app.addHook("onClose", async () => {
    clearInterval(revocations);
    await computers.close();
    campaigns.close();
  });
  const { sealedTexts } = engine.store;
  const serverKey =
    options.secretsKey && sealedTexts
      ? await loadSharedServerKey(sealedTexts, options.secretsKey, options.secrets)
      : await loadServerKey(options.secrets);
  const lineContexts = new LineContexts(engine.store);
  const context = {
    engine,
    seats,
    campaigns,
    computers,
    feeds,
    lineContexts,
    serverKey,
    viewChains: new ViewChains(engine),
  };
  serverKeyRoute(app, serverKey);
  sessionRoutes(app, context);
  setupRoutes(app);
  commandRoutes(app, context);
  readRoutes(app, context);
  branchRoutes(app, context);
  forecastRoutes(app, context);
  await webhookRoutes(app, context, options.secretsKey);
  if (options.webPage) await webPageRoutes(app, options.webPage);
  faviconRoute(app, options.webPage);
  return app;
}
