/**
 * The T5 stall ruling through the CLI (run in this process), on a real LevelDB: blue never gives the order of
 * the army red attacked, red claims the stall, the host closes the Action phase, and the audit names blue's breach.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, expectOneLineError, FIXTURES, ok, parseLog, scratchDir, writeCommands } from "./support/campaign-cli.js";

describe("T5 stall ruling through the CLI", () => {
  it("T5 a stall is claimed and closed with apply; the host cannot close before the claim; audit exits 2 naming b1", async () => {
    const dir = await scratchDir("epicwar-cli-stall-");
    const db = join(dir, "db");
    await ok(["new", "--db", db, "--setup", join(FIXTURES, "action-close.json")]);
    const winner = (
      JSON.parse(await ok(["state", "--db", db, "--json"])) as { turnState: { initiativeWinner: string } }
    ).turnState.initiativeWinner;
    const attack = await writeCommands(dir, "attack.jsonl", [
      { actor: winner, type: "ChooseFirst", first: "red" },
      {
        actor: "red",
        type: "ActivateArmy",
        army: "r1",
        order: "charge",
        path: [
          [4, 1],
          [4, 2],
          [4, 3],
          [4, 4],
          [4, 5],
        ],
      },
    ]);
    await ok(["apply", attack, "--db", db]);

    const early = await cli([
      "apply",
      await writeCommands(dir, "early.jsonl", [{ actor: "host", type: "CloseActionPhase" }]),
      "--db",
      db,
    ]);
    expect(expectOneLineError(early)).toMatch(/T3.*no stall was claimed/);
    const blocked = await cli([
      "apply",
      await writeCommands(dir, "blocked.jsonl", [
        { actor: "red", type: "ActivateArmy", army: "r2", order: "advance", path: [] },
      ]),
      "--db",
      db,
    ]);
    expect(expectOneLineError(blocked)).toMatch(/T5.*b1 must be given its order first.*ClaimStall/);

    expect(await ok(["state", "--db", db])).toContain(
      "waiting for the order of b1 (blue, battle t1b1); if it never comes, red may claim the stall",
    );

    const claimed = await ok([
      "apply",
      await writeCommands(dir, "claim.jsonl", [{ actor: "red", type: "ClaimStall" }]),
      "--db",
      db,
    ]);
    expect(claimed).toContain("red claims the Action phase is stalled, waiting on b1's order (blue)");
    expect(await ok(["state", "--db", db])).toMatch(
      /waiting for the order of b1 \(blue, battle t1b1\); stall claimed by red \(seq \d+\)/,
    );
    const applied = await ok([
      "apply",
      await writeCommands(dir, "close.jsonl", [{ actor: "host", type: "CloseActionPhase" }]),
      "--db",
      db,
    ]);
    expect(applied).toContain(
      "the host closed the stalled Action phase; not activated: r2, r3, b2, b3; never revealed: b1",
    );

    const state = JSON.parse(await ok(["state", "--db", db, "--json"])) as {
      phase: string;
      violations: Array<{ army: string; detail: string }>;
    };
    expect(state.phase).toBe("battle");
    expect(state.violations.map((v) => [v.army, v.detail])).toEqual([["b1", "order never given"]]);
    expect(parseLog(await ok(["log", "--db", db, "--json"])).map((e) => e.type)).toContain("StallClaimed");
    await ok(["verify", "--db", db]);
    const audit = await cli(["audit", "--db", db]);
    expect(audit.code).toBe(2);
    expect(audit.stdout).toMatch(/never activated.*b1/);
    expect(audit.stdout).not.toMatch(/never activated.*\br2\b/);
  });
});
