/**
 * An HTTP proxy on loopback in front of a campaign server that every client of a soak talks to, on a port that stays
 * the same while the server behind it is killed and started again. It records every answer to a command
 * (`POST /campaigns/:id/commands`): the ones answered 2xx are what the clients were told is durable. `down()` closes
 * it and every connection through it, so that while the server is down the clients meet what they would meet without
 * the proxy: a refused connection.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** An event as an answer or the log shows it: enough of it to tell it from any other event of its campaign. */
export interface EventIdentity {
  stream: string;
  seq: number;
  type: string;
  actor: string;
  at: string;
  hash?: string;
}

export interface CommandAnswer {
  campaign: string;
  status: number;
  /** The head seq the answer gave (2xx only). */
  seq?: number;
  /** The events it said were written (2xx only). */
  events: EventIdentity[];
}

export interface RecordingProxy {
  url: () => string;
  /** Every answer to a command that came back whole from the server, in order. */
  answers: CommandAnswer[];
  up: () => Promise<void>;
  down: () => Promise<void>;
  close: () => Promise<void>;
}

const COMMANDS = /^\/campaigns\/([^/?]+)\/commands(\?|$)/;

export async function recordingProxy(target: () => URL): Promise<RecordingProxy> {
  const answers: CommandAnswer[] = [];
  const sockets = new Set<Socket>();
  let port = 0;
  let server: Server | undefined;

  const forward = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const to = target();
    const upstream = request(
      {
        host: to.hostname,
        port: to.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
        agent: false,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode!, answer.rawHeaders);
        outgoing.flushHeaders();
        const campaign = incoming.method === "POST" ? COMMANDS.exec(incoming.url ?? "")?.[1] : undefined;
        const body: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => {
          if (campaign !== undefined) body.push(chunk);
          outgoing.write(chunk);
        });
        answer.on("end", () => {
          if (campaign !== undefined) answers.push(commandAnswer(campaign, answer.statusCode!, body));
          outgoing.end();
        });
        // The server killed mid-answer: the client sees its connection reset, as it would without the proxy.
        answer.on("error", () => outgoing.destroy());
        answer.on("aborted", () => outgoing.destroy());
      },
    );
    upstream.on("error", () => outgoing.destroy());
    outgoing.on("close", () => upstream.destroy());
    incoming.pipe(upstream);
  };

  const up = async () => {
    if (server) return;
    const listening = createServer(forward);
    listening.on("connection", (socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      listening.once("error", reject);
      listening.listen(port, "127.0.0.1", () => resolve());
    });
    port = (listening.address() as AddressInfo).port;
    server = listening;
  };
  const down = async () => {
    const closing = server;
    server = undefined;
    if (!closing) return;
    const closed = new Promise<void>((resolve) => closing.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  await up();
  return { url: () => `http://127.0.0.1:${port}`, answers, up, down, close: down };
}

function commandAnswer(campaign: string, status: number, body: Buffer[]): CommandAnswer {
  if (status < 200 || status > 299) return { campaign, status, events: [] };
  const answer = JSON.parse(Buffer.concat(body).toString("utf8")) as { seq: number; events: EventIdentity[] };
  return { campaign, status, seq: answer.seq, events: answer.events.map(eventIdentity) };
}

export function eventIdentity(event: EventIdentity): EventIdentity {
  const { stream, seq, type, actor, at, hash } = event;
  return hash === undefined ? { stream, seq, type, actor, at } : { stream, seq, type, actor, at, hash };
}
