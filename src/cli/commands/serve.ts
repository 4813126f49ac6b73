import { Option, type Command } from "commander";
import { basename, dirname, join } from "node:path";
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
  serverData?: string;
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
  if (!/^(0|[1-9][0-9]{0,4})$/.test(options.port) || Number(options.port) > 65535)
    throw new CliError(`--port must be a port number (0 to 65535; 0 picks a free one), not "${options.port}"`);
  // Listened for from before the start: a signal while it starts stops it as soon as it has.
  const signals = stopSignal();
  let server;
  try {
    server = await startServer(
      {
        db: options.db,
        ...(options.store ? { store: options.store } : {}),
        hostChores: options.hostChores,
        host: options.host,
        port: Number(options.port),
        secrets: options.secrets ?? defaultSecretsDir(options.db),
        serverData: options.serverData ?? join(dirname(options.db), `${basename(options.db)}-server`),
        clock: kit.io.clock,
        log: kit.io.stderr,
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
  program
    .command("serve")
    .description(
      "serve every campaign of the folder over HTTP, for players and an organiser at other machines (docs/server.md)",
    )
    .addOption(kit.dbOption())
    .addOption(
      new Option("--host <address>", "the address to listen on (loopback unless told otherwise)").default("127.0.0.1"),
    )
    .addOption(new Option("--port <n>", "the port to listen on (0: any free one)").default("4100"))
    .addOption(
      new Option(
        "--secrets <dir>",
        "folder of the host's secrets (its dice seeds); default: <db>-secrets beside the database",
      ),
    )
    .addOption(
      new Option(
        "--no-host-chores",
        "leave the host's chores to another server on the same PostgreSQL database (--store), the one with the host's secrets",
      ),
    )
    .addOption(
      new Option(
        "--server-data <dir>",
        "folder of the server's own data (seats.json: hashes of tokens and invites); default: <db>-server beside the database",
      ),
    )
    .addHelpText(
      "after",
      [
        "",
        "On the first start it prints an operator token, once: it creates campaigns (POST /campaigns) and issues invites.",
        "For every campaign with no seats issued yet it prints one line per seat: <campaign> <seat> <url>/join#<invite>.",
        "Each invite is redeemed once (POST /session) for a token that acts as that seat only: a player, or host (the organiser).",
        "Players' orders and seeds stay on their own machines; the server keeps the host's dice seeds and takes the host's steps.",
        "One line per request goes to stderr (no token or cookie is ever written). SIGINT or SIGTERM: the requests in flight",
        "finish, the folder is closed, exit 0. A second server on the same folder refuses to start.",
        "With --store postgres://..., several servers serve one database: each keeps its own seats (--server-data), and",
        "exactly one takes the host's chores; start the others with --no-host-chores (docs/scaling.md).",
      ].join("\n"),
    )
    .action(kit.action((options: ServeCliOptions) => runServe(options, kit)));
}
