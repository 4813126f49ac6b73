import type { FastifyInstance } from "fastify";
import { seatsOf } from "../client/seats.js";
import { Engine, type Clock } from "../engine.js";
import { storeLocation, StoreOpenError } from "../log/index.js";
import { buildServer } from "./app.js";
import { SeatStore } from "./seat-store.js";
import { builtWebPage } from "./web-page.js";

export interface ServeOptions {
  /** The campaign folder (LevelDB): every campaign in it is served. */
  db: string;
  /** The log in PostgreSQL instead (a postgres:// URL), which several servers may serve at once. */
  store?: string;
  /** Whether this server takes the host's chores (default true): of several servers on one database, exactly one. */
  hostChores?: boolean;
  host: string;
  port: number;
  /** The host's secrets folder (its dice seeds). */
  secrets: string;
  /** The server's own folder: seats.json. */
  serverData: string;
  clock?: Clock;
  /** Where the request log goes, one line per request. */
  log?: (line: string) => void;
}

export interface RunningServer {
  app: FastifyInstance;
  /** Where it listens: http://host:port. */
  url: string;
  /** The log it serves, as it may be shown (a folder, or a database URL without its password). */
  location: string;
  /** Stops taking requests, lets those in flight finish, then closes the folder. */
  close(): Promise<void>;
}

/** The server could not start: the folder is held by another process, or cannot be opened. */
export class ServeError extends Error {
  override readonly name = "ServeError";
}

/**
 * Starts `epicwar serve` (docs/server.md): opens the log (a folder, whose LevelDB lock keeps a second server out; or a
 * PostgreSQL database, which several servers share) and the seats,
 * builds the server (which takes the host's chores left due), listens, and tells the operator, through `print`, its token on the first start
 * and one invite line per seat of every campaign that has none issued yet.
 */
export async function startServer(options: ServeOptions, print: (line: string) => void): Promise<RunningServer> {
  let engine: Engine;
  try {
    engine = await Engine.open(storeLocation(options), options.clock ? { clock: options.clock } : {});
  } catch (error) {
    if (error instanceof StoreOpenError && /in use|already open/.test(error.message))
      throw new ServeError(
        `${options.db} is in use by another epicwar process (a server already serving it?): one server per folder; stop the other first`,
      );
    throw error;
  }
  try {
    const { seats, operatorToken } = await SeatStore.open(options.serverData);
    const webPage = builtWebPage();
    const app = await buildServer({
      engine,
      seats,
      secrets: options.secrets,
      hostChores: options.hostChores ?? true,
      ...(options.log ? { log: options.log } : {}),
      ...(webPage ? { webPage } : {}),
    });
    await app.listen({ host: options.host, port: options.port });
    const address = app.server.address();
    const port = typeof address === "object" && address ? address.port : options.port;
    const url = `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}`;
    print(`Serving ${engine.store.location} at ${url} (request log on stderr; Ctrl-C stops it).`);
    if (!webPage) print("The web page is not built (npm run build builds it): the server answers its API only.");
    if (operatorToken)
      print(`Operator token (shown this once; only its hash is kept in ${options.serverData}): ${operatorToken}`);
    for (const campaign of await engine.listCampaigns()) {
      if (seats.seated(campaign)) continue;
      const invites = await seats.seatCampaign(campaign, seatsOf(await engine.state(campaign)));
      for (const [seat, invite] of Object.entries(invites)) print(`${campaign} ${seat} ${url}/join#${invite}`);
    }
    let closing: Promise<void> | undefined;
    return {
      app,
      url,
      location: engine.store.location,
      close: () => (closing ??= app.close().then(() => engine.close())),
    };
  } catch (error) {
    await engine.close();
    throw error;
  }
}
