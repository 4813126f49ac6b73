/**
 * A small campaign server that follows the wire contract of docs/server.md (the draft the real server is built to):
 * enough of it, on node:http on port 0, for the client's behaviour to be tested before the real server lands. It
 * decides on a MemoryEngine, runs the host's chores after each accepted command (as the server does), shows each seat
 * its view, and records every request so that tests can check what the clients sent.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { HOST } from "../../events/common.js";
import type { StoredEvent } from "../../events/index.js";
import { toCurrent } from "../../events/index.js";
import { MemorySecrets } from "../../src/client/secrets.js";
import { sequenceRandomHex } from "../../src/client/prepare.js";
import { Table } from "../../src/client/table.js";
import { MemoryEngine } from "../../src/engine/memory-engine.js";
import { checkCommand } from "../../src/engine/command-schemas.js";
import { setupCommands } from "../../src/setup/setup-file.js";
import { loadSetupFile } from "../../src/setup/setup-loader.js";
import { viewEvent, viewState } from "../../src/views/view.js";
import { logViewContext } from "../../src/views/log.js";
import { examplePath } from "../../src/setup/package-files.js";
import { receiptText, type ReceiptText } from "../../src/crypto/receipts.js";
import { newSeatKey } from "../../src/crypto/signatures.js";
import { nodeSigner } from "../../src/crypto/sign-node.js";
import { sealedContext, ViewChain } from "../../src/views/chain.js";

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface StubOptions {
  /** The feed closes its connection after sending this many events on it (a drop), if set. */
  dropFeedEvery?: number;
}

export class StubServer {
  readonly requests: RecordedRequest[] = [];
  /** The Last-Event-ID of each feed connection, as the client sent it (undefined: none). */
  readonly feedResumes: Array<string | undefined> = [];
  readonly events: StoredEvent[] = [];
  private readonly tokens = new Map<string, string>();
  private readonly invites = new Map<string, { token: string; seat: string }>();
  private readonly feeds = new Set<(event: StoredEvent) => void>();
  private readonly host: Table;
  private http!: Server;
  url = "";
  /** The next this many command requests are decided and written, and their connection is then cut unanswered. */
  loseAnswers = 0;
  /** The next this many requests are answered 503 with this Retry-After (seconds), as a server whose store failed. */
  unavailable = { requests: 0, retryAfter: "1" };
  /** The server's key (GET /server-key), which signs every answer to a command. */
  serverKey = { publicKey: "", sign: (_text: string) => "" };
  /** When set, every event is shown with this recorded time instead of its own (a server that lies to a seat). */
  showAt: string | undefined;
  /** The campaign's set-up, which every view chain is judged with. */
  private sealed = sealedContext({ setup: null });

  private constructor(
    readonly engine: MemoryEngine,
    readonly campaign: string,
    private readonly options: StubOptions,
  ) {
    this.host = new Table(engine, campaign, {
      parties: new Set([HOST]),
      secrets: new MemorySecrets(),
      random: sequenceRandomHex("stub-host"),
    });
  }

  /** A stub serving the Ashfall demo campaign, set up and with the host's chores taken. */
  static async ashfall(options: StubOptions = {}): Promise<StubServer> {
    let tick = 0;
    const engine = new MemoryEngine(() => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++)));
    const setup = await loadSetupFile(examplePath("ashfall.setup.json"));
    const stub = new StubServer(engine, setup.campaign, options);
    const key = await newSeatKey();
    stub.serverKey = { publicKey: key.publicKey, sign: nodeSigner(key) };
    const created = await engine.execute(
      setup.campaign,
      setupCommands(setup).map((step) => step.command),
    );
    if (!created.ok) throw new Error(`set-up refused: ${JSON.stringify(created.refusal)}`);
    stub.written(created.events);
    stub.sealed = sealedContext(await engine.state(setup.campaign));
    await stub.host.takeChores((events) => stub.written(events));
    for (const seat of [HOST, ...setup.players.map((p) => p.id)]) {
      stub.tokens.set(`ewt_${seat}-token`, seat);
      stub.invites.set(`invite-${seat}`, { token: `ewt_${seat}-joined`, seat });
    }
    stub.http = createServer((request, response) => void stub.handle(request, response));
    await new Promise<void>((resolve) => stub.http.listen(0, "127.0.0.1", resolve));
    stub.url = `http://127.0.0.1:${(stub.http.address() as AddressInfo).port}`;
    return stub;
  }

  /** The token of a seat, as an invite redeemed for it would give. */
  token(seat: string): string {
    return `ewt_${seat}-token`;
  }

  close(): Promise<void> {
    this.http.closeAllConnections();
    return new Promise((resolve) => this.http.close(() => resolve()));
  }

  /** Decides and writes one command of a seat, as if its own client had sent it. */
  async write(seat: string, command: object): Promise<void> {
    const outcome = await this.engine.execute(this.campaign, [{ actor: seat, ...command }]);
    if (!outcome.ok) throw new Error(`refused: ${JSON.stringify(outcome.refusal)}`);
    this.written(outcome.events);
  }

  private written(events: StoredEvent[]): void {
    for (const event of events) {
      this.events.push(event);
      for (const follower of this.feeds) follower(event);
    }
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    this.requests.push({ method: request.method!, url: request.url!, headers: request.headers, body });
    const url = new URL(request.url!, this.url);
    const send = (status: number, value: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(value));
    };
    if (this.unavailable.requests > 0) {
      this.unavailable.requests -= 1;
      response.writeHead(503, { "content-type": "application/json", "retry-after": this.unavailable.retryAfter });
      return void response.end(JSON.stringify({ error: "unavailable", message: "the store failed" }));
    }
    if (request.method === "POST" && url.pathname === "/session") {
      const invite = this.invites.get((JSON.parse(body) as { invite: string }).invite);
      if (!invite) return send(401, { error: "unauthorized", message: "unknown or used invite" });
      this.invites.clear();
      this.tokens.set(invite.token, invite.seat);
      return send(200, { token: invite.token, campaign: this.campaign, seat: invite.seat });
    }
    if (url.pathname === "/server-key") return send(200, { publicKey: this.serverKey.publicKey });
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    const seat = bearer === undefined ? undefined : this.tokens.get(bearer);
    if (seat === undefined) return send(401, { error: "unauthorized", message: "no token, or an unknown one" });
    if (url.pathname === "/campaigns") return send(200, { campaigns: [{ id: this.campaign, seat }] });
    const match = /^\/campaigns\/([^/]+)\/([a-z]+)$/.exec(url.pathname);
    if (!match) return send(404, { error: "not-found", message: "no such route" });
    if (match[1] !== this.campaign) return send(403, { error: "forbidden", message: "a token of another campaign" });
    const state = await this.engine.state(this.campaign);
    const context = logViewContext(this.events.map(toCurrent));
    const viewed = (event: StoredEvent) =>
      viewEvent(this.showAt === undefined ? event : { ...event, at: this.showAt }, seat, context);
    switch (`${request.method} ${match[2]}`) {
      case "GET state":
        return send(200, { seq: state.seq, state: viewState(state, seat, context) });
      case "GET log": {
        const after = Number(url.searchParams.get("after") ?? 0);
        return send(200, { seq: state.seq, events: this.events.filter((e) => e.seq > after).map(viewed) });
      }
      case "POST commands": {
        const sent = JSON.parse(body) as { expectedSeq: number; commands: unknown[] };
        // Every answer to a command carries the server's receipt (docs/signatures.md), a refusal's too.
        const signed = (status: number, value: unknown) => {
          const answer = value as { seq?: number; error?: string; message?: string };
          const seq = status === 200 ? answer.seq! : this.events.length;
          const refused = { commands: sent.commands, error: answer.error!, message: answer.message! };
          const text =
            status === 200
              ? { from: { seq: sent.expectedSeq, view: this.viewHead(seat, sent.expectedSeq) }, refused: null }
              : { from: null, refused };
          const accepted = status === 200 ? { from: sent.expectedSeq + 1, to: seq } : null;
          send(status, { ...answer, receipt: this.receipt(seat, { ...text, seq, accepted }) });
        };
        return this.commands(seat, sent, signed, viewed, () => response.socket?.destroy());
      }
      case "GET feed":
        return this.feed(request, response, viewed);
      default:
        return send(404, { error: "not-found", message: "no such route" });
    }
  }

  private async commands(
    seat: string,
    body: { expectedSeq: number; commands: unknown[] },
    send: (status: number, value: unknown) => void,
    viewed: (event: StoredEvent) => unknown,
    /** Cuts the connection: the answer is lost. */
    cut: () => void,
  ): Promise<void> {
    const forged = body.commands.findIndex((c) => (c as { actor?: unknown }).actor !== seat);
    if (forged >= 0) {
      const field = `commands[${forged}].actor`;
      return send(403, { error: "forbidden", message: `${field}: this token acts as ${seat}`, field, index: forged });
    }
    const head = await this.engine.head(this.campaign);
    if (body.expectedSeq !== head.seq)
      return send(409, { error: "stale", message: `the campaign is at seq ${head.seq}`, seq: head.seq });
    const malformed = body.commands.map(checkCommand).findIndex((check) => !check.ok);
    if (malformed >= 0) {
      const check = checkCommand(body.commands[malformed]) as { field: string; message: string };
      const field = `commands[${malformed}].${check.field}`;
      return send(400, { error: "invalid", field, message: `${field}: ${check.message}`, index: malformed });
    }
    const outcome = await this.engine.execute(this.campaign, body.commands);
    if (!outcome.ok) {
      const { refusal, index } = outcome;
      // As the server answers a command signed at a seq the campaign has since passed (D2): read again and retry.
      if (refusal.kind === "conflict")
        return send(409, {
          error: "stale",
          message: refusal.message,
          seq: (await this.engine.head(this.campaign)).seq,
        });
      const named =
        refusal.kind === "rule" ? { rule: refusal.rule } : refusal.kind === "field" ? { field: refusal.field } : {};
      return send(422, { error: "refused", ...named, message: refusal.message, index });
    }
    this.written(outcome.events);
    const answer = outcome.events.map(viewed);
    // As the server answers: the host's steps taken after the commands come in the answer too.
    await this.host.takeChores((events) => {
      this.written(events);
      answer.push(...events.map(viewed));
    });
    if (this.loseAnswers > 0) {
      this.loseAnswers -= 1;
      return cut();
    }
    return send(200, { seq: (await this.engine.head(this.campaign)).seq, events: answer });
  }

  /** A seat's view head at a seq, computed from the log as stored. */
  private viewHead(seat: string, seq: number): string {
    const chain = new ViewChain(seat, this.sealed);
    chain.advance(this.events.filter((event) => event.seq <= seq));
    return chain.head;
  }

  private receipt(seat: string, text: Pick<ReceiptText, "seq" | "from" | "accepted" | "refused">) {
    const signed = receiptText({
      campaign: this.campaign,
      line: this.campaign,
      seat,
      ...text,
      view: this.viewHead(seat, text.seq),
    });
    return { signed, signature: this.serverKey.sign(signed) };
  }

  private feed(request: IncomingMessage, response: ServerResponse, viewed: (event: StoredEvent) => unknown): void {
    const resume = request.headers["last-event-id"] as string | undefined;
    this.feedResumes.push(resume);
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    response.write(": keep-alive\n\n");
    let sent = 0;
    const follower = (event: StoredEvent) => {
      if (response.writableEnded || response.destroyed) return;
      if (this.options.dropFeedEvery !== undefined && sent >= this.options.dropFeedEvery) return;
      sent += 1;
      const drop = this.options.dropFeedEvery !== undefined && sent >= this.options.dropFeedEvery;
      // A drop: once the events are on their way, the connection is cut, not closed politely.
      response.write(`id: ${event.seq}\nevent: event\ndata: ${JSON.stringify(viewed(event))}\n\n`, () => {
        if (drop) response.socket?.destroy();
      });
    };
    const after = Number(resume ?? 0);
    for (const event of this.events.filter((e) => e.seq > after)) follower(event);
    if (!response.writableEnded && !response.socket?.destroyed) this.feeds.add(follower);
    request.on("close", () => this.feeds.delete(follower));
  }
}
