/**
 * The Ashfall demo played by the demo's scripted commanders, either through a campaign server (docs/server.md) or
 * straight to an in-process Engine, for the load test (`npm run load`) and the server's figures of the bench.
 *
 * Each player's machine is a Table (src/client/table.ts) with its own secrets: it prepares its player's commands
 * (commitments, reveals, seeds), gives them, and takes its player's chores. Through a server its Table submits to a
 * RemoteCampaign (the players' client) with the player's token, and the server takes the host's steps after each
 * command; in-process it submits to the Engine, and a host Table takes the host's steps after each command. The
 * commanders decide for both sides from the campaign as stored: through a server, as the organiser reads it.
 */
import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { HOST } from "../events/common.js";
import type { CampaignState } from "../projections/state.js";
import { sequenceRandomHex } from "../src/client/prepare.js";
import { RemoteCampaign } from "../src/client/remote.js";
import { ServerConnection } from "../src/client/server.js";
import { nodeHttpTransport } from "../src/client/http-transport.js";
import { verifySignature } from "../src/crypto/verify-node.js";
import { MemorySecrets, secretsOfLog } from "../src/client/secrets.js";
import { Table, takeChoresInTurn } from "../src/client/table.js";
import { examplePath } from "../src/setup/package-files.js";
import { nextDecision } from "../src/demo/play.js";
import type { Answer, CommandHandler, Engine } from "../src/engine/engine.js";
import { describeRefusal } from "../src/rules/refusal.js";
import { setupCommands } from "../src/setup/setup-file.js";
import { loadSetupFile } from "../src/setup/setup-loader.js";
import type { CampaignView } from "../src/views/view.js";
import { waitingFor } from "../src/words/waiting.js";

/** A campaign the scripted commanders have not won by then is left, and a new one begun. */
const MAX_TURNS = 30;

export const PLAYERS = ["concord", "horde"] as const;

const MAIN = fileURLToPath(new URL("../src/cli/main.js", import.meta.url));

/**
 * Starts `epicwar serve --port 0` on the folder (its log in the PostgreSQL database `store` if given): its address,
 * operator token (read from its first lines) and process id. Its request log (one line per request, on stderr) goes
 * to a file beside the folder, as a server's log goes to a file or the journal in use: read by this process instead,
 * it took the measuring process's time in the middle of commands.
 */
export async function startServe(db: string, store?: string) {
  const log = openSync(`${db}.log`, "a");
  // Every player and viewer signs in from this one address: the sign-in limit is for addresses of many people.
  const args = ["serve", "--db", db, "--port", "0", "--sign-ins-per-minute", "1000000"];
  if (store !== undefined) args.push("--store", store);
  const child = spawn(process.execPath, [MAIN, ...args], {
    stdio: ["ignore", "pipe", log],
  });
  closeSync(log);
  const lines = createInterface({ input: child.stdout! });
  let url: string | undefined;
  let kept: string | undefined;
  for await (const line of lines) {
    url ??= / at (http:\/\/\S+) /.exec(line)?.[1];
    // The operator token is not printed to a pipe: the server says which file keeps it.
    kept ??= /^Kept in (.+), readable by you only/.exec(line)?.[1];
    if (url && kept) break;
  }
  const operator = kept && /^Operator token .*: (ewt_\S+)$/m.exec(readFileSync(kept, "utf8"))?.[1];
  if (!url || !operator) throw new Error("epicwar serve stopped before saying where it listens and keeps its token");
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return {
    address: { url, operator } satisfies ServerAddress,
    /** The server's process id: processCpuMs(pid) reads its CPU time. */
    pid: child.pid!,
    stop: async () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

/** A server to play on: its address and the operator token that creates campaigns. */
export interface ServerAddress {
  url: string;
  operator: string;
}

export interface HttpAnswer {
  status: number;
  body: unknown;
}

/** One request with a bearer token; the body as JSON both ways. */
export async function request(
  server: ServerAddress,
  method: "GET" | "POST",
  path: string,
  token: string,
  body?: unknown,
): Promise<HttpAnswer> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === "" ? undefined : (JSON.parse(text) as unknown) };
}

async function expectStatus(answer: Promise<HttpAnswer>, status: number, what: string): Promise<unknown> {
  const { status: got, body } = await answer;
  if (got !== status) throw new Error(`${what}: ${got} ${JSON.stringify(body)}`);
  return body;
}

/** Ashfall's set-up as POST /campaigns takes it (its catalogue in it), under another campaign id. */
export async function ashfallSetup(campaign: string) {
  return { ...(await loadSetupFile(examplePath("ashfall.setup.json"))), campaign };
}

/** Redeems an invite for a token. */
async function redeem(server: ServerAddress, invite: string): Promise<string> {
  const response = await fetch(`${server.url}/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ invite }),
  });
  if (response.status !== 200) throw new Error(`POST /session: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/** Creates Ashfall on the server as `campaign` (the host's first steps taken); each seat's token: host and players. */
export async function createServedCampaign(server: ServerAddress, campaign: string): Promise<Record<string, string>> {
  const created = (await expectStatus(
    request(server, "POST", "/campaigns", server.operator, await ashfallSetup(campaign)),
    201,
    "POST /campaigns",
  )) as { invites: Record<string, string> };
  const tokens: Record<string, string> = {};
  for (const [seat, invite] of Object.entries(created.invites)) tokens[seat] = await redeem(server, invite);
  return tokens;
}

/** A token for each of `seats` (a seat may come many times: one token each), invited by the campaign's organiser. */
export async function seatTokens(
  server: ServerAddress,
  campaign: string,
  organiser: string,
  seats: readonly string[],
): Promise<string[]> {
  return Promise.all(
    seats.map(async (seat) => {
      const { invite } = (await expectStatus(
        request(server, "POST", `/campaigns/${campaign}/invites`, organiser, { seat }),
        201,
        "POST /invites",
      )) as { invite: string };
      return redeem(server, invite);
    }),
  );
}

/** What the players' machines counted: each command given and how long the giving took. */
export interface PlayTally {
  commands: number;
  /** Milliseconds from giving each command to its answer. */
  latencies: number[];
}

export const newTally = (): PlayTally => ({ commands: 0, latencies: [] });

/** A command handler whose every command is counted and timed, from giving it to its answer. */
function timed<S extends CampaignView, O extends Answer<unknown>>(
  handler: CommandHandler<S, O>,
  tally: PlayTally,
): CommandHandler<S, O> {
  return {
    state: (campaign) => handler.state(campaign),
    execute: async (campaign, inputs) => {
      const start = performance.now();
      const outcome = await handler.execute(campaign, inputs);
      tally.latencies.push(performance.now() - start);
      tally.commands += inputs.length;
      return outcome;
    },
  };
}

/** A player's machine at a campaign: its Table, with its own secrets. */
interface Seat {
  takeChores(onEvents: () => void): Promise<unknown>;
  submit(input: unknown): Promise<Answer<unknown>>;
}

/** Where a campaign is played: the campaign as the scripted commanders read it, and each player's machine. */
export interface PlaySide {
  /** The campaign as stored: the commanders decide for both sides. */
  state(): Promise<CampaignState>;
  seats: ReadonlyMap<string, Seat>;
}

const playerTable = <S extends CampaignView, O extends Answer<unknown>>(
  handler: CommandHandler<S, O>,
  campaign: string,
  player: string,
) =>
  new Table(handler, campaign, {
    parties: new Set([player]),
    secrets: new MemorySecrets(),
    random: sequenceRandomHex(`load-${campaign}-${player}`),
  });

/**
 * A campaign on a server, each player's machine a Table over a RemoteCampaign with its player's token (the players'
 * client of src/client/remote.ts, checking receipts with node:crypto as the CLI does), the campaign read for the
 * commanders with the organiser's token.
 */
export function servedSide(
  server: ServerAddress,
  campaign: string,
  tokens: Record<string, string>,
  tally: PlayTally,
): PlaySide {
  return {
    state: async () =>
      (
        (await expectStatus(
          request(server, "GET", `/campaigns/${campaign}/state`, tokens[HOST]!),
          200,
          "GET /state",
        )) as { state: CampaignState }
      ).state,
    seats: new Map(
      PLAYERS.map((player) => [
        player,
        playerTable(
          timed(
            new RemoteCampaign(
              new ServerConnection(server.url, tokens[player]!, nodeHttpTransport),
              undefined,
              false,
              undefined,
              verifySignature,
            ),
            tally,
          ),
          campaign,
          player,
        ),
      ]),
    ),
  };
}

/**
 * Creates Ashfall as `campaign` in the engine, each player's machine a Table on it, and the host's steps taken after
 * each command before it is answered, as the server takes them: with the host's dice seeds kept in a secrets file in
 * `hostSecrets`, flushed to disk before each commitment, as the server and the local CLI keep them.
 */
export async function engineSide(
  engine: Engine,
  campaign: string,
  tally: PlayTally,
  hostSecrets: string,
): Promise<PlaySide> {
  const created = await engine.create(setupCommands(await ashfallSetup(campaign)).map((step) => step.command));
  if (!created.ok) throw new Error(`set-up refused: ${describeRefusal(created.refusal)}`);
  const secrets = secretsOfLog(hostSecrets, campaign, engine.store);
  const host = new Table(engine, campaign, { parties: new Set([HOST]), secrets });
  await host.takeChores();
  const withHostSteps: CommandHandler = {
    state: (line) => engine.state(line),
    execute: async (line, inputs) => {
      const outcome = await engine.execute(line, inputs);
      if (outcome.ok) await host.takeChores();
      return outcome;
    },
  };
  return {
    state: () => engine.state(campaign),
    seats: new Map(PLAYERS.map((player) => [player, playerTable(timed(withHostSteps, tally), campaign, player)])),
  };
}

/**
 * Plays the campaign until it is finished (or has passed MAX_TURNS turns), or until `stop()` says so before a step:
 * whether it ended. Each step, the players' machines take their chores, then the commanders' next decision is given.
 */
export async function playCampaign(side: PlaySide, stop: () => boolean = () => false) {
  for (;;) {
    if (stop()) return { ended: false };
    // One player's chore can make the other's due (a turn's end calls for both seeds): until neither has any.
    await takeChoresInTurn(side.seats.values());
    const state = await side.state();
    if (state.status === "finished" || state.turn > MAX_TURNS) return { ended: true };
    const decision = nextDecision(state);
    if (!decision) throw new Error(`the scripted commanders are stuck: the campaign waits for ${waitingFor(state)}`);
    const outcome = await side.seats.get(decision.actor)!.submit(decision);
    if (!outcome.ok)
      throw new Error(`${decision.actor}'s ${decision.type} was refused: ${describeRefusal(outcome.refusal)}`);
  }
}

/** The q-quantile of some values (nearest rank). */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}
