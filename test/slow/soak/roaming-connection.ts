/**
 * A seat's connection to a campaign served by several instances, as a client behind a list of addresses keeps one:
 * it talks to one instance at a time and moves to the next when that one cannot be reached (a refused or cut
 * connection), as a client of a load balancer would be moved. A request refused a connection never reached an
 * instance and is sent to the next at once; one cut after it was sent may have been taken, so its failure goes to
 * the caller (RemoteCampaign then looks in the log before sending a command again). Every answer to a command is
 * recorded, as the soak's proof of what was acknowledged.
 */
import { nodeHttpRequest, REQUEST_SILENCE_MS } from "../../../src/client/http-transport.js";
import type { ReconnectOptions } from "../../../src/client/reconnect.js";
import { refusedAccess, ServerConnection, unreachable, type Transport } from "../../../src/client/server.js";
import { eventIdentity, type CommandAnswer, type EventIdentity } from "../chaos/recording-proxy.js";

const COMMANDS = /\/campaigns\/([^/?]+)\/commands(\?|$)/;

/** Where a roaming connection is now, and how often it moved. */
interface Place {
  at: number;
  moves: number;
}

/** Whether a request failed before it reached any server: nothing of it can have been taken. */
function refused(error: unknown): boolean {
  return (error as { cause?: { code?: string } }).cause?.code === "ECONNREFUSED";
}

export class RoamingConnection extends ServerConnection {
  private constructor(
    private readonly urls: readonly string[],
    private readonly place: Place,
    token: string,
    transport: Transport,
    reconnect: ReconnectOptions,
  ) {
    super(urls[place.at]!, token, transport, { reconnect });
  }

  /**
   * A connection with the seat's token (good at every instance) to the instances at `urls`, that starts at the one
   * numbered `start`; each answer to a command is pushed onto `answers`.
   */
  static open(
    urls: readonly string[],
    token: string,
    start: number,
    reconnect: ReconnectOptions,
    answers: CommandAnswer[],
  ): RoamingConnection {
    const place: Place = { at: start, moves: 0 };
    const base = urls[start]!;
    const transport: Transport = async (request) => {
      for (let tries = 0; ; tries++) {
        const at = place.at;
        const url = `${urls[at]}${request.url.slice(base.length)}`;
        try {
          const answer = await nodeHttpRequest({ ...request, url }, REQUEST_SILENCE_MS);
          const campaign = request.method === "POST" ? COMMANDS.exec(url)?.[1] : undefined;
          if (campaign !== undefined) answers.push(commandAnswer(campaign, answer.status, answer.text));
          return answer;
        } catch (error) {
          moveFrom(place, at, urls.length);
          if (refused(error) && tries < urls.length) continue;
          throw error;
        }
      }
    };
    return new RoamingConnection(urls, place, token, transport, reconnect);
  }

  /** How often the connection moved to another instance. */
  get moves(): number {
    return this.place.moves;
  }

  /** The live feed from the instance the connection is at now; one that cannot be reached moves it on. */
  override async open(path: string, headers: Record<string, string>, signal: AbortSignal): Promise<Response> {
    const at = this.place.at;
    let response: Response;
    try {
      response = await fetch(`${this.urls[at]}${path}`, { headers: this.headers(headers), signal });
    } catch (error) {
      if (signal.aborted) throw error;
      moveFrom(this.place, at, this.urls.length);
      throw unreachable(this.urls[at]!, error);
    }
    if (response.status !== 200)
      throw refusedAccess(this.base, { status: response.status, body: await response.json().catch(() => undefined) });
    return response;
  }
}

/** Moves on from instance `at` to the next, unless another request already has. */
function moveFrom(place: Place, at: number, count: number): void {
  if (place.at !== at) return;
  place.at = (at + 1) % count;
  place.moves++;
}

function commandAnswer(campaign: string, status: number, text: string): CommandAnswer {
  if (status < 200 || status > 299) return { campaign, status, events: [] };
  const answer = JSON.parse(text) as { seq: number; events: EventIdentity[] };
  return { campaign, status, seq: answer.seq, events: answer.events.map(eventIdentity) };
}
