import type { FastifyError, FastifyInstance } from "fastify";
import type { HostStepsCounter } from "./campaigns.js";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { DatabaseAwayError, storeFailure } from "../log/index.js";
import { callerOf } from "./auth.js";
import { HttpError } from "./errors.js";

/** The route of a campaign's commands, whose answers are counted by outcome. */
const COMMANDS_ROUTE = "/campaigns/:id/commands";

/**
 * The server's metrics in Prometheus's text format (prom-client), one registry per server: requests and their
 * latency by route, commands by outcome and refusals by rule, open feeds, the log's store errors and the host's steps.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  private readonly requestSeconds = new Histogram({
    name: "epicwar_request_duration_seconds",
    help: "Time from a request's arrival to its answer, by route, method and status (a feed: until it ends)",
    labelNames: ["route", "method", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly commands = new Counter({
    name: "epicwar_commands_total",
    help: "Command requests answered, by outcome: accepted, stale, refused, invalid, forbidden, unavailable, ...",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });
  private readonly refusals = new Counter({
    name: "epicwar_command_refusals_total",
    help: "Command requests a rule refused (422), by the rule named, or the field where no rule is",
    labelNames: ["rule"] as const,
    registers: [this.registry],
  });
  private readonly storeErrors = new Counter({
    name: "epicwar_store_errors_total",
    help: "Requests answered 503 because of the log: database-away (PostgreSQL unreachable), write-failed (a full disk)",
    labelNames: ["kind"] as const,
    registers: [this.registry],
  });
  private readonly hostSteps = new Counter({
    name: "epicwar_host_steps_total",
    help: "The host's steps this server took (events written), and its tries that met a conflict or failed",
    labelNames: ["result"] as const,
    registers: [this.registry],
  });

  private readonly hostLease = new Counter({
    name: "epicwar_host_steps_lease_total",
    help: "Times this server came to hold the lease of the host's steps on a shared database (taken), or lost it (lost)",
    labelNames: ["change"] as const,
    registers: [this.registry],
  });

  constructor(openFeeds: () => number) {
    new Gauge({
      name: "epicwar_open_feeds",
      help: "Live feeds open now",
      registers: [this.registry],
      collect() {
        this.set(openFeeds());
      },
    });
    collectDefaultMetrics({ register: this.registry, prefix: "epicwar_" });
  }

  /** The host's steps taken (`taken`: events written), a try that met another writer or failed, a lease taken or lost. */
  hostStep(result: Parameters<HostStepsCounter>[0], count = 1): void {
    if (count === 0) return;
    if (result === "lease-taken" || result === "lease-lost") this.hostLease.inc({ change: result.slice(6) }, count);
    else this.hostSteps.inc({ result }, count);
  }

  /** Counts every request as it is answered, and serves GET /metrics to the operator token only. */
  register(app: FastifyInstance): void {
    app.addHook("onError", async (request, _reply, error: FastifyError | HttpError) => {
      const failure = storeFailure(error);
      if (failure)
        this.storeErrors.inc({ kind: failure instanceof DatabaseAwayError ? "database-away" : "write-failed" });
      if (request.routeOptions.url === COMMANDS_ROUTE && error instanceof HttpError && error.code === "refused") {
        const { rule, field } = error.details as { rule?: string; field?: string };
        this.refusals.inc({ rule: rule ?? (field === undefined ? "none" : `field:${field}`) });
      }
    });
    app.addHook("onResponse", async (request, reply) => {
      const route = request.routeOptions.url ?? "(none)";
      const status = reply.statusCode;
      this.requestSeconds.observe({ route, method: request.method, status }, reply.elapsedTime / 1000);
      if (route === COMMANDS_ROUTE) this.commands.inc({ outcome: commandOutcome(status) });
    });
    app.get("/metrics", async (request, reply) => {
      if (callerOf(request).kind !== "operator")
        throw new HttpError("forbidden", "the metrics are the operator's: send the operator token");
      return reply.type(this.registry.contentType).send(await this.registry.metrics());
    });
  }
}

const OUTCOMES: Record<number, string> = {
  200: "accepted",
  400: "invalid",
  401: "unauthorized",
  403: "forbidden",
  404: "not-found",
  409: "stale",
  422: "refused",
  503: "unavailable",
};

const commandOutcome = (status: number) => OUTCOMES[status] ?? (status >= 500 ? "failed" : "other");

/**
 * `GET /healthz`: the process is alive and answers (200, no token); `GET /readyz`: it can serve, its log answering a
 * read (200), else 503 `unavailable` with the reason (no token either: nothing of a campaign is in either).
 */
export function healthRoutes(app: FastifyInstance, ready: () => Promise<void>): void {
  app.get("/healthz", { config: { public: true } }, async () => ({ status: "alive" }));
  app.get("/readyz", { config: { public: true } }, async () => {
    await ready();
    return { status: "ready" };
  });
}
