/**
 * The instances of a PostgreSQL soak: `epicwar serve` processes on one database, all given one secrets key, each
 * with a folder of its own, killed with SIGKILL and started again on their port as a supervisor would; and the seats'
 * tokens, as an organiser gets them (the operator's invite, redeemed), each good at every instance.
 */
import { join } from "node:path";
import { chaosServer, operatorLines, type ChaosServer } from "../chaos/chaos-server.js";
import { signIn } from "../chaos/seat-tokens.js";

/** What an instance logs when it comes to hold the host's steps' lease, and when it loses it. */
const TAKES_LEASE = "this instance takes the host's steps";
const LOSES_LEASE = "this instance no longer takes the host's steps";

export interface SoakInstance {
  server: ChaosServer;
  url: () => string;
  /** Runs ended by the soak's own SIGKILL (their index): any other run that ended, ended on its own. */
  killed: Set<number>;
}

/** Starts instance `index` of a soak on the database at `store`, its folder under `dir`; resolves once it serves. */
export async function startInstance(
  dir: string,
  index: number,
  store: string,
  secretsKeyFile: string,
): Promise<SoakInstance> {
  const home = join(dir, `instance-${index}`);
  const server = chaosServer(
    join(home, "war"),
    dir,
    { PATH: process.env["PATH"] ?? "", HOME: home, EPICWAR_SECRETS_KEY_FILE: secretsKeyFile },
    ["--store", store, "--sign-ins-per-minute", "100000"],
  );
  await server.start();
  return { server, url: server.url, killed: new Set() };
}

/** The database's operator token, kept by the instance that started on it first. */
export async function operatorToken(first: SoakInstance): Promise<string> {
  for (let polls = 0; polls < 100; polls++) {
    const operator = (await operatorLines(first.server))
      .map((line) => /^Operator token.*: (ewt_[\w-]+)$/.exec(line)?.[1])
      .find(Boolean);
    if (operator !== undefined) return operator;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the first instance kept no operator token: ${first.server.run().err()}`);
}

/** Whether the instance's running process holds the host's steps' lease now, by what it logged last about it. */
export function holdsLease(instance: SoakInstance): boolean {
  const run = instance.server.run();
  if (run.child.exitCode !== null) return false;
  const log = run.err();
  return log.lastIndexOf(TAKES_LEASE) > log.lastIndexOf(LOSES_LEASE);
}

/** How many times any run of the instance took the lease. */
export function leaseTakes(instance: SoakInstance): number {
  return instance.server.runs.reduce((count, run) => count + run.err().split(TAKES_LEASE).length - 1, 0);
}

/** SIGKILL: the run is gone once this resolves. */
export async function kill(instance: SoakInstance): Promise<void> {
  instance.killed.add(instance.server.run().index);
  await instance.server.kill();
}

/** Runs that ended other than by the soak's SIGKILL, with the end of their log. */
export function selfExits(instance: SoakInstance, name: string): string[] {
  return instance.server.runs
    .filter((run) => run.child.exitCode !== null || run.child.signalCode !== null)
    .filter((run) => !instance.killed.has(run.index))
    .map(
      (run) =>
        `${name} run ${run.index} ended (${run.child.exitCode ?? run.child.signalCode}): ${run.err().slice(-1500)}`,
    );
}

/** A token for each seat of each campaign (tokens.get(campaign)[seat]), issued through `instance`. */
export async function seatTokens(
  instance: SoakInstance,
  operator: string,
  seatsOf: ReadonlyMap<string, readonly string[]>,
): Promise<Map<string, Record<string, string>>> {
  const tokens = new Map<string, Record<string, string>>();
  for (const [campaign, seats] of seatsOf) {
    const bySeat: Record<string, string> = {};
    for (const seat of seats) bySeat[seat] = await signIn(instance.url, operator, campaign, seat);
    tokens.set(campaign, bySeat);
  }
  return tokens;
}
