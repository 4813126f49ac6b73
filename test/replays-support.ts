/**
 * Shared by the replay, snapshot and branch tests: realistic campaigns played by the demo's scripted commanders on a
 * real LevelDB in temp folders, copies of a played folder, raw access to the folder, and running the CLI in this process.
 */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Level } from "level";
import type { StoredEvent } from "../events/index.js";
import { toCurrent } from "../events/index.js";
import { evolveAll } from "../projections/campaign.js";
import { initialState, type CampaignState } from "../projections/state.js";
import { sequenceRandomHex } from "../src/client/prepare.js";
import { FileSecrets } from "../src/client/secrets.js";
import { Table } from "../src/client/table.js";
import { playCampaign } from "../src/demo/play.js";
import { Engine } from "../src/engine/engine.js";
import { setupCommands } from "../src/setup/setup-file.js";
import { loadSetupFile } from "../src/setup/setup-loader.js";
import { afterAll, afterEach, beforeAll } from "vitest";
import { Replays } from "../replays/replayer.js";
import { runInProcess, type Run } from "./support/cli.js";
import { tempDir } from "./support/tmp.js";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const ASHFALL = join(ROOT, "examples", "ashfall.setup.json");
export const CAMPAIGN = "ashfall";
export const CLOCK = () => new Date("2026-03-01T12:00:00.000Z");

/** The secrets folder the CLI uses for a database folder "<dir>/db": "<dir>/db-secrets". */
export const secretsDirOf = (db: string) => `${db}-secrets`;

/** A table at a stream (campaign or branch) of an open engine, acting for every party, with the CLI's secrets layout. */
export function tableAt(engine: Engine, db: string, stream: string, label = stream): Table {
  return new Table(engine, stream, {
    secrets: new FileSecrets(secretsDirOf(db), stream),
    random: sequenceRandomHex(label),
  });
}

/** Creates Ashfall in an open engine and plays it with the demo's commanders (to its end, or `maxTurns`). */
export async function playAshfall(
  engine: Engine,
  db: string,
  maxTurns = 30,
  /** The label of the salts and seeds drawn: another label, other dice, another campaign. */
  label = "ashfall-demo",
): Promise<CampaignState> {
  const setup = await loadSetupFile(ASHFALL);
  const created = await engine.create(setupCommands(setup).map((step) => step.command));
  if (!created.ok) throw new Error(`set-up refused: ${created.refusal.message}`);
  return playCampaign(tableAt(engine, db, CAMPAIGN, label), () => {}, maxTurns);
}

/** A played Ashfall campaign in "<dir>/db" (closed), made once per test file and copied for each test that needs one. */
export async function playedFolder(maxTurns = 30): Promise<string> {
  const dir = join(await tempDirOutsideTest("epicwar-played-"), "db");
  const engine = await Engine.open(dir, { sync: false, clock: CLOCK });
  try {
    await playAshfall(engine, dir, maxTurns);
  } finally {
    await engine.close();
  }
  return dir;
}

/** A copy of a played folder (the database and its secrets) in a fresh tempDir(); returns the copy's database folder. */
export async function copyOf(db: string): Promise<string> {
  const dir = await tempDir("epicwar-copy-");
  await cp(db, join(dir, "db"), { recursive: true });
  await cp(secretsDirOf(db), join(dir, "db-secrets"), { recursive: true }).catch(() => undefined);
  return join(dir, "db");
}

/** Removes a folder made by playedFolder, with its secrets (for afterAll). */
export async function removePlayed(db: string): Promise<void> {
  await rm(dirname(db), { recursive: true, force: true });
}

/** A temp folder that outlives the current test (for beforeAll); removePlayed removes it. */
async function tempDirOutsideTest(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/**
 * The state after events 1..seq, folded in memory from a list of stored events: the reference every replay must match.
 * Folds copies: the reducers keep parts of an event's data in the state, which immer then freezes.
 */
export function foldTo(events: readonly StoredEvent[], seq: number): CampaignState {
  return evolveAll(initialState, structuredClone(events.slice(0, seq)).map(toCurrent));
}

/** The folder opened with `level` directly, as someone editing the files would. */
export async function openRaw(db: string) {
  const level = new Level<string, string>(db, { valueEncoding: "utf8" });
  await level.open({ createIfMissing: false });
  const sub = (name: string) => level.sublevel<string, string>(name, { valueEncoding: "utf8" });
  return { level, events: sub("events"), heads: sub("heads"), branches: sub("branches"), snapshots: sub("snapshots") };
}

/** Every stored key and value of one stream in the events and heads sublevels: to compare a stream byte for byte. */
export async function rawStream(
  db: string,
  stream: string,
): Promise<{ events: Array<[string, string]>; head: string | undefined }> {
  const raw = await openRaw(db);
  try {
    return {
      events: await raw.events.iterator({ gte: `${stream}#`, lte: `${stream}#~` }).all(),
      head: await raw.heads.get(stream),
    };
  } finally {
    await raw.level.close();
  }
}

export const rawKey = (stream: string, seq: number) => `${stream}#${String(seq).padStart(12, "0")}`;

// ---------------------------------------------------------------------------------------------------------------
// The CLI, run in this process (src/cli/run.ts): two runs at once must not use the same folder.

export { show, type Run } from "./support/cli.js";

export const cli = (args: string[], input = ""): Promise<Run> => runInProcess(args, input);
export const lines = (text: string) => text.split(/\r?\n/).filter((line) => line.trim() !== "");

export interface PlayedAshfall {
  /** The folder where Ashfall was played to its end, once for the whole test file. */
  readonly played: string;
  /** Its events as stored. */
  readonly events: StoredEvent[];
  /** Engines to close after the current test. */
  readonly open: Engine[];
  /** A fresh copy of the played folder, opened; closed after the current test. */
  openCopy(): Promise<{ engine: Engine; db: string; replays: Replays }>;
}

/** Plays Ashfall once for a test file (beforeAll) and hands out copies of it, each closed after its test. */
export function usePlayedAshfall(): PlayedAshfall {
  const open: Engine[] = [];
  const ashfall = {
    played: "",
    events: [] as StoredEvent[],
    open,
    async openCopy() {
      const db = await copyOf(ashfall.played);
      const engine = await Engine.open(db, { createIfMissing: false, sync: false });
      open.push(engine);
      return { engine, db, replays: new Replays(engine.store) };
    },
  };
  beforeAll(async () => {
    ashfall.played = await playedFolder();
    const engine = await Engine.open(ashfall.played, { createIfMissing: false });
    ashfall.events = await engine.store.readAll(CAMPAIGN);
    await engine.close();
  }, 60_000);
  afterAll(() => removePlayed(ashfall.played));
  afterEach(async () => {
    await Promise.all(open.splice(0).map((engine) => engine.close()));
  });
  return ashfall;
}
