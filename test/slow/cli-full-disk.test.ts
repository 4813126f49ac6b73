/**
 * The CLI on a full disk: `epicwar demo` run under a file-size limit (`ulimit -f`, so LevelDB's writes fail with
 * EFBIG, as on a full disk) stops with one line naming what the system said and exit 1, not an internal error; the
 * log holds every event written before the failure, whole, and the demo run again with room plays on to its end.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/tmp.js";
import { epicwarDone, ROOT } from "./cli-process.js";

const BIN = join(ROOT, "dist", "src", "cli", "main.js");

/** The CLI with its files limited to `kib` KiB each: its exit code and what it printed. */
function underFileSizeLimit(kib: number, args: string[], cwd: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn("bash", ["-c", `ulimit -f ${kib} && exec "$@"`, "bash", process.execPath, BIN, ...args], {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the CLI on a full disk", () => {
  it("a write the disk refuses is one line and exit 1; the log is whole, and the next run plays on", async () => {
    const dir = await tempDir("epicwar-cli-full-");
    const machine = { cwd: dir, home: dir };
    // The demo's log grows past 64 KiB in its first turns: its write-ahead log meets the limit mid-campaign.
    const stopped = await underFileSizeLimit(64, ["demo", "--db", "war"], dir);
    expect(stopped.code, stopped.stderr).toBe(1);
    expect(stopped.stderr).toMatch(/^epicwar: cannot write the log at war \(File too large\)/m);
    expect(stopped.stderr).not.toMatch(/internal error|\n\s+at /);

    const verified = await epicwarDone(["verify", "--db", "war"], machine);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/intact/);
    const resumed = await epicwarDone(["demo", "--db", "war"], machine);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/was stopped in turn \d+ before its end/);
    expect(resumed.stdout).toMatch(/^Hash chain: .*intact/m);
  });
});
