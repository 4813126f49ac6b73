/** The built CLI (dist/, which `npm run test:slow` builds first) run as a process of its own, its output seen as it comes. */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { campaignResult } from "../../src/demo/play.js";
import type { CampaignView } from "../../src/views/view.js";
import { loadSetupFile } from "../../src/setup/setup-loader.js";
import { within } from "../support/within.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIN = fileURLToPath(new URL("../../dist/src/cli/main.js", import.meta.url));

export interface CliProcess {
  child: ChildProcess;
  /** The lines printed on stdout so far. */
  out: string[];
  /** What was written to stderr so far. */
  err: () => string;
  /** Resolves with the first line printed (or already printed) that matches; rejects if the process ends first. */
  line: (pattern: RegExp) => Promise<string>;
  /** The exit code once the process ends (null when a signal ended it). */
  exited: Promise<number | null>;
  /** Asks it to stop as Ctrl-C would, and waits until it has. */
  stop: () => Promise<number | null>;
}

/** Where a machine runs the CLI: its folder, its home (where a secrets folder is by default) and more of its environment. */
export interface Machine {
  cwd: string;
  home: string;
  env?: Record<string, string>;
}

/** Runs `epicwar ARGS` on a machine: each seat's has a home (and a secrets folder) of its own. */
export function epicwar(args: string[], machine: Machine): CliProcess {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: machine.cwd,
    env: { PATH: process.env["PATH"] ?? "", HOME: machine.home, ...machine.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const out: string[] = [];
  let err = "";
  let partial = "";
  const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void; reject: (error: Error) => void }> = [];
  let ended = false;
  child.stdout!.setEncoding("utf8");
  child.stderr!.setEncoding("utf8");
  child.stdout!.on("data", (chunk: string) => {
    const lines = (partial + chunk).split("\n");
    partial = lines.pop()!;
    for (const line of lines) {
      out.push(line);
      for (const waiter of waiters.filter((w) => w.pattern.test(line))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  child.stderr!.on("data", (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      ended = true;
      for (const waiter of waiters.splice(0))
        waiter.reject(new Error(`epicwar ${args[0]} ended (${code}) before printing ${waiter.pattern}: ${err}`));
      resolve(code);
    });
  });
  const line = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const printed = out.find((l) => pattern.test(l));
      if (printed !== undefined) resolve(printed);
      else if (ended) reject(new Error(`epicwar ${args[0]} ended before printing ${pattern}: ${err}`));
      else waiters.push({ pattern, resolve, reject });
    });
  const stop = () => {
    if (!ended) child.kill("SIGINT");
    return exited;
  };
  return { child, out, err: () => err, line, exited, stop };
}

/** Runs `epicwar ARGS` to its end: its exit code and output. */
export async function epicwarDone(
  args: string[],
  machine: Machine,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = epicwar(args, machine);
  const code = await run.exited;
  return { code, stdout: run.out.map((l) => `${l}\n`).join(""), stderr: run.err() };
}

/**
 * A line `epicwar serve` keeps in its invites file (the operator token, `<campaign> <seat> <link>`), the last one that
 * starts with `start`: the file is found through the line that names it, since on a pipe the server prints none of
 * them. `cwd` is the server's, which a relative path starts from.
 */
export async function keptLine(serve: CliProcess, cwd: string, start: string): Promise<string> {
  const file = /^Kept in (.+), readable by you only/.exec(await serve.line(/^Kept in /))![1]!;
  const found = (await readFile(resolve(cwd, file), "utf8"))
    .split("\n")
    .filter((line) => line.startsWith(start))
    .at(-1);
  if (found === undefined) throw new Error(`no line starting "${start}" in ${file}`);
  return found;
}

/**
 * The campaign on the server at `url` as the organiser's machine reads it at its end: finished, with the result each
 * player's demo commanders printed last.
 */
export async function finishedCampaign(url: string, organiser: Machine, players: CliProcess[]): Promise<CampaignView> {
  const state = await epicwarDone(["--server", url, "state", "--json"], organiser);
  expect(state.code, state.stderr).toBe(0);
  const final = JSON.parse(state.stdout) as CampaignView;
  expect(final.status).toBe("finished");
  for (const player of players) expect(player.out.at(-1)).toBe(campaignResult(final));
  return final;
}

/** The URL an `epicwar serve` process says it serves at. */
export async function servedAt(serve: CliProcess): Promise<string> {
  return /^Serving .* at (http:\/\/127\.0\.0\.1:\d+) /.exec(await serve.line(/^Serving /))![1]!;
}

/**
 * Ashfall made on a PostgreSQL database (`epicwar new --as host` on A's machine) and two instances serving it: A holds
 * the host's secrets and takes its chores; B serves the same database (`--no-host-chores`), and the seats in it.
 */
export async function twoInstances(
  store: string,
  serverA: Machine,
  serverB: Machine,
): Promise<[CliProcess, CliProcess]> {
  const setup = resolve(ROOT, "examples", "ashfall.setup.json");
  const created = await epicwarDone(
    ["new", "--store", store, "--db", "war", "--setup", setup, "--as", "host"],
    serverA,
  );
  expect(created.code, created.stderr).toBe(0);
  return [
    epicwar(["serve", "--store", store, "--db", "war", "--port", "0"], serverA),
    epicwar(["serve", "--store", store, "--db", "war", "--port", "0", "--no-host-chores"], serverB),
  ];
}

/** What an instance logs when it comes to hold the host's steps' lease. */
export const TAKES_HOST_STEPS = /takes the host's steps/;

/**
 * Two instances alike on a PostgreSQL database (docs/scaling.md, "Every instance is alike"), each on a machine of its
 * own in `dir` given one secrets key: A started first, so that it holds the host's steps' lease; then B, which waits
 * for it. `at` gives every machine (the instances' and the players', `machines`) with that key.
 */
export async function alikeInstances(store: string, dir: string, machines: readonly string[]) {
  const at = (machine: string): Machine => ({
    cwd: join(dir, machine),
    home: join(dir, machine),
    env: { EPICWAR_SECRETS_KEY_FILE: join(dir, "secrets.key") },
  });
  for (const name of ["serverA", "serverB", ...machines]) await mkdir(join(dir, name));
  await writeFile(join(dir, "secrets.key"), `${randomBytes(32).toString("hex")}\n`, { mode: 0o600 });
  const serve = (machine: string) => epicwar(["serve", "--store", store, "--db", "war", "--port", "0"], at(machine));
  const serveA = serve("serverA");
  const urlA = await servedAt(serveA).catch(async (error: unknown) => {
    await serveA.stop();
    throw error;
  });
  await within(30, "A takes the host's steps", () => TAKES_HOST_STEPS.test(serveA.err()));
  const serveB = serve("serverB");
  const urlB = await servedAt(serveB).catch(async (error: unknown) => {
    await Promise.all([serveA.stop(), serveB.stop()]);
    throw error;
  });
  const operator = (await keptLine(serveA, at("serverA").cwd, "Operator token")).split(": ")[1]!;
  return { at, serveA, urlA, serveB, urlB, operator };
}

/** Ashfall made through the instance at `url` by its operator, with `extra` in the body (a computer seat): its invites. */
export async function createAshfall(
  url: string,
  operator: string,
  extra: Record<string, unknown> = {},
): Promise<Record<string, string>> {
  const created = await fetch(`${url}/campaigns`, {
    method: "POST",
    headers: { authorization: `Bearer ${operator}`, "content-type": "application/json" },
    body: JSON.stringify({ ...(await loadSetupFile(resolve(ROOT, "examples", "ashfall.setup.json"))), ...extra }),
  });
  expect(created.status, await created.clone().text()).toBe(201);
  return ((await created.json()) as { invites: Record<string, string> }).invites;
}

/**
 * The operator token of the servers sharing a database: kept in the invites file of the one that started first (its
 * server-data folder `war-server` in its folder), the others making none.
 */
export async function operatorTokenOf(serverCwds: readonly string[]): Promise<string> {
  for (const cwd of serverCwds) {
    const kept = await readFile(resolve(cwd, "war-server", "invites.txt"), "utf8").catch(() => "");
    const token = /^Operator token .*: (ewt_\S+)$/m.exec(kept)?.[1];
    if (token) return token;
  }
  throw new Error(`no operator token in the invites file of any of ${serverCwds.join(", ")}`);
}

/** A new invite link of a seat, issued by the operator through the server at `url` (good at every server). */
export async function inviteLinkAt(
  url: string,
  operatorToken: string,
  campaign: string,
  seat: string,
): Promise<string> {
  const issued = await fetch(`${url}/campaigns/${campaign}/invites`, {
    method: "POST",
    headers: { authorization: `Bearer ${operatorToken}`, "content-type": "application/json" },
    body: JSON.stringify({ seat }),
  });
  expect(issued.status, await issued.clone().text()).toBe(201);
  return `${url}/join#${((await issued.json()) as { invite: string }).invite}`;
}

export { BIN, ROOT };
