import { Option, type Command } from "commander";
import { basename, dirname, join } from "node:path";
import { POSTGRES_DEFAULTS, type PostgresOptions } from "../../log/index.js";
import { DEFAULT_LIMITS, type ServerLimits } from "../../server/limits.js";
import { ServeError, startServer } from "../../server/serve.js";
import { CliError } from "../errors.js";
import { defaultSecretsDir } from "../seat.js";
import type { CliKit } from "./kit.js";

export interface ServeCliOptions {
  db: string;
  store?: string;
  hostChores: boolean;
  host: string;
  port: string;
  secrets?: string;
  secretsKeyFile?: string;
  serverData?: string;
  tlsCert?: string;
  tlsKey?: string;
  trustProxy?: string;
  requestTimeout?: string;
  headersTimeout?: string;
  connectionTimeout?: string;
  keepAliveTimeout?: string;
  maxRequestsPerSocket?: string;
  maxConnections?: string;
  bodyLimit?: string;
  signInsPerMinute?: string;
  pgPoolSize?: string;
  pgConnectTimeout?: string;
  pgStatementTimeout?: string;
}

/** The limits options of `serve`: the option, the limit it sets, its least value, and the unit it is given in. */
const LIMIT_OPTIONS = [
  ["--request-timeout", "requestTimeout", 1, "seconds", "time a whole request may take to arrive"],
  ["--headers-timeout", "headersTimeout", 1, "seconds", "time a request's headers may take to arrive"],
  ["--connection-timeout", "connectionTimeout", 0, "seconds", "time a connection may stay idle (0: no limit)"],
  ["--keep-alive-timeout", "keepAliveTimeout", 1, "seconds", "time a kept-alive connection waits for its next request"],
  [
    "--max-requests-per-socket",
    "maxRequestsPerSocket",
    0,
    "requests",
    "requests one connection may carry (0: no limit)",
  ],
  ["--max-connections", "maxConnections", 1, "connections", "connections open at once; one more is closed"],
  ["--body-limit", "bodyLimit", 1024, "bytes", "the largest request body"],
  ["--sign-ins-per-minute", "signInMax", 1, "sign-ins", "sign-ins (POST /session) one address may try per minute"],
] as const;

/** The PostgreSQL options of `serve` (with --store): the option, the setting, its least value, its unit. */
const POSTGRES_OPTIONS = [
  ["--pg-pool-size", "poolSize", 1, "connections", "connections at most in the pool to PostgreSQL (with --store)"],
  [
    "--pg-connect-timeout",
    "connectTimeoutMs",
    0,
    "seconds",
    "time a connection to PostgreSQL may take to open (0: no limit)",
  ],
  [
    "--pg-statement-timeout",
    "statementTimeoutMs",
    0,
    "seconds",
    "time one PostgreSQL statement may run before it is cancelled (0: no limit)",
  ],
] as const;

/** The environment variable that gives an option when the command line does not: --port -> EPICWAR_PORT. */
export const envOf = (flag: string) => `EPICWAR_${flag.slice(2).toUpperCase().replace(/-/g, "_")}`;

/** A limit as its option gives it: seconds for a time (kept in milliseconds), else the number itself. */
const inOptionUnit = (unit: string, value: number) => (unit === "seconds" ? value / 1000 : value);

/** The option's key in the options commander parses: --max-connections -> maxConnections. */
const optionKey = (flag: string) =>
  flag.slice(2).replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase()) as keyof ServeCliOptions;

/** An option's value, checked: a whole number from `least` on, in its unit (seconds are kept in milliseconds). */
function wholeNumber(flag: string, given: unknown, least: number, unit: string): number {
  if (typeof given !== "string" || !/^[0-9]{1,10}$/.test(given) || Number(given) < least)
    throw new CliError(
      `${flag} (or $${envOf(flag)}) must be a whole number of ${unit}, ${least} or more, not "${String(given)}"`,
    );
  return Number(given) * (unit === "seconds" ? 1000 : 1);
}

/** The limits the options give, each checked: a whole number from its least value on (seconds are kept in ms). */
function limitsOf(options: ServeCliOptions): Partial<ServerLimits> {
  const limits: Partial<ServerLimits> = {};
  for (const [flag, limit, least, unit] of LIMIT_OPTIONS) {
    const given = options[optionKey(flag)];
    if (given !== undefined) limits[limit] = wholeNumber(flag, given, least, unit);
  }
  const headers = limits.headersTimeout ?? DEFAULT_LIMITS.headersTimeout;
  const request = limits.requestTimeout ?? DEFAULT_LIMITS.requestTimeout;
  if (headers > request)
    throw new CliError(
      `--headers-timeout (${headers / 1000} s) must not be longer than --request-timeout (${request / 1000} s), which the headers are part of`,
    );
  return limits;
}

/** The PostgreSQL pool's size and timeouts the options give, each checked. */
function postgresOf(options: ServeCliOptions): Partial<PostgresOptions> {
  const postgres: Partial<PostgresOptions> = {};
  for (const [flag, setting, least, unit] of POSTGRES_OPTIONS) {
    const given = options[optionKey(flag)];
    if (given !== undefined) postgres[setting] = wholeNumber(flag, given, least, unit);
  }
  return postgres;
}

/** The signals that stop a server cleanly. */
const STOP_SIGNALS = ["SIGINT", "SIGTERM"] as const;

/** The first SIGINT or SIGTERM from now on (`stopped`); `cancel` stops listening for them. */
function stopSignal(): { stopped: Promise<string>; cancel: () => void } {
  let stop = (_signal: string) => {};
  const cancel = () => STOP_SIGNALS.forEach((name) => process.off(name, stop));
  const stopped = new Promise<string>((resolve) => {
    stop = (signal: string) => {
      cancel();
      resolve(signal);
    };
  });
  STOP_SIGNALS.forEach((name) => process.on(name, stop));
  return { stopped, cancel };
}

/** `epicwar serve`: serves the folder's campaigns over HTTP until SIGINT or SIGTERM, then closes cleanly. */
export async function runServe(options: ServeCliOptions, kit: Pick<CliKit, "print" | "io">): Promise<void> {
  const noHostChores = kit.io.env[envOf("--no-host-chores")];
  if (noHostChores !== undefined && noHostChores !== "" && !/^(0|1|true|false)$/i.test(noHostChores))
    throw new CliError(
      `$${envOf("--no-host-chores")} must be 1 or true (no host's chores), 0 or false, not "${noHostChores}"`,
    );
  if (!/^(0|[1-9][0-9]{0,4})$/.test(options.port) || Number(options.port) > 65535)
    throw new CliError(
      `--port (or $EPICWAR_PORT) must be a port number (0 to 65535; 0 picks a free one), not "${options.port}"`,
    );
  if ((options.tlsCert === undefined) !== (options.tlsKey === undefined))
    throw new CliError("--tls-cert and --tls-key go together: the certificate and its private key, both PEM files");
  const limits = limitsOf(options);
  const postgres = postgresOf(options);
  // Listened for from before the start: a signal while it starts stops it as soon as it has.
  const signals = stopSignal();
  let server;
  try {
    server = await startServer(
      {
        db: options.db,
        ...(options.store ? { store: options.store } : {}),
        hostChores: options.hostChores,
        ...(options.secretsKeyFile ? { secretsKeyFile: options.secretsKeyFile } : {}),
        postgres,
        host: options.host,
        port: Number(options.port),
        secrets: options.secrets ?? defaultSecretsDir(options.db),
        serverData: options.serverData ?? join(dirname(options.db), `${basename(options.db)}-server`),
        clock: kit.io.clock,
        log: kit.io.stderr,
        ...(options.tlsCert && options.tlsKey ? { tls: { cert: options.tlsCert, key: options.tlsKey } } : {}),
        ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
        limits,
        printSecrets: kit.io.stdoutIsTerminal === true,
      },
      kit.print,
    );
  } catch (error) {
    signals.cancel();
    if (error instanceof ServeError) throw new CliError(error.message);
    throw error;
  }
  const signal = await signals.stopped;
  kit.print(`${signal}: finishing the requests in flight, then closing ${server.location}.`);
  await server.close();
  kit.print("Closed.");
}

/** Registers `serve`: the campaign server. */
export function registerServe(program: Command, kit: CliKit): void {
  // Every option but --db and --store (which have their own variables) may be given by the environment instead.
  const fromEnv = (option: Option): Option => {
    const name = envOf(option.long!);
    option.description += ` [$${name}]`;
    const value = kit.io.env[name];
    if (value === undefined || value === "") return option;
    // --no-host-chores: set by 1 or true; anything else is checked when the command runs (runServe).
    if (option.negate) return /^(1|true)$/i.test(value) ? option.default(false) : option;
    return option.default(value);
  };
  const command = program
    .command("serve")
    .description(
      "serve every campaign of the folder over HTTP, for players and an organiser at other machines (docs/server.md)",
    )
    .addOption(kit.dbOption())
    .addOption(
      fromEnv(
        new Option("--host <address>", "the address to listen on (loopback unless told otherwise)").default(
          "127.0.0.1",
        ),
      ),
    )
    .addOption(fromEnv(new Option("--port <n>", "the port to listen on (0: any free one)").default("4100")))
    .addOption(
      fromEnv(
        new Option(
          "--secrets <dir>",
          "folder of the host's secrets (its dice seeds); default: <db>-secrets beside the database",
        ),
      ),
    )
    .addOption(
      fromEnv(
        new Option(
          "--secrets-key-file <file>",
          "with --store: keep the host's secrets in the database, sealed with the key in this file (32 bytes, hex), which every instance is given and the database never is; any instance then takes the host's steps",
        ),
      ),
    )
    .addOption(
      fromEnv(
        new Option(
          "--no-host-chores",
          "leave the host's chores to another server on the same PostgreSQL database (--store), the one with the host's secrets",
        ),
      ),
    )
    .addOption(
      fromEnv(
        new Option(
          "--server-data <dir>",
          "folder of the server's own data (seats.json: hashes of tokens and invites); default: <db>-server beside the database",
        ),
      ),
    )
    .addOption(fromEnv(new Option("--tls-cert <file>", "serve HTTPS with this certificate (PEM, with its chain)")))
    .addOption(fromEnv(new Option("--tls-key <file>", "the certificate's private key (PEM)")))
    .addOption(
      fromEnv(
        new Option(
          "--trust-proxy <addresses>",
          "reverse proxies to trust for X-Forwarded-For and X-Forwarded-Proto: addresses or CIDRs, comma-separated, or loopback",
        ),
      ),
    )
    .addHelpText(
      "after",
      [
        "",
        "On the first start it makes an operator token: it creates campaigns (POST /campaigns) and issues invites.",
        "For every campaign with no seats issued yet it issues one invite per seat: <campaign> <seat> <url>/join#<invite>.",
        "Both go to <server-data>/invites.txt (mode 0600), and to stdout only when stdout is a terminal.",
        "Each invite is redeemed once (POST /session) for a token that acts as that seat only: a player, or host (the organiser).",
        "Players' orders and seeds stay on their own machines; the server keeps the host's dice seeds and takes the host's steps.",
        "One line per request goes to stderr (no token or cookie is ever written). SIGINT or SIGTERM: the requests in flight",
        "finish, the folder is closed, exit 0. A second server on the same folder refuses to start.",
        "With --store postgres://..., several servers serve one database: each keeps its own seats (--server-data). The",
        "host's steps are taken by the one holding their lease; give every instance the same --secrets-key-file so that",
        "any of them can, or else start all but the one with the host's secrets with --no-host-chores (docs/scaling.md).",
      ].join("\n"),
    )
    .action(kit.action((options: ServeCliOptions) => runServe(options, kit)));
  for (const [flag, limit, , unit, description] of LIMIT_OPTIONS)
    command.addOption(
      fromEnv(
        new Option(`${flag} <${unit === "seconds" || unit === "bytes" ? unit : "n"}>`, description).default(
          String(inOptionUnit(unit, DEFAULT_LIMITS[limit])),
        ),
      ),
    );
  for (const [flag, setting, , unit, description] of POSTGRES_OPTIONS)
    command.addOption(
      fromEnv(
        new Option(`${flag} <${unit === "seconds" ? unit : "n"}>`, description).default(
          String(inOptionUnit(unit, POSTGRES_DEFAULTS[setting])),
        ),
      ),
    );
}
