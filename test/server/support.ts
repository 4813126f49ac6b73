/**
 * A campaign server on a temp folder for the server's tests: the engine, the seats and the app (driven with
 * app.inject), the Ashfall demo created through POST /campaigns, and a player's client as the players' machines run
 * it: prepareCommand with the player's own secrets in memory (the server never sees them), its command then posted.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import type { CampaignState } from "../../projections/state.js";
import { dueChores } from "../../src/client/chores.js";
import { prepareCommand, sequenceRandomHex, type RandomHex } from "../../src/client/prepare.js";
import { MemorySecrets } from "../../src/client/secrets.js";
import { examplePath } from "../../src/setup/package-files.js";
import { Engine, type EngineOptions } from "../../src/engine/engine.js";
import { buildServer, type ServerOptions } from "../../src/server/app.js";
import { SeatStore } from "../../src/server/seat-store.js";
import { loadSetupFile } from "../../src/setup/setup-loader.js";

export const CAMPAIGN = "ashfall";

export interface TestServer {
  app: FastifyInstance;
  engine: Engine;
  dir: string;
  operator: string;
  /** seat -> token, for the host (organiser) and both players of Ashfall. */
  tokens: Record<string, string>;
  /** The request log's lines. */
  logLines: string[];
  close(): Promise<void>;
}

export const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** The Ashfall set-up as POST /campaigns takes it: its catalogue in it. */
export async function ashfallSetup(file = "ashfall.setup.json"): Promise<object> {
  return loadSetupFile(examplePath(file));
}

export interface TestServerOptions {
  /** The set-up POST /campaigns creates; Ashfall when not given. */
  setup?: object;
  /** A test that plays many campaigns may open the engine without fsync (`{ sync: false }`). */
  engine?: EngineOptions;
  /** Adds to the app before it first answers (hooks cannot be added later). */
  configure?: (app: FastifyInstance) => void;
  /** A web page's folder to serve at `/`. */
  webPage?: string;
  /** The server's limits, TLS and trusted proxies, as `epicwar serve` gives them. */
  serving?: Pick<ServerOptions, "limits" | "tls" | "trustProxy">;
}

/** A server over a fresh folder, with a campaign created by the operator and every seat's invite redeemed. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  // Its own folder, removed by close(): a file's tests share one server, outliving any one test.
  const dir = await mkdtemp(join(tmpdir(), "epicwar-server-"));
  const engine = await Engine.open(join(dir, "db"), options.engine);
  const { seats, operatorToken } = await SeatStore.open(join(dir, "db-server"));
  const logLines: string[] = [];
  const app = await buildServer({
    engine,
    seats,
    secrets: join(dir, "db-secrets"),
    log: (line) => void logLines.push(line),
    ...(options.webPage ? { webPage: options.webPage } : {}),
    ...options.serving,
    // Tests sign in many times from one address: the limit is tested where a test sets it.
    limits: { signInMax: 10_000, ...options.serving?.limits },
  });
  options.configure?.(app);
  const operator = operatorToken!;
  const created = await app.inject({
    method: "POST",
    url: "/campaigns",
    headers: auth(operator),
    payload: options.setup ?? (await ashfallSetup()),
  });
  if (created.statusCode !== 201) throw new Error(`POST /campaigns: ${created.statusCode} ${created.body}`);
  const { invites } = created.json<{ invites: Record<string, string> }>();
  const tokens: Record<string, string> = {};
  for (const [seat, invite] of Object.entries(invites)) {
    const session = await app.inject({ method: "POST", url: "/session", payload: { invite } });
    tokens[seat] = session.json<{ token: string }>().token;
  }
  return {
    app,
    engine,
    dir,
    operator,
    tokens,
    logLines,
    close: async () => {
      await app.close();
      await engine.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Listens on a free loopback port; returns the port. */
export async function listenOnLoopback(server: TestServer): Promise<number> {
  await server.app.listen({ host: "127.0.0.1", port: 0 });
  return (server.app.server.address() as AddressInfo).port;
}

export const headSeq = async (server: TestServer, campaign = CAMPAIGN) =>
  (await server.engine.store.head(campaign)).seq;
export const headHash = async (server: TestServer, campaign = CAMPAIGN) =>
  (await server.engine.store.head(campaign)).hash;

/** A player's machine: its secrets in memory, its commands prepared there and posted with the seq it read. */
export class PlayerClient {
  readonly campaign: string;
  readonly secrets: MemorySecrets;
  private readonly random: RandomHex;

  constructor(
    private readonly server: TestServer,
    readonly player: string,
    options: { campaign?: string; secrets?: MemorySecrets; random?: RandomHex } = {},
  ) {
    this.campaign = options.campaign ?? CAMPAIGN;
    this.secrets = options.secrets ?? new MemorySecrets();
    this.random = options.random ?? sequenceRandomHex(`client-${player}`);
  }

  /** The campaign as the player's client knows it (a remote client reads GET /state; the test reads the engine). */
  state(): Promise<CampaignState> {
    return this.server.engine.state(this.campaign);
  }

  /** Prepares a command as the player writes it (an order in the clear) and posts what the protocol sends. */
  async submit(input: Record<string, unknown>): Promise<LightMyRequestResponse> {
    return this.server.app.inject({
      method: "POST",
      url: `/campaigns/${this.campaign}/commands`,
      headers: auth(this.server.tokens[this.player]!),
      payload: await this.prepare(input),
    });
  }

  /** The body of POST /campaigns/:id/commands for a command as the player writes it, its secret kept first. */
  async prepare(input: Record<string, unknown>): Promise<{ expectedSeq: number; commands: unknown[] }> {
    const state = await this.state();
    const prepared = await prepareCommand(state, { actor: this.player, ...input }, this.secrets, this.random);
    await prepared.keep();
    return { expectedSeq: state.seq, commands: [prepared.command] };
  }

  /** Takes this player's chores that are due (seeds, reveals), as the player's client does. */
  async takeChores(): Promise<LightMyRequestResponse[]> {
    const answers: LightMyRequestResponse[] = [];
    for (const chore of dueChores(await this.state(), new Set([this.player]))) {
      const answer = await this.submit(chore);
      if (answer.statusCode !== 200) throw new Error(`${this.player}'s ${String(chore["type"])}: ${answer.body}`);
      answers.push(answer);
    }
    return answers;
  }
}

export interface FeedEvent {
  id: number;
  event: string;
  data: { seq: number; type: string; hash?: string; data?: unknown };
}

/**
 * Opens a feed on a listening server with these headers, as a browser's EventSource would: `events` fill as they
 * arrive, `text()` is every byte received so far, `waitFor(n)` resolves once n events have, `waitForSeq(seq)` once the
 * event of that seq has.
 */
export function openFeed(port: number, headers: Record<string, string>, path = `/campaigns/${CAMPAIGN}/feed`) {
  const events: FeedEvent[] = [];
  const comments: string[] = [];
  let status = 0;
  let contentType = "";
  let markEnded = () => {};
  const ended = new Promise<void>((resolve) => (markEnded = resolve));
  const waiters: Array<() => void> = [];
  let received = "";
  let buffer = "";
  const req = httpRequest({ host: "127.0.0.1", port, path, headers });
  req.on("response", (res) => {
    status = res.statusCode ?? 0;
    contentType = String(res.headers["content-type"]);
    res.setEncoding("utf8");
    res.on("close", () => markEnded());
    res.on("data", (chunk: string) => {
      received += chunk;
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (block.startsWith(":")) comments.push(block);
        else {
          const fields = Object.fromEntries(
            block.split("\n").map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)]),
          );
          events.push({ id: Number(fields["id"]), event: fields["event"]!, data: JSON.parse(fields["data"]!) });
        }
      }
      waiters.splice(0).forEach((wake) => wake());
    });
  });
  req.end();
  const answered = new Promise<void>((resolve) => req.on("response", () => resolve()));
  const waitUntil = async (done: () => boolean) => {
    while (!done()) await new Promise<void>((wake) => waiters.push(wake));
    return events;
  };
  return {
    events,
    comments,
    waitFor: (count: number) => waitUntil(() => events.length >= count),
    /** Waits for the log's event `seq`; a forecast's progress (`event: forecast`) carries no seq. */
    waitForSeq: (seq: number) =>
      waitUntil(() => Math.max(0, ...events.filter((e) => e.event === "event").map((e) => e.id)) >= seq),
    text: () => received,
    /** Resolves once the server has ended the feed (or the connection closed). */
    ended,
    /** Resolves once the response's status and headers have come; fails after `ms`. */
    answered: (ms: number) =>
      Promise.race([
        answered,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`no response headers within ${ms} ms`)), ms).unref(),
        ),
      ]),
    close: () => req.destroy(),
    status: () => status,
    contentType: () => contentType,
  };
}
