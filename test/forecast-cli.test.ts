/**
 * `epicwar forecast` on the Ashfall demo: the same command gives the same report, on the built bin's worker threads as
 * in this process; nothing is written to the log; bad options are refused naming the option.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runInProcess, show } from "./support/cli.js";

describe("epicwar forecast", () => {
  // One demo for every test here (tempDir's folders last one test).
  let folder: string;
  let db: string;
  const quick = ["--turn", "2", "--runs", "3", "--turns", "1", "--seed", "cli", "--json"];
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "epicwar-forecast-"));
    db = join(folder, "demo");
    const demo = await runInProcess(["demo", "--db", db]);
    expect(demo.code, show(demo)).toBe(0);
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it("gives the same numbers for the same command, on worker threads or not, and writes nothing to the log", async () => {
    const head = await runInProcess(["verify", "--db", db]);
    const first = await runInProcess(["forecast", "--db", db, ...quick]);
    expect(first.code, show(first)).toBe(0);
    const again = await runInProcess(["forecast", "--db", db, ...quick]);
    expect(again.stdout).toBe(first.stdout);
    const threaded = await runCli(["forecast", "--db", db, ...quick, "--workers", "2"], "", 120_000);
    expect(threaded.code, show(threaded)).toBe(0);
    expect(threaded.stdout).toBe(first.stdout);
    const report = JSON.parse(first.stdout) as { runs: number; from: { turn: number }; win: Record<string, unknown> };
    expect(report.runs).toBe(3);
    expect(report.from.turn).toBe(2);
    expect(Object.keys(report.win).sort()).toEqual(["concord", "horde"]);
    expect((await runInProcess(["verify", "--db", db])).stdout).toBe(head.stdout);
  });

  it("forecasts a finished campaign for a player from the whole truth, as for the organiser", async () => {
    const host = await runInProcess(["forecast", "--db", db, ...quick]);
    const player = await runInProcess(["forecast", "--db", db, ...quick, "--as", "concord"]);
    expect(player.code, show(player)).toBe(0);
    expect(player.stdout).toBe(host.stdout);
  });

  it("prints the odds with their intervals in words, and forecasts a branch, compared with main from a moment they share", async () => {
    const text = await runInProcess(["forecast", "--db", db, "--turn", "2", "--runs", "2", "--turns", "1"]);
    expect(text.code, show(text)).toBe(0);
    expect(text.stdout).toMatch(/^Forecast of ashfall, from the whole truth, from turn 2, action phase/);
    expect(text.stdout).toContain("95% Wilson score intervals");
    expect(text.stdout).toMatch(/The Cinder Horde win +\d+\.\d% {2}\[\d+\.\d%, \d+\.\d%\]/);
    // A branch forked in turn 3 shares turn 2 with main: the same moment forecast on both lines differs by nothing.
    const branched = await runInProcess(["branch", "--db", db, "--from-turn", "3", "--name", "whatif"]);
    expect(branched.code, show(branched)).toBe(0);
    const onBranch = await runInProcess(["forecast", "--db", db, ...quick, "--branch", "whatif"]);
    expect(onBranch.code, show(onBranch)).toBe(0);
    expect(onBranch.stdout).toBe((await runInProcess(["forecast", "--db", db, ...quick])).stdout);
    const compared = await runInProcess(["forecast", "--db", db, ...quick, "--compare", "main", "whatif"]);
    expect(compared.code, show(compared)).toBe(0);
    const { differences } = JSON.parse(compared.stdout) as { differences: { draw: { difference: number } } };
    expect(differences.draw).toEqual({ difference: 0, low: 0, high: 0 });
  });

  it("draws its progress on a terminal's stderr, and on Ctrl-C prints the report of the runs played by then", async () => {
    const stop = new AbortController();
    let stderr = "";
    const run = await runInProcess(["forecast", "--db", db, "--turn", "2", "--runs", "50", "--turns", "1"], "", {
      io: {
        columns: { stderr: 80 },
        interruption: () => stop.signal,
        stderr: (text) => {
          stderr += text;
          if (text.includes("1/50")) stop.abort();
        },
      },
    });
    expect(run.code, show(run)).toBe(0);
    expect(stderr).toMatch(/\r\[#* *\] ashfall 1\/50/);
    expect(run.stdout).toContain("1 run of 50 (stopped)");
  });

  it("refuses bad options, naming them", async () => {
    const cases: Array<[string[], RegExp]> = [
      [["--runs", "0"], /--runs must be a whole number of at least 1/],
      [["--compare", "main"], /--compare takes two lines/],
      [["--as", "nobody"], /"nobody" is not a player of ashfall/],
      [["--turn", "99"], /turn 99/],
      [["--seq", "30"], /still being set up at that moment \(S1-S8\)/],
    ];
    for (const [args, message] of cases) {
      const run = await runInProcess(["forecast", "--db", db, "--runs", "2", ...args]);
      expect(run.code, show(run)).not.toBe(0);
      expect(run.stderr).toMatch(message);
    }
  });
});
