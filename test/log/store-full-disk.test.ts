/**
 * A LevelDB store whose disk stays full: its writes fail, and so does its reopen, whose recovery must write the
 * write-ahead log out to a table. Its reads must go on meanwhile. The disk is a file-size limit of a child process's
 * own (full-disk-child.ts, under `prlimit`), since this process's threads run other tests.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/tmp.js";

const ROOT = join(import.meta.dirname, "../..");

describe("a LevelDB store on a full disk", () => {
  it("keeps taking reads while the disk stays full, and writes again once the disk has room, without a restart", async () => {
    const folder = join(await tempDir(), "db");
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "test/log/full-disk-child.ts", folder],
      { cwd: ROOT, timeout: 25_000 },
    );
    const steps = Object.fromEntries(
      stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { step: string })
        .map(({ step, ...what }) => [step, what]),
    );
    expect(steps["append"]).toMatchObject({ ok: false, name: "StoreFailedError" });
    // The reopen cannot write what LevelDB's recovery writes, and says so; it leaves the log open for reads.
    expect(steps["reopen"]).toMatchObject({ ok: false, name: "StoreOpenError" });
    expect(steps["reopen"]).toMatchObject({ error: expect.stringMatching(/file too large/i) as unknown });
    expect(steps["reads"]).toEqual({ c1: { ok: true, value: 400 }, c2: { ok: true, value: 1 } });
    expect(steps["append again"]).toMatchObject({ ok: false, name: "StoreFailedError" });
    // The space freed: the next reopen opens it, and it takes writes again, the seqs going on.
    expect(steps["reopen freed"]).toEqual({ ok: true });
    expect(steps["reads freed"]).toEqual({ c1: { ok: true, value: 400 }, c2: { ok: true, value: 1 } });
    expect(steps["append freed"]).toEqual({ ok: true, value: [401] });
  });
});
