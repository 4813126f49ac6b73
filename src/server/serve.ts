import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { readFile } from "node:fs/promises";
import { seatsOf } from "../client/seats.js";
import { Engine, type Clock } from "../engine/engine.js";
import { storeLocation, StoreOpenError, type PostgresOptions } from "../log/index.js";
import { buildServer } from "./app.js";
import { computerFolder, computerSeatOf } from "./computer-seats.js";
import { computerDir } from "../computer/settings.js";
import { appendSecretLines, INVITES_FILE } from "./invites-file.js";
import type { ServerLimits } from "./limits.js";
import { SeatStore } from "./seat-store.js";
import { readSecretsKey } from "./sealed-secrets.js";
import { builtWebPage } from "./web-page.js";

export interface ServeOptions {
  /** The campaign folder (LevelDB): every campaign in it is served. */
  db: string;
  /** The log in PostgreSQL instead (a postgres:// URL), which several servers may serve at once. */
  store?: string;
  /** Whether this server takes the host's chores (default true): of several on one database, their lease's holder. */
  hostChores?: boolean;
  /** With `store`: the file of the key the host's secrets are sealed with in the database (docs/scaling.md). */
  secretsKeyFile?: string;
  /** With `store`: the pool's size and the connect and statement timeouts. */
  postgres?: Partial<PostgresOptions>;
  host: string;
  port: number;
  /** The host's secrets folder (its dice seeds). */
  secrets: string;
  /** The server's own folder: seats.json. */
  serverData: string;
  clock?: Clock;
  /** Where the request log goes, one line per request. */
  log?: (line: string) => void;
  /** Serve HTTPS with this certificate (PEM, the chain) and private key (PEM), read from these files. */
  tls?: { cert: string; key: string };
  /** The reverse proxies to trust for X-Forwarded-For and X-Forwarded-Proto (app.ts, ServerOptions.trustProxy). */
  trustProxy?: string;
  limits?: Partial<ServerLimits>;
  /**
   * Whether the operator token and the invites are printed as well as written to the server-data folder's invites
   * file: only where `print` goes to a terminal, never to a log.
   */
  printSecrets?: boolean;
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

/** The certificate and key of `--tls-cert` and `--tls-key`, read before anything is opened. */
async function readTls(tls: { cert: string; key: string }): Promise<{ cert: Buffer; key: Buffer }> {
  const read = async (option: string, path: string) => {
    try {
      return await readFile(path);
    } catch (error) {
      throw new ServeError(`cannot read ${option} ${path}: ${(error as Error).message}`);
    }
  };
  return { cert: await read("--tls-cert", tls.cert), key: await read("--tls-key", tls.key) };
}

/**
 * Gives the operator what this start issued (its token, on the first start; the invite lines): appended to the
 * server-data folder's invites file, printed only where `printSecrets` says `print` is a terminal's, and where the file
 * is said either way.
 */
async function giveSecrets(
  options: Pick<ServeOptions, "serverData" | "clock" | "printSecrets">,
  url: string,
  { operatorToken, invites }: { operatorToken: string | undefined; invites: string[] },
  print: (line: string) => void,
): Promise<void> {
  const lines = [...(operatorToken ? [operatorTokenLine(options, operatorToken)] : []), ...invites];
  if (lines.length === 0) return;
  // The operator token was kept when it was made (keepOperatorToken); the invites are kept here.
  const file =
    invites.length > 0
      ? await keepSecretLines(options, [`# ${now(options).toISOString()} ${url}`, ...invites])
      : join(options.serverData, INVITES_FILE);
  if (options.printSecrets) lines.forEach((line) => print(line));
  const what = [operatorToken ? "the operator token" : "", invites.length > 0 ? `${invites.length} invite links` : ""];
  const unprinted = options.printSecrets ? "" : " (printed on a terminal only, never to a log)";
  print(`Kept in ${file}, readable by you only: ${what.filter(Boolean).join(" and ")}${unprinted}.`);
}

const now = (options: Pick<ServeOptions, "clock">) => (options.clock ?? (() => new Date()))();

const operatorTokenLine = (options: Pick<ServeOptions, "serverData">, token: string) =>
  `Operator token (only its hash is kept in ${options.serverData}): ${token}`;

/** The secrets key from its file, or a ServeError that says what is wrong with it. */
function secretsKeyOf(path: string): Promise<Buffer> {
  return readSecretsKey(path).catch((error: Error) => {
    throw new ServeError(error.message);
  });
}

/** Appends lines to the server-data folder's invites file, durably: the file's path. */
function keepSecretLines(options: Pick<ServeOptions, "serverData">, lines: readonly string[]): Promise<string> {
  return appendSecretLines(options.serverData, lines).catch((error: Error) => {
    throw new ServeError(`cannot keep the operator token and invites in ${options.serverData}: ${error.message}`);
  });
}

/**
 * Starts `epicwar serve` (docs/server.md): opens the log (a folder, whose LevelDB lock keeps a second server out; or a
 * PostgreSQL database, which several servers share) and the seats, builds the server (which takes the host's chores
 * left due), listens over HTTP or HTTPS, and gives the operator its token on the first start and one invite line per
 * seat of every campaign that has none issued yet: in the server-data folder's invites file (mode 0600), and through
 * `print` only when `printSecrets` says it is a terminal's.
 */
export async function startServer(options: ServeOptions, print: (line: string) => void): Promise<RunningServer> {
  const tls = options.tls ? await readTls(options.tls) : undefined;
  if (options.secretsKeyFile !== undefined && options.store === undefined)
    throw new ServeError(
      "--secrets-key-file seals the host's secrets in a PostgreSQL database (--store); a LevelDB folder's server keeps them in --secrets",
    );
  const secretsKey = options.secretsKeyFile === undefined ? undefined : await secretsKeyOf(options.secretsKeyFile);
  let engine: Engine;
  try {
    engine = await Engine.open(storeLocation(options), {
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.postgres ? { postgres: options.postgres } : {}),
    });
  } catch (error) {
    if (error instanceof StoreOpenError && /in use|already open/.test(error.message))
      throw new ServeError(
        `${options.db} is in use by another epicwar process (a server already serving it?): one server per folder; stop the other first`,
      );
    throw error;
  }
  let app: FastifyInstance | undefined;
  try {
    // On a database several servers share, the seats are kept in it, so that every server admits every player.
    const { seats, operatorToken } = await SeatStore.open(options.serverData, {
      keepOperatorToken: async (token) => {
        await keepSecretLines(options, [`# ${now(options).toISOString()}`, operatorTokenLine(options, token)]);
      },
      ...(engine.store.seatRows ? { shared: engine.store.seatRows } : {}),
    });
    const webPage = builtWebPage();
    // A campaign made by `epicwar new --computer` in the folder keeps its computer when served.
    const computerFolders = options.store === undefined ? [computerDir(options.db)] : [];
    // Where the server listens, for the invite links: known once it does.
    let listening = (_url: string) => {};
    const listeningAt = new Promise<string>((resolve) => (listening = resolve));
    /** One invite line per seat of a campaign with none issued yet, but the computer's. */
    const inviteLines = async (campaign: string, url: string): Promise<string[]> => {
      if (await seats.seated(campaign)) return [];
      const computer = await computerSeatOf(
        engine.store.computerSeats,
        [computerFolder(options.serverData), ...computerFolders],
        campaign,
      );
      const people = seatsOf(await engine.state(campaign)).filter((seat) => seat !== computer);
      // Another server on the same database may have seated it meanwhile: then it issued the invites.
      const issued = await seats.seatCampaign(campaign, people);
      return Object.entries(issued ?? {}).map(([seat, invite]) => `${campaign} ${seat} ${url}/join#${invite}`);
    };
    app = await buildServer({
      engine,
      seats,
      secrets: options.secrets,
      computerFolders,
      hostChores: options.hostChores ?? true,
      ...(secretsKey ? { secretsKey } : {}),
      ...(options.log ? { log: options.log } : {}),
      ...(webPage ? { webPage } : {}),
      ...(tls ? { tls } : {}),
      ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
      ...(options.limits ? { limits: options.limits } : {}),
      // A campaign made by another process on the same database is seated here as at a start.
      onCampaignFound: async (campaign) => {
        const url = await listeningAt;
        await giveSecrets(options, url, { operatorToken: undefined, invites: await inviteLines(campaign, url) }, print);
      },
    });
    await app.listen({ host: options.host, port: options.port });
    const address = app.server.address();
    const port = typeof address === "object" && address ? address.port : options.port;
    const host = options.host.includes(":") ? `[${options.host}]` : options.host;
    const url = `${tls ? "https" : "http"}://${host}:${port}`;
    print(`Serving ${engine.store.location} at ${url} (request log on stderr; Ctrl-C stops it).`);
    if (!webPage) print("The web page is not built (npm run build builds it): the server answers its API only.");
    const invites: string[] = [];
    for (const campaign of await engine.listCampaigns()) invites.push(...(await inviteLines(campaign, url)));
    await giveSecrets(options, url, { operatorToken, invites }, print);
    listening(url);
    let closing: Promise<void> | undefined;
    const started = app;
    return {
      app: started,
      url,
      location: engine.store.location,
      close: () => (closing ??= started.close().then(() => engine.close())),
    };
  } catch (error) {
    // A server that listened and then failed to start stops listening: left up, it would answer from a closed log.
    await app?.close();
    await engine.close();
    throw error;
  }
}
