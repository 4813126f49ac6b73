/**
 * `run(argv, io)` (src/cli/run.ts), the CLI as a function: what it takes from `io` rather than from the process (the
 * clock, the environment, standard input as a stream) and that one run leaves nothing behind for the next.
 */
import { Readable } from "node:stream";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../src/cli/io.js";
import { FIXTURES, parseLog, scratchDir } from "./support/campaign-cli.js";
import { runInProcess, show, type Run } from "./support/cli.js";

const READY = join(FIXTURES, "ready.json");

/** Runs the CLI in-process with `io` changed from runInProcess's (empty environment, no input, the real clock). */
const runWith = (args: string[], io: Partial<CliIo> = {}): Promise<Run> => runInProcess(args, "", { io });

describe("run(argv, io)", () => {
  it("stamps the events it writes with io's clock, and takes the default --db from io's EPICWAR_DB", async () => {
    const db = join(await scratchDir("epicwar-run-"), "war");
    const at = new Date("2031-02-03T04:05:06.007Z");
    const made = await runWith(["new", "--setup", READY], { env: { EPICWAR_DB: db }, clock: () => at });
    expect(made.code, show(made)).toBe(0);
    const log = await runWith(["log", "--json"], { env: { EPICWAR_DB: db } });
    expect(log.code, show(log)).toBe(0);
    const events = parseLog(log.stdout) as Array<{ at?: string }>;
    expect(events.length).toBeGreaterThan(1);
    expect(new Set(events.map((event) => event.at))).toEqual(new Set([at.toISOString()]));
  });

  it("reads `apply -` from io's stdin when it is a stream", async () => {
    const db = join(await scratchDir("epicwar-run-"), "db");
    expect((await runWith(["new", "--db", db, "--setup", READY])).code).toBe(0);
    const state = JSON.parse((await runWith(["state", "--db", db, "--json"])).stdout) as {
      turnState: { initiativeWinner: string };
    };
    const winner = state.turnState.initiativeWinner;
    const line = `${JSON.stringify({ actor: winner, type: "ChooseFirst", first: winner })}\n`;
    // Split in two chunks, the first ending in the middle of the line.
    const applied = await runWith(["apply", "--db", db, "-"], {
      stdin: Readable.from([Buffer.from(line.slice(0, 10)), Buffer.from(line.slice(10))]),
    });
    expect(applied.code, show(applied)).toBe(0);
    expect(applied.stdout).toContain(`${winner} chooses ${winner} to activate first`);
  });

  it("builds its program afresh: help, an error and the version in a row each answer as on their own", async () => {
    const first = await runWith(["state", "--help"]);
    const refused = await runWith(["state", "--bogus"]);
    const second = await runWith(["state", "--help"]);
    const version = await runWith(["-V"]);
    expect(first.code, show(first)).toBe(0);
    expect(first.stdout).toMatch(/^Usage: epicwar state \[options\]/);
    expect(second).toEqual(first);
    expect(refused).toEqual({ code: 1, stdout: "", stderr: "epicwar: unknown option '--bogus' (see --help)\n" });
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it("an error it does not expect is exit 3 and one line; with EPICWAR_DEBUG in io's env, its stack after it", async () => {
    const failing = () => {
      throw new Error("the output is gone");
    };
    const plain = await runWith(["demo", "--db", join(await scratchDir("epicwar-run-"), "db")], { stdout: failing });
    expect(plain).toEqual({ code: 3, stdout: "", stderr: "epicwar: internal error: the output is gone\n" });
    const debug = await runWith(["demo", "--db", join(await scratchDir("epicwar-run-"), "db")], {
      stdout: failing,
      env: { EPICWAR_DEBUG: "1" },
    });
    expect(debug.code).toBe(3);
    expect(debug.stderr).toMatch(/^epicwar: internal error: the output is gone\nError: the output is gone\n\s+at /);
  });
});
