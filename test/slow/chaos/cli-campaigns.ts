/**
 * Campaigns a chaos soak plays with the CLI: set up in the server's folder before it first starts, then, once it
 * serves them, each player's machine joins and runs `epicwar --server URL demo` and the organiser's runs `watch`, each
 * started once and left to run whatever happens to the server.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { epicwar, epicwarDone, ROOT, type CliProcess, type Machine } from "../cli-process.js";

export const PLAYERS = ["concord", "horde"] as const;
export const SEATS = ["host", ...PLAYERS] as const;

/** Ashfall's set-up under another campaign id (and `options` replaced when given), as a file in `dir`. */
export async function ashfallSetup(dir: string, campaign: string, options?: Record<string, unknown>): Promise<string> {
  const setup = JSON.parse(await readFile(join(ROOT, "examples", "ashfall.setup.json"), "utf8")) as Record<
    string,
    unknown
  >;
  const file = join(dir, `${campaign}.setup.json`);
  const catalogue = join(ROOT, "examples", String(setup["catalogue"]));
  await writeFile(file, JSON.stringify({ ...setup, campaign, catalogue, ...(options && { options }) }));
  return file;
}

/** `epicwar new` of a set-up file into the folder, as the organiser does before serving it. */
export async function createCampaign(db: string, setupFile: string, cwd: string): Promise<void> {
  const created = await epicwarDone(["new", "--db", db, "--setup", setupFile, "--as", "host"], { cwd, home: cwd });
  if (created.code !== 0) throw new Error(`epicwar new ${setupFile}: ${created.stderr}`);
}

export interface CliCampaign {
  campaign: string;
  machines: Record<(typeof SEATS)[number], Machine>;
  players: CliProcess[];
  /** The organiser's `watch --from-seq 0`. */
  watch: CliProcess;
}

/** Each seat's machine joins with its link (through the proxy); then the players' demos and the organiser's watch. */
export async function playWithCli(
  dir: string,
  campaign: string,
  links: Record<string, string>,
  url: string,
): Promise<CliCampaign> {
  const machines = {} as Record<(typeof SEATS)[number], Machine>;
  for (const seat of SEATS) {
    const home = join(dir, `${campaign}-${seat}`);
    await mkdir(home);
    machines[seat] = { cwd: home, home };
    const joined = await epicwarDone(["join", links[seat]!], machines[seat]);
    if (joined.code !== 0) throw new Error(`${campaign} ${seat} could not join: ${joined.stderr}`);
  }
  const players = PLAYERS.map((player) => epicwar(["--server", url, "demo"], machines[player]));
  const watch = epicwar(["--server", url, "watch", "--from-seq", "0"], machines.host);
  return { campaign, machines, players, watch };
}
