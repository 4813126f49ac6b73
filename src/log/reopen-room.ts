import { randomFillSync } from "node:crypto";
import { open, readdir, stat, unlink } from "node:fs/promises";
import { join } from "node:path";

/** What a reopen writes besides the tables: a new manifest, a new write-ahead log, LevelDB's own log of the open. */
const OVERHEAD_BYTES = 64 * 1024;
/** The size of each write of the trial file: its memory, whatever the size of the logs. */
const CHUNK_BYTES = 1 << 20;
/** The trial file: no name LevelDB reads, or removes as one of its own obsolete files. */
const TRIAL_FILE = "REOPEN-TRIAL.tmp";

/**
 * Throws the disk's error (ENOSPC, EFBIG) unless the LevelDB folder's disk takes what reopening the database writes:
 * its recovery writes each write-ahead log (`*.log`) out as a table of about the same size (an eighth more is allowed
 * for the table's own blocks), then a new manifest. A file of that size is written there, flushed, and removed, by
 * this process, so that a file-size limit of its own counts too. Data that does not compress is written, as a
 * filesystem that compresses would hold zeros in no space at all.
 */
export async function checkRoomToReopen(folder: string): Promise<void> {
  let bytes = OVERHEAD_BYTES;
  for (const name of await readdir(folder))
    if (name.endsWith(".log")) bytes += Math.ceil(((await stat(join(folder, name))).size * 9) / 8);
  const path = join(folder, TRIAL_FILE);
  const chunk = randomFillSync(Buffer.alloc(Math.min(bytes, CHUNK_BYTES)));
  try {
    const file = await open(path, "w", 0o600);
    try {
      for (let left = bytes; left > 0;) {
        const { bytesWritten } = await file.write(chunk, 0, Math.min(left, chunk.length));
        left -= bytesWritten;
      }
      await file.sync();
    } finally {
      await file.close();
    }
  } finally {
    await unlink(path).catch(() => undefined);
  }
}
