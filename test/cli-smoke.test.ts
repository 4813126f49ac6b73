/**
 * The built bin (dist/src/cli/main.js: `npm run build` first, or CAMPAIGN_TEST_CLI) as a user runs it: its own node
 * process, no shell unless a pipe is the point, on real LevelDB folders. Every other CLI test runs the CLI in-process
 * (runInProcess); these few check what only a process shows: the exit codes 0, 1, 2 and 3 as the shell sees them,
 * standard input through a pipe, a reader that stops early (`| head`), the environment, the current folder and the
 * secrets files on disk.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { Level } from "level";
import { beforeAll, describe, expect, it } from "vitest";
import { CLI, runCli, runInProcess, show, type Run } from "./support/cli.js";
import { FIXTURES, nonEmptyLines, parseLog, ROOT, scratchDir } from "./support/campaign-cli.js";

const READY = join(FIXTURES, "ready.json");

/** Runs the bin, expects exit 0 and returns stdout. */
async function ok(args: string[], input?: string): Promise<string> {
  const run = await runCli(args, input);
  expect(run.code, `epicwar ${args.join(" ")}\n${show(run)}`).toBe(0);
  return run.stdout;
}

/** The same in this process, for the steps that only set a folder up (quicker than a node start). */
async function prepared(args: string[], input?: string): Promise<string> {
  const run = await runInProcess(args, input);
  expect(run.code, `epicwar ${args.join(" ")}\n${show(run)}`).toBe(0);
  return run.stdout;
}

/** One line on stderr starting "epicwar: ", with this exit code. */
function oneLine(run: Run, code: number): string {
  expect(run.code, show(run)).toBe(code);
  expect(nonEmptyLines(run.stderr), show(run)).toHaveLength(1);
  expect(run.stderr).toMatch(/^epicwar: /);
  return run.stderr.trim();
}

/** A folder holding ready.json's campaign ("golden"), turn 1 under way: the initiative winner chooses first next. */
async function readyCampaign(): Promise<{ dir: string; db: string; winner: string }> {
  const dir = await scratchDir("epicwar-smoke-");
  const db = join(dir, "db");
  await prepared(["new", "--db", db, "--setup", READY]);
  const state = JSON.parse(await prepared(["state", "--db", db, "--json"])) as {
    turnState: { initiativeWinner: string };
  };
  return { dir, db, winner: state.turnState.initiativeWinner };
}

/** ready.json: a first move for each side that Advance allows. */
const FIRST_MOVE: Record<string, { army: string; path: number[][] }> = {
  red: { army: "r1", path: [[1, 1]] },
  blue: { army: "b1", path: [[2, 6]] },
};

describe("the epicwar bin", () => {
  it("is built, and answers --version and --help on stdout with exit 0", async () => {
    expect(existsSync(CLI), `${CLI} is missing: run npm run build`).toBe(true);
    const { version } = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { version: string };
    expect(await ok(["--version"])).toBe(`${version}\n`);
    const help = await runCli(["--help"]);
    expect(help.code, show(help)).toBe(0);
    expect(help.stdout).toMatch(/^Usage: epicwar \[options\] \[command\]/);
    expect(help.stdout).toContain("Exit codes: 0 done; 1 a command was refused");
    expect(help.stderr).toBe("");
  });

  it("exit 1: an unknown option or command is one line on stderr (commander's refusal too), nothing on stdout", async () => {
    const option = await runCli(["state", "--bogus"]);
    expect(oneLine(option, 1)).toBe("epicwar: unknown option '--bogus' (see --help)");
    expect(option.stdout).toBe("");
    const command = await runCli(["teleport", "--help"]);
    expect(oneLine(command, 1)).toMatch(
      /^epicwar: unknown command 'teleport' \(the commands are new, apply, computer, duel, state, map, log, /,
    );
    expect(command.stdout).toBe("");
  });

  describe("on a campaign", () => {
    let campaign: { dir: string; db: string; winner: string };
    beforeAll(async () => {
      campaign = await readyCampaign();
    }, 60_000);

    it("reads commands piped to `apply -`, keeps the order in the player's secrets file on disk and logs only its commitment", async () => {
      const { db, winner } = campaign;
      const move = FIRST_MOVE[winner]!;
      const lines = [
        { actor: winner, type: "ChooseFirst", first: winner },
        { actor: winner, type: "ActivateArmy", army: move.army, order: "advance", path: move.path },
      ];
      const applied = await ok(["apply", "--db", db, "-"], lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
      expect(applied).toMatch(new RegExp(`${winner} chooses ${winner} to activate first`));
      const secretsFile = join(`${db}-secrets`, "golden", `${winner}.json`);
      const secrets = JSON.parse(await readFile(secretsFile, "utf8")) as {
        orders: Record<string, { order: string; salt: string }>;
      };
      expect(secrets.orders[`1/${move.army}`]).toMatchObject({
        order: "advance",
        salt: expect.stringMatching(/^[0-9a-f]{32,128}$/),
      });
      const activated = parseLog(await ok(["log", "--db", db, "--json"])).find(
        (event) => event.type === "ArmyActivated",
      );
      expect(activated?.data["commitment"]).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(activated)).not.toContain("advance");
      expect(JSON.stringify(activated)).not.toContain(secrets.orders[`1/${move.army}`]!.salt);
      expect((await readdir(join(`${db}-secrets`, "golden"))).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    });

    it("exit 2: verify of a folder where one stored event was edited names its seq", async () => {
      const dir = await scratchDir("epicwar-smoke-edited-");
      const db = join(dir, "db");
      await prepared(["new", "--db", db, "--setup", READY]);
      const level = new Level<string, string>(db, { valueEncoding: "utf8" });
      const events = level.sublevel<string, string>("events", { valueEncoding: "utf8" });
      const key = `golden#${String(5).padStart(12, "0")}`;
      await events.put(key, (await events.get(key))!.replace(/"data":\{/, '"data":{"forged":1,'));
      await level.close();
      const run = await runCli(["verify", "--db", db]);
      expect(oneLine(run, 2)).toMatch(/^epicwar: golden: chain broken at seq 5 /);
    });

    it("exit 3: an error the CLI does not expect (a secrets file holding JSON null) is an internal error; EPICWAR_DEBUG adds its stack", async () => {
      const { db, winner } = await readyCampaign();
      await prepared(["apply", "--db", db, "-"], JSON.stringify({ actor: winner, type: "ChooseFirst", first: winner }));
      const secretsFile = join(`${db}-secrets`, "golden", `${winner}.json`);
      expect(existsSync(secretsFile), "the player's seed is kept there").toBe(true);
      await writeFile(secretsFile, "null\n");
      const move = FIRST_MOVE[winner]!;
      const input = JSON.stringify({
        actor: winner,
        type: "ActivateArmy",
        army: move.army,
        order: "advance",
        path: move.path,
      });
      const plain = await runCli(["apply", "--db", db, "-"], input);
      expect(oneLine(plain, 3)).toMatch(/^epicwar: internal error: /);
      const debug = await runCli(["apply", "--db", db, "-"], input, 30_000, { env: { EPICWAR_DEBUG: "1" } });
      expect(debug.code, show(debug)).toBe(3);
      expect(debug.stderr).toMatch(/^epicwar: internal error: .*\n\S*Error: .*\n\s+at /);
    });
  });

  it("exits 0 when the reader stops early (`log | head -n 1`): a broken pipe is not an error", async () => {
    const dir = await scratchDir("epicwar-smoke-demo-");
    const db = join(dir, "db");
    await prepared(["demo", "--db", db]);
    // More than a pipe's buffer (64 KiB), so that the writer is still writing when head has gone.
    expect((await prepared(["log", "--db", db, "--json"])).length).toBeGreaterThan(64 * 1024);
    const script = `set -o pipefail; "${process.execPath}" "${CLI}" log --db "${db}" --json | head -n 1`;
    const { stdout, stderr } = await promisify(execFile)("bash", ["-c", script], {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(stderr).toBe("");
    expect(JSON.parse(stdout)).toMatchObject({ seq: 1, type: "CampaignCreated" });
  }, 60_000);

  it("takes the default database folder from EPICWAR_DB; an empty one, or an empty --db, is refused and nothing is written in the current folder", async () => {
    const cwd = await scratchDir("epicwar-smoke-cwd-");
    const empty = await runCli(["new", "--db", "", "--setup", READY], "", 30_000, { cwd });
    expect(oneLine(empty, 1)).toContain("--db needs a folder name");
    const fromEnv = await runCli(["new", "--setup", READY], "", 30_000, { cwd, env: { EPICWAR_DB: "" } });
    expect(oneLine(fromEnv, 1)).toContain("--db needs a folder name");
    expect(await readdir(cwd)).toEqual([]);
    const named = await runCli(["new", "--setup", READY], "", 30_000, { cwd, env: { EPICWAR_DB: "war" } });
    expect(named.code, show(named)).toBe(0);
    expect((await readdir(cwd)).sort()).toEqual(["war", "war-secrets"]);
    expect(await prepared(["verify", "--db", join(cwd, "war")])).toMatch(/^golden: intact, \d+ events/);
  });
});
