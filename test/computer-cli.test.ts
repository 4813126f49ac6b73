/**
 * The computer's seat in a campaign against it, through the CLI (docs/computer.md): the human may not act for it; a
 * `--computer` value naming no player or level creates nothing; it rejects a result that breaks B3, naming the rule,
 * and confirms one within the rules; `epicwar duel` plays level against level. A whole campaign against each level is
 * test/slow/computer-campaign.test.ts.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scriptedResult } from "../src/demo/results.js";
import { cli, expectOneLineError, ok, parseLog, scratchDir } from "./support/campaign-cli.js";
import {
  ASHFALL,
  COMPUTER,
  HUMAN,
  humanCommand,
  humanView,
  MAX_COMMANDS,
  unreported,
} from "./support/computer-human.js";

describe("the computer's seat is its own", () => {
  it("refuses the human's command in the computer's name, and --as the computer's seat, leaving the log as it was", async () => {
    const dir = await scratchDir("epicwar-computer-");
    const db = join(dir, "war");
    await ok(["new", "--db", db, "--setup", ASHFALL, "--computer", COMPUTER]);
    const before = await ok(["log", "--db", db, "--json"]);
    const line = JSON.stringify({ actor: COMPUTER, type: "ChooseFirst", first: COMPUTER });
    expect(expectOneLineError(await cli(["apply", "--db", db, "-"], `${line}\n`))).toContain(
      `${COMPUTER} is played by the computer`,
    );
    expect(expectOneLineError(await cli(["apply", "--db", db, "--as", COMPUTER, "-"], `${line}\n`))).toContain(
      `${COMPUTER} is played by the computer`,
    );
    expect(await ok(["log", "--db", db, "--json"])).toBe(before);
  });

  it("refuses a --computer value that names no player or level, and a campaign under fog of war (A2), creating nothing", async () => {
    const dir = await scratchDir("epicwar-computer-");
    const db = join(dir, "war");
    expect(expectOneLineError(await cli(["new", "--db", db, "--setup", ASHFALL, "--computer", "orcs"]))).toContain(
      "concord[:LEVEL] or horde[:LEVEL]",
    );
    expect(
      expectOneLineError(await cli(["new", "--db", db, "--setup", ASHFALL, "--computer", "horde:clever"])),
    ).toContain("scripted, searching");
    const emberfall = join(ASHFALL, "..", "emberfall.setup.json");
    expect(expectOneLineError(await cli(["new", "--db", db, "--setup", emberfall, "--computer", "horde"]))).toContain(
      "without fog of war (A2)",
    );
    expect(await readdir(dir)).toEqual([]);
    // On a shared database the computer's settings and secrets belong in the database, which a server keeps them in.
    expect(
      expectOneLineError(
        await cli([
          "new",
          "--db",
          db,
          "--store",
          "postgres://127.0.0.1:1/none",
          "--setup",
          ASHFALL,
          "--computer",
          "horde",
        ]),
      ),
    ).toContain("through a server (POST /campaigns with computer");
    expect(await readdir(dir)).toEqual([]);
  });

  it("a second new of a campaign against the computer is refused, its computer settings and log left as they were", async () => {
    const dir = await scratchDir("epicwar-computer-");
    const db = join(dir, "war");
    await ok(["new", "--db", db, "--setup", ASHFALL, "--computer", COMPUTER]);
    const settings = join(`${db}-computer`, "ashfall.json");
    const kept = await readFile(settings, "utf8");
    expect(JSON.parse(kept)).toMatchObject({ seat: COMPUTER, level: "scripted" });
    const before = await ok(["log", "--db", db, "--json"]);
    expect(expectOneLineError(await cli(["new", "--db", db, "--setup", ASHFALL, "--computer", HUMAN]))).toContain(
      "ashfall",
    );
    expect(await readFile(settings, "utf8")).toBe(kept);
    expect(await ok(["log", "--db", db, "--json"])).toBe(before);
  });
  it("B3, B4: rejects a reported result whose winner falls short of the VP target, naming the rule; confirms a fair one", async () => {
    const dir = await scratchDir("epicwar-computer-");
    const db = join(dir, "war");
    await ok(["new", "--db", db, "--setup", ASHFALL, "--computer", COMPUTER]);
    let state = await humanView(db);
    for (let given = 0; !(state.phase === "battle" && unreported(state)); given++) {
      expect(given).toBeLessThan(MAX_COMMANDS);
      await ok(["apply", "--db", db, "-"], `${JSON.stringify(humanCommand(state))}\n`);
      state = await humanView(db);
    }
    const battle = unreported(state)!;
    const fair = scriptedResult(state, battle);
    const humanSide = battle.attacker.player === HUMAN ? "attacker" : "defender";
    const cheat = {
      ...fair,
      outcome: humanSide,
      [humanSide]: { ...fair[humanSide], vp: battle.vpTarget - 1 },
      [humanSide === "attacker" ? "defender" : "attacker"]: {
        ...fair[humanSide === "attacker" ? "defender" : "attacker"],
        vp: 0,
      },
    };
    const report = (result: unknown) =>
      `${JSON.stringify({ actor: HUMAN, type: "ReportBattleResult", battle: battle.id, result })}\n`;
    const rejected = await ok(["apply", "--db", db, "-"], report(cheat));
    expect(rejected).toContain(`The computer (${COMPUTER}) rejects the result of ${battle.id}: B3:`);
    const afterReject = parseLog(await ok(["log", "--db", db, "--json"]));
    expect(afterReject.at(-1)).toMatchObject({ type: "BattleResultRejected", actor: COMPUTER });
    await ok(["apply", "--db", db, "-"], report(fair));
    const resolved = parseLog(await ok(["log", "--db", db, "--json"])).find(
      (e) => e.type === "BattleResolved" && e.data["battle"] === battle.id,
    );
    expect(resolved?.actor).toBe(COMPUTER);
  });
});

describe("epicwar duel", () => {
  it("plays level against level with the sides swapped every other campaign, and reports wins with their intervals", async () => {
    const run = await ok([
      "duel",
      "--setup",
      ASHFALL,
      "--levels",
      "scripted,searching",
      "--campaigns",
      "2",
      "--rounds",
      "1",
      "--json",
    ]);
    const report = JSON.parse(run) as {
      campaigns: number;
      draws: number;
      undecided: number;
      levels: Array<{
        level: string;
        wins: number;
        winRate: { share: number; low: number; high: number };
        decisions: number;
      }>;
      records: Array<{ number: number; sides: Record<string, string>; outcome: string | null }>;
    };
    expect(report.campaigns).toBe(2);
    expect(report.records.map((r) => r.sides)).toEqual([
      { concord: "scripted", horde: "searching" },
      { concord: "searching", horde: "scripted" },
    ]);
    const [scripted, searching] = report.levels;
    expect(scripted!.wins + searching!.wins + report.draws + report.undecided).toBe(2);
    for (const level of report.levels) {
      expect(level.decisions).toBeGreaterThan(0);
      expect(level.winRate.low).toBeLessThanOrEqual(level.winRate.share);
      expect(level.winRate.high).toBeGreaterThanOrEqual(level.winRate.share);
    }
  }, 120_000);

  it("B4 with --battles model, the host resolves every battle by the model and no side reports one; without it, the attacker reports the model's result", async () => {
    const battlesOf = async (extra: string[]) => {
      const run = await ok([
        "duel",
        "--setup",
        ASHFALL,
        "--levels",
        "scripted,scripted",
        "--campaigns",
        "2",
        ...extra,
        "--json",
      ]);
      return (
        JSON.parse(run) as { records: Array<{ battles: { resolvedByModel: number; reported: number } }> }
      ).records.map((r) => r.battles);
    };
    const modelled = await battlesOf(["--battles", "model"]);
    for (const battles of modelled) {
      expect(battles.reported).toBe(0);
      expect(battles.resolvedByModel).toBeGreaterThan(0);
    }
    for (const battles of await battlesOf([])) {
      expect(battles.resolvedByModel).toBe(0);
      expect(battles.reported).toBeGreaterThan(0);
    }
    expect(
      expectOneLineError(await cli(["duel", "--setup", ASHFALL, "--battles", "dice", "--campaigns", "1"])),
    ).toContain("give table (the players report) or model (the battle model)");
  }, 120_000);

  it("refuses levels it does not know, naming those it does, and rounds out of range", async () => {
    expect(
      expectOneLineError(await cli(["duel", "--setup", ASHFALL, "--levels", "scripted,clever", "--campaigns", "1"])),
    ).toContain("scripted, searching");
    expect(expectOneLineError(await cli(["duel", "--setup", ASHFALL, "--rounds", "0", "--campaigns", "1"]))).toContain(
      "--rounds takes a whole number from 1 to",
    );
  });
});
