import { existsSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { Engine, type EngineOptions } from "../engine/engine.js";
import { blameBrokenLog, isDatabaseUrl, storeLocation } from "../log/index.js";
import { CliError, isKnownError } from "./errors.js";

/**
 * Opens the engine on the command's log (--store, else the folder --db) for one CLI command and always closes it. An error the CLI would call internal, on a
 * folder where a line fails verification, is reported as that line's broken log (exit 2; see blameBrokenFolder).
 */
export async function withEngine<T>(
  where: { db: string; store?: string | undefined },
  options: EngineOptions,
  work: (engine: Engine) => Promise<T>,
): Promise<T> {
  const db = storeLocation(where);
  // An empty path would put the database's files in the current folder.
  if (db.trim() === "")
    throw new CliError("--db needs a folder name (an empty EPICWAR_DB gives none): e.g. --db my-war");
  const inFolder = !isDatabaseUrl(db);
  const existed = inFolder && existsSync(db);
  const heldDatabase = !inFolder || existsSync(join(db, "CURRENT"));
  const engine = await Engine.open(db, options);
  let leftEmpty = false;
  try {
    return await work(engine);
  } catch (error) {
    // A database this command created and then wrote no campaign into (a refused set-up) is not left behind.
    leftEmpty = !heldDatabase && (await engine.listCampaigns().catch(() => ["?"])).length === 0;
    throw isKnownError(error) ? error : await blameBrokenFolder(engine, error);
  } finally {
    await engine.close();
    if (leftEmpty) await removeDatabase(db, existed);
  }
}

/** LevelDB's own files in a folder: what opening a database there created. */
const LEVELDB_FILE = /^(CURRENT|LOCK|LOG|LOG\.old|MANIFEST-\d+|\d+\.(log|ldb|sst))$/;

/** Removes a database the command created: the folder too if the command made it, else only LevelDB's files. */
async function removeDatabase(db: string, folderExisted: boolean): Promise<void> {
  if (!folderExisted) return rm(db, { recursive: true, force: true });
  for (const name of (await readdir(db)).filter((file) => LEVELDB_FILE.test(file)))
    await rm(join(db, name), { force: true });
}

/**
 * What an unexpected error in a folder comes from: the first line (campaign or branch) that fails verification, as a
 * CorruptEventError naming its first bad seq, with the error as its cause; the error itself when every line is intact.
 * An event edited outside the engine can make any reader that trusts the log throw (a reducer, a view, a description):
 * the reads catch what is missing or out of place, the hashes only verify does, so verify decides here.
 */
async function blameBrokenFolder(engine: Engine, error: unknown): Promise<unknown> {
  try {
    const lines = [...(await engine.listCampaigns()), ...(await engine.listBranches()).map((branch) => branch.stream)];
    for (const line of lines) {
      const blamed = await blameBrokenLog(engine.store, line, error);
      if (blamed !== error) return blamed;
    }
  } catch {
    // The folder cannot even be listed: the error stays as it was.
  }
  return error;
}

/** The campaign a command acts on: the one named, or the only one in the folder. */
export async function pickCampaign(engine: Engine, db: string, named: string | undefined): Promise<string> {
  const campaigns = await engine.listCampaigns();
  if (named !== undefined) {
    // A branch's stream id (what --branch resolves to) names a line of a campaign too.
    if (!campaigns.includes(named) && !(await engine.store.branch(named))) {
      throw new CliError(
        `no campaign "${named}" in ${db}${campaigns.length ? ` (it holds: ${campaigns.join(", ")})` : ""}`,
      );
    }
    return named;
  }
  if (campaigns.length === 1) return campaigns[0]!;
  if (campaigns.length === 0)
    throw new CliError(`no campaign in ${db}: create one with "epicwar new --db ${db} --setup FILE"`);
  throw new CliError(`${db} holds several campaigns (${campaigns.join(", ")}): choose one with --campaign ID`);
}
