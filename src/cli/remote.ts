/**
 * The CLI against a campaign server (docs/remote-play.md): `--server URL` (or $EPICWAR_SERVER) with the seat's token
 * (`--token`, $EPICWAR_TOKEN, or the one `epicwar join` kept). The player's secrets stay in a folder on this machine;
 * the server only ever gets commitments, and orders, salts and seeds when they are revealed.
 */
import { homedir } from "node:os";
import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Command } from "commander";
import { HOST } from "../../events/common.js";
import { RemoteCampaign, type RemoteOutcome } from "../client/remote.js";
import { FileSecrets, replaceDurably } from "../client/secrets.js";
import { FileReceiptBook } from "../client/receipt-file.js";
import { serverBase, ServerConnection } from "../client/server.js";
import type { ReconnectOptions } from "../client/reconnect.js";
import { nodeHttpTransport } from "../client/http-transport.js";
import { verifySignature } from "../crypto/verify-node.js";
import { Table } from "../client/table.js";
import { sha256Hex } from "../log/hash.js";
import type { CampaignView, Viewer } from "../views/view.js";
import { CliError } from "./errors.js";
import type { CliIo } from "./io.js";

/** The commands that play against a server; every other one works on a local database only. */
export const REMOTE_COMMANDS = ["state", "apply", "log", "timeline", "audit", "watch", "demo"] as const;

/**
 * The commands that play against a server only when told so on the command line: `demo` with $EPICWAR_SERVER set is
 * still the local demo, not scripted commanders taking over the player's seat.
 */
const EXPLICIT_ONLY: readonly string[] = ["demo"];

/** The name of the file `epicwar join` keeps a seat's token in, in the campaign's secrets folder (no seat id starts with a dot). */
const TOKEN_FILE = ".token.json";

interface KeptToken {
  server: string;
  campaign: string;
  seat: string;
  token: string;
}

/** How long a client waits for a server out of reach before it gives up, by default: 5 minutes. */
export const DEFAULT_OFFLINE_TIMEOUT_S = 300;

/** Where a server is, the token if one was given on the command line or in the environment, and how to ride out an outage. */
export interface ServerRequest {
  server: string;
  token?: string;
  reconnect: ReconnectOptions;
}

/**
 * Whether this command is to run against a server: `--server`, or $EPICWAR_SERVER unless `--db` is given on the
 * command line (a folder named there is meant). `--server` with `--db` is a contradiction.
 */
export function serverRequested(command: Command, io: CliIo): ServerRequest | undefined {
  const globals = command.optsWithGlobals<{ server?: string; token?: string }>();
  const explicit = command.getOptionValueSourceWithGlobals("server") === "cli";
  const dbGiven = command.options.some((o) => o.long === "--db") && command.getOptionValueSource("db") === "cli";
  const fromEnv = dbGiven || EXPLICIT_ONLY.includes(command.name()) ? undefined : io.env["EPICWAR_SERVER"];
  const server = globals.server ?? fromEnv;
  if (server === undefined || server === "") return undefined;
  if (!(REMOTE_COMMANDS as readonly string[]).includes(command.name())) {
    if (!explicit) return undefined;
    throw new CliError(
      command.name() === "join"
        ? "join takes no --server: the invite link names its server"
        : `${command.name()} works on a local database; against a server only ${REMOTE_COMMANDS.join(", ")} run (docs/remote-play.md)`,
    );
  }
  if (explicit && dbGiven) throw new CliError("give --server (play on a server) or --db (a local database), not both");
  const token = globals.token ?? io.env["EPICWAR_TOKEN"];
  return { server, ...(token ? { token } : {}), reconnect: reconnectOptions(server, command, io) };
}

/**
 * `--offline-timeout SECONDS` (or $EPICWAR_OFFLINE_TIMEOUT, default 300): how long the server may stay out of reach
 * before the command gives up; meanwhile each lost try and the server's return are told on stderr.
 */
function reconnectOptions(server: string, command: Command, io: CliIo): ReconnectOptions {
  const given =
    command.optsWithGlobals<{ offlineTimeout?: string }>().offlineTimeout ?? io.env["EPICWAR_OFFLINE_TIMEOUT"];
  const seconds = given === undefined || given === "" ? DEFAULT_OFFLINE_TIMEOUT_S : Number(given);
  if (!/^([0-9]{1,7})(\.[0-9]+)?$/.test(given ?? "0") || !(seconds > 0))
    throw new CliError(
      `--offline-timeout (or EPICWAR_OFFLINE_TIMEOUT) must be a number of seconds above 0, such as 300, not "${given}"`,
    );
  const base = serverBase(server);
  return {
    offlineTimeoutMs: seconds * 1000,
    onLost: (reason, delayMs) =>
      io.stderr(`epicwar: lost the server at ${base} (${reason}); retrying in ${(delayMs / 1000).toFixed(1)} s\n`),
    onBack: (offlineMs) =>
      io.stderr(`epicwar: back: the server at ${base} answers again, after ${(offlineMs / 1000).toFixed(1)} s\n`),
  };
}

/**
 * The secrets folder for play on a server: --secrets, else one per server under the player's home
 * (`~/.epicwar/servers/<host>_<port>`), so that two servers' campaigns of one id never share a file.
 */
export function remoteSecretsDir(server: string, given: string | undefined, env: CliIo["env"]): string {
  if (given !== undefined) {
    if (given.trim() === "") throw new CliError("--secrets needs a folder name: e.g. --secrets ~/epicwar-secrets");
    return given;
  }
  const url = new URL(serverBase(server));
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return join(env["HOME"] ?? homedir(), ".epicwar", "servers", `${url.hostname}_${port}`);
}

/** Keeps a seat's token in the campaign's secrets folder, readable by its owner only (mode 0600, written durably). */
export async function keepToken(dir: string, kept: KeptToken): Promise<string> {
  const folder = join(dir, kept.campaign);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const path = join(folder, TOKEN_FILE);
  await replaceDurably(folder, path, `${JSON.stringify(kept, null, 2)}\n`);
  return path;
}

/** The tokens `epicwar join` kept in a secrets folder for this server: one per campaign folder. */
async function keptTokens(dir: string, server: string): Promise<KeptToken[]> {
  const campaigns = await readdir(dir).catch(() => [] as string[]);
  const kept: KeptToken[] = [];
  for (const campaign of campaigns) {
    const text = await readFile(join(dir, campaign, TOKEN_FILE), "utf8").catch(() => undefined);
    if (text === undefined) continue;
    const token = JSON.parse(text) as KeptToken;
    if (serverBase(token.server) === serverBase(server)) kept.push(token);
  }
  return kept;
}

export interface RemoteSeatOptions {
  campaign?: string;
  secrets?: string;
  as?: string;
  chores?: boolean;
  branch?: string;
}

/** Where a seat keeps its receipts (docs/signatures.md): beside its secrets, in the campaign's folder. */
export const receiptsPath = (secretsDir: string, campaign: string, seat: string): string =>
  join(secretsDir, campaign, `${seat}.receipts.json`);

/** A seat at a campaign on a server: whose token, which campaign, which secrets folder. */
export class RemoteSeat {
  readonly acting: ReadonlySet<string>;
  readonly handler: RemoteCampaign;

  private constructor(
    readonly server: ServerConnection,
    readonly campaign: string,
    /** The token's seat: a player id, or host for the organiser. */
    readonly seat: string,
    readonly secretsDir: string,
    private readonly chores: boolean,
    branch: string | undefined,
  ) {
    this.acting = new Set([seat]);
    this.handler = new RemoteCampaign(
      server,
      branch,
      false,
      new FileReceiptBook(receiptsPath(secretsDir, campaign, seat)),
      verifySignature,
    );
  }

  /**
   * Connects with the token given, or the one kept for this server by `epicwar join` (of the campaign named, or the
   * only one kept), and finds the token's seat at the campaign (GET /campaigns).
   */
  static async open(request: ServerRequest, options: RemoteSeatOptions, env: CliIo["env"]): Promise<RemoteSeat> {
    const secretsDir = remoteSecretsDir(request.server, options.secrets, env);
    let token = request.token;
    let campaign = options.campaign;
    if (token === undefined) {
      const kept = (await keptTokens(secretsDir, request.server)).filter(
        (t) => campaign === undefined || t.campaign === campaign,
      );
      if (kept.length === 0)
        throw new CliError(
          `no token for ${serverBase(request.server)}${campaign ? ` and campaign ${campaign}` : ""} in ${secretsDir}: redeem your invite with epicwar join LINK, or give --token (or EPICWAR_TOKEN)`,
        );
      if (kept.length > 1)
        throw new CliError(
          `${secretsDir} holds tokens for several campaigns of this server (${kept.map((t) => t.campaign).join(", ")}): choose one with --campaign ID`,
        );
      token = kept[0]!.token;
      campaign = kept[0]!.campaign;
    }
    const server = new ServerConnection(request.server, token, nodeHttpTransport, { reconnect: request.reconnect });
    return RemoteSeat.seated(server, secretsDir, { ...options, ...(campaign === undefined ? {} : { campaign }) });
  }

  /**
   * The token's seat at the campaign (GET /campaigns) on a connection already made, its secrets and receipts kept in
   * `secretsDir`.
   */
  static async seated(server: ServerConnection, secretsDir: string, options: RemoteSeatOptions): Promise<RemoteSeat> {
    const campaign = options.campaign;
    const { campaigns } = await server.read<{ campaigns: Array<{ id: string; seat: string | null }> }>("/campaigns");
    if (campaigns.some((c) => c.seat === null))
      throw new CliError(
        "this is the server's operator token, which plays no seat: redeem a seat's invite (the host's to organise) with epicwar join",
      );
    const seated = campaign === undefined ? campaigns : campaigns.filter((c) => c.id === campaign);
    if (seated.length !== 1) {
      const held = campaigns.map((c) => `${c.id} as ${c.seat}`).join(", ") || "none";
      throw new CliError(
        seated.length === 0
          ? `this token has no seat in campaign ${campaign} on ${server.base} (it has: ${held})`
          : `this token has seats in several campaigns (${held}): choose one with --campaign ID`,
      );
    }
    const { id, seat } = seated[0]! as { id: string; seat: string };
    if (options.as !== undefined && options.as !== seat)
      throw new CliError(
        `this token acts as ${seat} of ${id}, not as "${options.as}": leave out --as, or use its token`,
      );
    return new RemoteSeat(server, id, seat, secretsDir, options.chores ?? true, options.branch);
  }

  /** Whom the server shows things to: the seat itself; the organiser sees the log as stored. */
  get viewer(): Viewer {
    return this.seat === HOST ? undefined : this.seat;
  }

  /**
   * The seat's secrets file. It belongs to one log of the campaign: the folder records the log's first event as this
   * seat sees it (a campaign created again under the same id on the server has another), and refuses another's.
   */
  secrets(): FileSecrets {
    return new FileSecrets(this.secretsDir, this.campaign, async () => {
      const first = (await this.handler.log(this.campaign)).events[0];
      return (
        first && `served:${sha256Hex(JSON.stringify({ campaign: this.campaign, at: first.at, type: first.type }))}`
      );
    });
  }

  async table(named?: string): Promise<Table<CampaignView, RemoteOutcome>> {
    if (named !== undefined && named !== this.campaign)
      throw new CliError(
        `a campaign is created on the server by its operator (POST /campaigns, docs/server.md), not by apply; this token plays ${this.campaign}`,
      );
    return new Table(this.handler, this.campaign, {
      parties: this.acting,
      secrets: this.secrets(),
      // The server keeps the host's dice seeds and takes the host's steps itself: the organiser's client has none;
      // it signs the organiser's commands with the organiser's own key, made here (D2).
      chores: this.chores && this.seat !== HOST,
    });
  }
}
