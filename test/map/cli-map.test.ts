/**
 * `epicwar map` through the CLI (run in this process) on a real LevelDB: the set-up map of Ashfall as the Concord sees
 * it is the golden file the renderer's tests keep, on stdout and with --out; the refusals are one line each.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, expectOneLineError, ok, parseLog, ROOT, scratchDir } from "../support/campaign-cli.js";
import { goldenPath } from "./golden.js";

describe("epicwar map", () => {
  let db: string;
  let setupEnd: number;

  beforeAll(async () => {
    db = join(await scratchDir("epicwar-map-cli-"), "db");
    await ok(["new", "--db", db, "--setup", join(ROOT, "examples", "ashfall.setup.json")]);
    const log = parseLog(await ok(["log", "--db", db, "--json"]));
    setupEnd = log.find((event) => event.type === "CampaignStarted")!.seq - 1;
  });

  it("writes the map at a point of the log as a player sees it, to stdout: the golden set-up map", async () => {
    const svg = await ok(["map", "--db", db, "--as", "concord", "--seq", String(setupEnd)]);
    expect(svg).toBe(await readFile(goldenPath("ashfall-setup.svg"), "utf8"));
  });

  it("--out writes the same bytes to a file and nothing to stdout", async () => {
    const out = join(db, "..", "map.svg");
    const stdout = await ok(["map", "--db", db, "--as", "concord", "--seq", String(setupEnd), "--out", out]);
    expect(stdout).toBe("");
    expect(await readFile(out, "utf8")).toBe(await readFile(goldenPath("ashfall-setup.svg"), "utf8"));
  });

  it("draws the map now by default, as the log shows it without --as, at the size asked", async () => {
    const svg = await ok(["map", "--db", db, "--square", "20"]);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 415 280"/);
    expect(svg).toContain("turn 1, action phase, as the log shows it</title>");
  });

  it("refuses a point before the set-up, a bad size and a stranger, each in one line", async () => {
    expect(expectOneLineError(await cli(["map", "--db", db, "--seq", "0"]))).toContain("not set up");
    expect(expectOneLineError(await cli(["map", "--db", db, "--square", "4"]))).toContain("--square");
    expect(expectOneLineError(await cli(["map", "--db", db, "--as", "nobody"]))).toContain("nobody");
    expect(expectOneLineError(await cli(["map", "--db", db, "--turn", "1", "--seq", "3"]))).toContain("not both");
  });

  it("--help lists its options", async () => {
    const help = await ok(["map", "--help"]);
    for (const option of ["--turn", "--phase", "--seq", "--as", "--out", "--square", "--branch"])
      expect(help).toContain(option);
  });
});
