/**
 * `npm run load` in the slow tier: a real `epicwar serve`, two players and a hundred feed viewers for a minute of play
 * (bench/load.ts, built by pretest:slow). What it asserts are outcomes, never times: every viewer of every campaign
 * received every event once and in order, nothing was lost, commands were played, and the server closed cleanly; with
 * --postgres, the same on both stores in one run, with each store's CPU per command and their ratio reported.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

interface LoadResult {
  campaigns: number;
  commands: number;
  events: number;
  eventsDelivered: number;
  eventsLost: number;
  outOfOrder: number;
  viewers: number;
  viewersPerCampaign: number;
  viewersComplete: number;
  serverExit: number | null;
  stores: Array<{ store: string; commands: number; serverExit: number | null; cpuPerCommandMs: number }>;
  cpuPerCommandRatio?: number;
}

function runLoad(...options: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["dist/bench/load.js", "--json", ...options], { cwd: ROOT });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("npm run load", () => {
  it("a hundred viewers of the live feed each receive every event of every campaign once, in order, while two players play", async () => {
    const run = await runLoad();
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const result = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as LoadResult;
    expect(result.campaigns).toBeGreaterThan(0);
    expect(result.commands).toBeGreaterThan(0);
    expect(result.eventsDelivered).toBeGreaterThan(0);
    expect(result.viewers).toBe(result.campaigns * result.viewersPerCampaign);
    expect(result.viewersPerCampaign).toBe(100);
    expect(result.eventsLost).toBe(0);
    expect(result.outOfOrder).toBe(0);
    expect(result.viewersComplete).toBe(result.viewers);
    expect(result.serverExit).toBe(0);
  });

  it("with --postgres plays the same load on a PostgreSQL cluster of its own too, in the same run, losing nothing on either, and gives each store's CPU per command", async () => {
    const run = await runLoad("--postgres", "--seconds", "20", "--viewers", "10");
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const result = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as LoadResult;
    expect(result.stores.map((store) => store.store)).toEqual(["LevelDB", "PostgreSQL"]);
    for (const store of result.stores) {
      expect(store.commands, store.store).toBeGreaterThan(0);
      expect(store.serverExit, store.store).toBe(0);
      expect(store.cpuPerCommandMs, store.store).toBeGreaterThan(0);
    }
    expect(result.cpuPerCommandRatio).toBe(result.stores[1]!.cpuPerCommandMs / result.stores[0]!.cpuPerCommandMs);
    expect(result.eventsLost).toBe(0);
    expect(result.outOfOrder).toBe(0);
    expect(result.viewersComplete).toBe(result.viewers);
  });
});
