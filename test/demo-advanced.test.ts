/**
 * `epicwar demo --advanced` through the CLI (run in this process): the bundled Emberfall campaign, every advanced
 * option A1-A8 on, played by the demo's scripted commanders to its end on a real LevelDB in a temp folder, with no
 * refusal and no violation, using the advanced rules on the way; the audit agrees.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { toCurrent, type StoredEvent } from "../events/index.js";
import { replay } from "../projections/campaign.js";
import {
  cli,
  nonEmptyLines,
  ok,
  parseLog,
  scratchDir,
  show,
  type LoggedEvent,
  type Run,
} from "./support/campaign-cli.js";

/** A3: how far a stated size may lie from the truth, by band (RULES.md A3). */
const BLUFF_MARGIN: Record<string, number> = {
  scoutTriple: 0,
  scoutDouble: 0,
  scoutWins: 1000,
  scoutedWins: 2000,
  scoutedDouble: 3000,
  scoutedTriple: 4000,
};

describe("demo --advanced: Emberfall played to its end with every advanced rule on", () => {
  let db: string;
  let demo: Run;
  let log: LoggedEvent[];
  let audit: Run;
  let verify: Run;
  const ofType = (type: string) => log.filter((event) => event.type === type);
  /** The campaign as these logged events leave it (folded from copies: a fold may freeze what it is given). */
  const stateAfter = (events: LoggedEvent[]) =>
    replay(structuredClone(events).map((e) => toCurrent(e as unknown as StoredEvent)));

  beforeAll(async () => {
    db = join(await scratchDir("epicwar-demo-advanced-"), "db");
    demo = await cli(["demo", "--advanced", "--db", db]);
    log = parseLog(await ok(["log", "--db", db, "--json"]));
    audit = await cli(["audit", "--db", db, "--campaign", "emberfall"]);
    verify = await cli(["verify", "--db", db]);
  }, 180_000);

  it("A1-A8 the demo exits 0 and ends with a winner, a draw or the turn limit, with no refusal", () => {
    expect(demo.code, show(demo)).toBe(0);
    expect(demo.stderr).toBe("");
    expect(demo.stdout).toMatch(
      /^(.+ win the campaign in turn \d+\.|The campaign ends in a draw in turn \d+\.|No side reached \d+ CVPs in \d+ turns\.)$/m,
    );
    const turns = [...demo.stdout.matchAll(/^== Turn (\d+) ==$/gm)].map((m) => Number(m[1]));
    expect(turns, "turn headings count up from 1").toEqual(turns.map((_, i) => i + 1));
    expect(turns.length, "more than one turn").toBeGreaterThan(1);
  });

  it("T5 S7 the log holds no violation and no rejected reveal", () => {
    expect(ofType("OrderViolated").map((e) => e.data)).toEqual([]);
    expect(ofType("RevealRejected").map((e) => e.data)).toEqual([]);
    expect(demo.stdout).not.toContain("CHEATING");
  });

  it("D1 the log's hash chain is intact: the demo's own check and verify agree", () => {
    expect(demo.stdout).toMatch(
      new RegExp(`^Hash chain: emberfall: intact, ${log.length} events, head [0-9a-f]{16}$`, "m"),
    );
    expect(verify.code, show(verify)).toBe(0);
    expect(verify.stdout).toMatch(new RegExp(`^emberfall: intact, ${log.length} events`, "m"));
  });

  it("A8 the war chest earns income each End phase and the players spend it", () => {
    const income = ofType("WarChestIncomeRecorded");
    expect(
      income.some((e) => e.data["change"] > 0),
      "some income",
    ).toBe(true);
    const spent = log.filter(
      (e) =>
        ["FormationsPurchased", "ArmyPurchased", "DefencesPurchased", "TitanRepaired"].includes(e.type) ||
        (e.type === "SupportPurchased" && e.data["paidFrom"] === "warChest"),
    );
    expect(spent.length, "war-chest purchases").toBeGreaterThan(0);
    expect(
      income.every((e) => e.data["balance"] >= 0),
      "never below 0",
    ).toBe(true);
  });

  it("A8 titan damage from battle results is carried and repaired from the war chest", () => {
    expect(ofType("TitanDamageCarried").length).toBeGreaterThan(0);
    expect(ofType("TitanRepaired").length).toBeGreaterThan(0);
  });

  it("A7 off-table support is bought, called in in a battle result, and struck off the roster", () => {
    const bought = new Set(ofType("SupportPurchased").map((e) => `${e.data["player"]}/${e.data["item"]}`));
    expect(bought.size).toBeGreaterThan(0);
    const expended = ofType("SupportExpended").flatMap((e) =>
      (e.data["items"] as string[]).map((item) => `${e.data["player"]}/${item}`),
    );
    expect(expended.length).toBeGreaterThan(0);
    for (const item of expended) expect(bought, item).toContain(item);
    const reported = ofType("BattleResultReported").filter(
      (e) => e.data["result"].attacker.support || e.data["result"].defender.support,
    );
    expect(reported.length).toBeGreaterThan(0);
  });

  it("A6 commanders are killed, promoted or appointed, and no army is left without one", () => {
    const events = log.filter(
      (e) =>
        ["CommanderKilled", "CommanderPromoted", "CommanderStoodDown"].includes(e.type) ||
        (e.type === "CommanderAppointed" && e.data["turn"] > 0),
    );
    expect(events.length).toBeGreaterThan(0);
    const final = stateAfter(log);
    const leaderless = Object.values(final.armies).filter(
      (army) => army.status === "active" && army.commanderLevel === null,
    );
    expect(leaderless.map((army) => army.id)).toEqual([]);
  });

  it("A3 an army scouts before it moves: the dice are rolled and the size stated lies within the band", () => {
    const declared = ofType("ScoutingDeclared");
    expect(declared.length).toBeGreaterThan(0);
    const rolled = new Map(
      ofType("ScoutingRolled").map((e) => [e.data["scouting"] as string, e.data["band"] as string]),
    );
    const stated = ofType("ArmySizeStated");
    expect(stated.length).toBe(declared.length);
    for (const statement of stated) {
      const band = rolled.get(statement.data["scouting"]);
      expect(band, String(statement.data["scouting"])).toBeDefined();
      // The army's true size when the size was stated, from the events before the statement.
      const before = stateAfter(log.filter((e) => e.seq < statement.seq));
      const truth = before.armies[statement.data["army"]]!.points;
      expect(Math.abs(statement.data["points"] - truth), `${statement.data["scouting"]} (${band})`).toBeLessThanOrEqual(
        BLUFF_MARGIN[band!]!,
      );
    }
  });

  it("A3 A8 the audit recomputes everything and exits 0", () => {
    expect(audit.code, show(audit)).toBe(0);
    expect(nonEmptyLines(audit.stdout).at(-1)).toMatch(/^Result: ok/);
  });
});
