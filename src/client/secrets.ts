import { mkdir, open, readdir, readFile, rename, unlink } from "node:fs/promises";
import { join } from "node:path";
import { ID_PATTERN } from "../../events/common.js";
import { PartyKeeper, type PartySecrets } from "./party-secrets.js";

export {
  MemorySecrets,
  PartyKeeper,
  SeedKeptError,
  type HeldOrder,
  type PartySecrets,
  type SecretKeeper,
} from "./party-secrets.js";

const ID = new RegExp(ID_PATTERN);

/** A secrets file that cannot be read or written: the command that needed it is not applied. */
export class SecretsError extends Error {
  override readonly name = "SecretsError";
}

/** Serialises the read-change-write of each file in this process, so that concurrent keeps all land. */
const fileQueues = new Map<string, Promise<unknown>>();
function queued<T>(path: string, work: () => Promise<T>): Promise<T> {
  const result = (fileQueues.get(path) ?? Promise.resolve()).then(work, work);
  const settled = result.catch(() => {});
  fileQueues.set(path, settled);
  void settled.then(() => fileQueues.get(path) === settled && fileQueues.delete(path));
  return result;
}

let tempCounter = 0;

/**
 * Replaces a file so that the new text survives a crash or a power cut once this returns, and a crash never leaves
 * half a file: written to a temporary file of this process, flushed, renamed over the file, and the folder flushed.
 */
export async function replaceDurably(folder: string, path: string, text: string): Promise<void> {
  const temp = `${path}.${process.pid}-${++tempCounter}.tmp`;
  try {
    const file = await open(temp, "w", 0o600);
    try {
      await file.writeFile(text, "utf8");
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  }
  const dir = await open(folder, "r");
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}
const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/**
 * One JSON file per party: `<dir>/<campaign>/<party>.json`, kept apart from the shared log (docs/secrets.md).
 * A write goes to a temporary file of this process, is flushed to disk, renamed over the file, and the folder is
 * flushed too: when a keep returns, the secret survives a crash or a power cut, and a crash never leaves half a file.
 */
export class FileSecrets extends PartyKeeper {
  private ownerChecked = false;

  /**
   * `logIdentity` gives the hash of the first event of the log these secrets belong to: a folder that holds the
   * secrets of another log of the same campaign id (a second `new` given the same --secrets) is refused, not mixed.
   */
  constructor(
    private readonly dir: string,
    private readonly campaign: string,
    private readonly logIdentity?: () => Promise<string | undefined>,
  ) {
    super();
  }

  /** Only seat ids name a file, so that no party name can reach outside the campaign's folder. */
  private path(party: string): string {
    if (!ID.test(party))
      throw new SecretsError(`"${party}" is not a seat of this campaign: no secrets file is named after it`);
    return join(this.folder(), `${party}.json`);
  }

  private folder(): string {
    if (!ID.test(this.campaign))
      throw new SecretsError(`"${this.campaign}" is not a campaign id: no secrets folder is named after it`);
    return join(this.dir, this.campaign);
  }

  protected async read(party: string): Promise<PartySecrets> {
    const path = this.path(party);
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return {};
      throw new SecretsError(
        `cannot read ${party}'s secrets file ${path}: ${code === "ENOTDIR" ? `${this.dir} is not a folder` : (error as Error).message}`,
      );
    }
    try {
      return JSON.parse(text) as PartySecrets;
    } catch (error) {
      throw new SecretsError(
        `${party}'s secrets file ${path} is not valid JSON (${(error as Error).message}); restore it from a copy`,
      );
    }
  }

  protected async update(party: string, change: (secrets: PartySecrets) => void): Promise<void> {
    const path = this.path(party);
    return queued(path, async () => {
      const secrets = await this.read(party);
      change(secrets);
      await this.writeDurably(party, path, `${JSON.stringify(secrets, null, 2)}\n`);
    });
  }

  private async writeDurably(party: string, path: string, text: string): Promise<void> {
    const folder = this.folder();
    try {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      await this.claimFolder();
      await this.removeStaleTemps();
      await replaceDurably(folder, path, text);
    } catch (error) {
      if (error instanceof SecretsError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === "ENOTDIR" || code === "EEXIST" ? `${this.dir} is not a folder` : (error as Error).message;
      throw new SecretsError(`cannot write ${party}'s secrets file ${path}: ${why}`);
    }
  }

  /**
   * The folder's first write records which log it serves (`.log.json`, a name no seat id can take); later writes
   * check it, so that two logs of one campaign id never share, and overwrite, each other's secrets.
   */
  private async claimFolder(): Promise<void> {
    const identity = this.ownerChecked ? undefined : await this.logIdentity?.();
    if (identity === undefined) return;
    const marker = join(this.folder(), ".log.json");
    const recorded = await readFile(marker, "utf8").then(
      (text) => (JSON.parse(text) as { firstEvent?: string }).firstEvent,
      (error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return undefined;
        throw error;
      },
    );
    if (recorded === undefined) {
      await replaceDurably(this.folder(), marker, `${JSON.stringify({ firstEvent: identity })}\n`);
    } else if (recorded !== identity) {
      throw new SecretsError(
        `${this.folder()} holds the secrets of another ${this.campaign} log (first event ${recorded.slice(0, 16)}, this log's is ${identity.slice(0, 16)}): give each log its own secrets folder (--secrets)`,
      );
    }
    this.ownerChecked = true;
  }

  /** Temporary files left by a process that was killed mid-write: the file they were for is whole without them. */
  private async removeStaleTemps(): Promise<void> {
    // Any party's file, or the folder's log marker: every temporary file here is one of ours.
    const pattern = /^\.?[A-Za-z0-9_.-]+\.json\.(?:(\d+)-\d+\.)?tmp$/;
    for (const name of await readdir(this.folder())) {
      const match = pattern.exec(name);
      const pid = Number(match?.[1] ?? 0);
      if (match && pid !== process.pid && !(pid && isAlive(pid)))
        await unlink(join(this.folder(), name)).catch(() => {});
    }
  }
}

/** What secretsOfLog reads of a log: its events' hashes (the EventStore). */
export interface HashedLog {
  readAll(stream: string, from: number, to: number): Promise<readonly { hash: string }[]>;
}

/** A campaign's secrets on the machine that holds its log: the folder is claimed for the log's first event. */
export function secretsOfLog(dir: string, campaign: string, log: HashedLog): FileSecrets {
  return new FileSecrets(dir, campaign, async () => (await log.readAll(campaign, 1, 1))[0]?.hash);
}
