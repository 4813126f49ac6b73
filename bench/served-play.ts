/**
 * The Ashfall demo played by the demo's scripted commanders, either through a campaign server (docs/server.md) or
 * straight to an in-process Engine, for the load test (`npm run load`) and the server's figures of the bench.
 *
 * Each step reads the campaign, lets each player's machine take its chores (seeds, reveals), else asks the scripted
 * commanders for the next decision, prepares the command on the machine of the player who gives it (its secrets, its
 * commitment: src/client/prepare.ts) and gives it. Through a server the campaign is read as the organiser sees it (the
 * log as stored: the scripted commanders decide for both sides) and each command is posted with its player's token;
 * the server takes the host's steps after it. In-process, the Engine decides it and a host Table takes the host's
 * steps, as the server does.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { HOST } from "../events/common.js";
import type { CampaignState } from "../projections/state.js";
import { dueChores } from "../src/client/chores.js";
import { prepareCommand, sequenceRandomHex, type RandomHex } from "../src/client/prepare.js";
import { MemorySecrets } from "../src/client/secrets.js";
import { Table } from "../src/client/table.js";
import { examplePath } from "../src/cli/paths.js";
import { nextDecision } from "../src/demo/play.js";
import type { Engine } from "../src/engine.js";
import { describeRefusal } from "../src/rules/refusal.js";
import { setupCommands } from "../src/setup-file.js";
import { loadSetupFile } from "../src/setup-loader.js";
import { waitingFor } from "../src/words/waiting.js";

/** A campaign the scripted commanders have not won by then is left, and a new one begun. */
const MAX_TURNS = 30;

export const PLAYERS = ["concord", "horde"] as const;

const MAIN = fileURLToPath(new URL("../src/cli/main.js", import.meta.url));

/** Starts `epicwar serve --port 0` on the folder: its address and operator token, read from its first lines. */
export async function startServe(db: string) {
  const child = spawn(process.execPath, [MAIN, "serve", "--db", db, "--port", "0"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  // The request log (one line per request) is read and dropped: the server writes it as it would in use.
  child.stderr.resume();
  const lines = createInterface({ input: child.stdout });
  let url: string | undefined;
  let operator: string | undefined;
  for await (const line of lines) {
    url ??= / at (http:\/\/\S+) /.exec(line)?.[1];
    operator ??= /^Operator token .*: (ewt_\S+)$/.exec(line)?.[1];
    if (url && operator) break;
  }
  if (!url || !operator) throw new Error("epicwar serve stopped before saying where it listens");
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return {
    address: { url, operator } satisfies ServerAddress,
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

export interface Answer {
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
): Promise<Answer> {
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

async function expectStatus(answer: Promise<Answer>, status: number, what: string): Promise<unknown> {
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

/** Where a campaign is played: how it is read and how a player's prepared command is given. */
export interface PlaySide {
  state(): Promise<CampaignState>;
  /** Gives one prepared command of `actor`'s at the seq it was prepared at; throws if it is not accepted. */
  give(actor: string, command: unknown, expectedSeq: number): Promise<void>;
}

/** A campaign on a server: read with the organiser's token, each command posted with its player's. */
export function servedSide(server: ServerAddress, campaign: string, tokens: Record<string, string>): PlaySide {
  return {
    state: async () =>
      (
        (await expectStatus(
          request(server, "GET", `/campaigns/${campaign}/state`, tokens[HOST]!),
          200,
          "GET /state",
        )) as { state: CampaignState }
      ).state,
    give: async (actor, command, expectedSeq) => {
      await expectStatus(
        request(server, "POST", `/campaigns/${campaign}/commands`, tokens[actor]!, {
          expectedSeq,
          commands: [command],
        }),
        200,
        `${actor}'s ${(command as { type: string }).type}`,
      );
    },
  };
}

/** Creates Ashfall as `campaign` in the engine, its host's first steps taken as a server takes them. */
export async function createEngineCampaign(engine: Engine, campaign: string): Promise<PlaySide> {
  const created = await engine.create(setupCommands(await ashfallSetup(campaign)).map((step) => step.command));
  if (!created.ok) throw new Error(`set-up refused: ${describeRefusal(created.refusal)}`);
  const host = new Table(engine, campaign, { parties: new Set([HOST]), secrets: new MemorySecrets() });
  await host.takeChores();
  return {
    state: () => engine.state(campaign),
    give: async (actor, command) => {
      const outcome = await engine.execute(campaign, [command]);
      if (!outcome.ok) throw new Error(`${actor}'s command: ${describeRefusal(outcome.refusal)}`);
      await host.takeChores();
    },
  };
}

/** What the players' machines counted: each command given and how long the giving took. */
export interface PlayTally {
  commands: number;
  /** Milliseconds from giving each command to its answer. */
  latencies: number[];
}

export const newTally = (): PlayTally => ({ commands: 0, latencies: [] });

/**
 * Plays the campaign until it is finished (or has passed MAX_TURNS turns), or until `stop()` says so before a step:
 * whether it ended. Each player's machine keeps its own secrets.
 */
export async function playCampaign(side: PlaySide, tally: PlayTally, stop: () => boolean = () => false) {
  const machines = new Map(
    PLAYERS.map((player) => [
      player,
      { secrets: new MemorySecrets(), random: sequenceRandomHex(`load-${player}`) as RandomHex },
    ]),
  );
  for (;;) {
    if (stop()) return { ended: false };
    const state = await side.state();
    if (state.status === "finished" || state.turn > MAX_TURNS) return { ended: true };
    const input = dueChores(state, new Set(PLAYERS))[0] ?? nextDecision(state);
    if (!input) throw new Error(`the scripted commanders are stuck: the campaign waits for ${waitingFor(state)}`);
    const machine = machines.get(input.actor as (typeof PLAYERS)[number])!;
    const prepared = await prepareCommand(state, input, machine.secrets, machine.random);
    await prepared.keep();
    const start = performance.now();
    await side.give(input.actor as string, prepared.command, state.seq);
    tally.latencies.push(performance.now() - start);
    tally.commands++;
  }
}

/** The q-quantile of some values (nearest rank). */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}
