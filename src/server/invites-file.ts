import { mkdir, open } from "node:fs/promises";
import { join } from "node:path";

/** The file in the server-data folder that keeps the operator token and the invites the server issued at its starts. */
export const INVITES_FILE = "invites.txt";

/** The file's mode: its owner reads and writes it, nobody else. */
const OWNER_ONLY = 0o600;

/**
 * Appends lines holding secrets (the operator token, invite links) to the server-data folder's invites file, readable
 * by its owner only (a file made wider by hand is narrowed again), flushed to disk before the server says where they
 * are. Returns the file's path.
 */
export async function appendSecretLines(serverData: string, lines: readonly string[]): Promise<string> {
  const path = join(serverData, INVITES_FILE);
  await mkdir(serverData, { recursive: true, mode: 0o700 });
  const file = await open(path, "a", OWNER_ONLY);
  try {
    await file.chmod(OWNER_ONLY);
    await file.appendFile(`${lines.join("\n")}\n`, "utf8");
    await file.sync();
  } finally {
    await file.close();
  }
  return path;
}
