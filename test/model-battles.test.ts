/**
 * B4 with `options.battles: "model"` (docs/rulings.md): a campaign created with `--battles model` has each battle
 * resolved by the host's step, the forecast's battle model drawing the result from the turn's dice (D1); the event,
 * the battle sheet and the timeline say so; the audit draws it again and finds a result changed after the fact; a
 * player's report is refused naming the rule, leaving the log as it was.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { auditCampaign, VERDICTS } from "../replays/audit.js";
import { ADVANCED_VERDICTS } from "../replays/audit-advanced.js";
import { loadAuditInput } from "../replays/audit-load.js";
import { renderAudit } from "../replays/audit-text.js";
import { Engine } from "../src/engine/engine.js";
import { eventOf, Scenario, sideResult } from "./battle-support.js";
import { cli, expectOneLineError, ok, parseLog, scratchDir } from "./support/campaign-cli.js";
import { ASHFALL, COMPUTER, HUMAN, humanCommand, humanView, MAX_COMMANDS } from "./support/computer-human.js";

const modelled = (events: ReturnType<typeof parseLog>) =>
  events.filter((e) => e.type === "BattleResolved" && (e.data as { resolvedBy?: string }).resolvedBy === "model");

describe("B4 battles resolved by the battle model", () => {
  it("plays a battle resolved by the model, marked in the log, the sheet and the timeline; the audit recomputes it", async () => {
    const dir = await scratchDir("epicwar-model-battles-");
    const db = join(dir, "war");
    await ok(["new", "--db", db, "--setup", ASHFALL, "--computer", COMPUTER, "--battles", "model"]);
    const created = parseLog(await ok(["log", "--db", db, "--json"])).find((e) => e.type === "CampaignCreated")!;
    expect((created.data as { options: { battles?: string } }).options.battles).toBe("model");
    let log = parseLog(await ok(["log", "--db", db, "--json"]));
    // Played until a battle is resolved and its turn has ended, so that the host's seed is out for the audit.
    for (let given = 0; !modelledTurnEnded(log); given++) {
      expect(given).toBeLessThan(MAX_COMMANDS);
      const state = await humanView(db);
      expect(state.status).toBe("active");
      await ok(["apply", "--db", db, "-"], `${JSON.stringify(humanCommand(state))}\n`);
      log = parseLog(await ok(["log", "--db", db, "--json"]));
    }
    const resolved = modelled(log)[0]!;
    const data = resolved.data as { battle: string; dice: number[]; firstDie: number };
    expect(resolved.actor).toBe("host");
    expect(data.dice.length).toBeGreaterThan(0);
    expect(log.some((e) => e.type === "BattleResultReported")).toBe(false);

    expect(await ok(["battle", "--db", db, "--as", HUMAN, data.battle])).toContain("resolved by the battle model");
    const timeline = await ok(["timeline", "--db", db, "--as", HUMAN]);
    expect(timeline).toContain(`battle ${data.battle}:`);
    expect(timeline).toContain("resolved by the battle model");
    await ok(["audit", "--db", db]);

    const before = await ok(["log", "--db", db, "--json"]);
    const result = (resolved.data as { result: unknown }).result;
    const report = { actor: HUMAN, type: "ReportBattleResult", battle: data.battle, result };
    const refused = await cli(["apply", "--db", db, "-"], `${JSON.stringify(report)}\n`);
    expect(expectOneLineError(refused)).toMatch(/B4.*resolved by the battle model/);
    expect(await ok(["log", "--db", db, "--json"])).toBe(before);

    const engine = await Engine.open(db, { sync: false });
    try {
      const input = await loadAuditInput(engine.store, "ashfall");
      const clean = auditCampaign(input);
      expect(clean.findings, renderAudit(clean).join("\n")).toEqual([]);
      const events = structuredClone(input.events);
      const tampered = events.find((e) => e.seq === resolved.seq)!.data as {
        result: { attacker: { vp: number } };
      };
      tampered.result.attacker.vp += 1;
      const findings = auditCampaign({ ...input, events }).findings.filter((f) => f.seqs.includes(resolved.seq));
      expect(findings.map((f) => [f.rule, f.verdict])).toContainEqual(["B4", ADVANCED_VERDICTS.modelMismatch]);
      const rerolled = structuredClone(input.events);
      const dice = (rerolled.find((e) => e.seq === resolved.seq)!.data as { dice: number[] }).dice;
      dice[0] = (dice[0]! % 10) + 1;
      const rolls = auditCampaign({ ...input, events: rerolled }).findings.filter((f) => f.seqs.includes(resolved.seq));
      expect(rolls.map((f) => [f.rule, f.verdict])).toContainEqual(["D1", VERDICTS.rollMismatch]);
    } finally {
      await engine.close();
    }
  });

  it("B4 the forecast (and so the searching level's search) plays on a campaign whose battles the model resolves, the host's step drawing each", async () => {
    const dir = await scratchDir("epicwar-model-forecast-");
    const db = join(dir, "war");
    await ok(["new", "--db", db, "--setup", ASHFALL, "--battles", "model"]);
    const report = JSON.parse(
      await ok(["forecast", "--db", db, "--runs", "4", "--turns", "3", "--seed", "model", "--json"]),
    ) as { runs: number; endings: unknown[] };
    expect(report.runs).toBe(4);
  });

  it("refuses --battles naming no way of resolving battles, creating nothing", async () => {
    const dir = await scratchDir("epicwar-model-battles-");
    const db = join(dir, "war");
    expect(expectOneLineError(await cli(["new", "--db", db, "--setup", ASHFALL, "--battles", "dice"]))).toContain(
      '--battles: "dice" is not a way to resolve battles (B4): give table',
    );
  });
});

describe("B4 the host's ResolveBattleByModel, decided", () => {
  const draw = sideResult({ outcome: "draw" });
  const resolve = (actor = "host") => ({
    type: "ResolveBattleByModel",
    actor,
    battle: "t1b1",
    dice: [3, 7, 1],
    result: draw,
  });

  it("B4 resolves a pending battle in a campaign whose battles the model resolves, recording its dice from the turn's next die", () => {
    const s = new Scenario("battle-ready.json", { options: { battles: "model" } }).startTurn().r1AttacksB1();
    const firstDie = s.state.turnState!.diceUsed;
    s.refused(
      { type: "ReportBattleResult", actor: "red", battle: "t1b1", result: draw },
      {
        rule: "B4",
        message: "resolved by the battle model",
      },
    );
    s.refused(resolve("red"), { field: "actor" });
    const resolved = eventOf(s.run(resolve()), "BattleResolved");
    expect(resolved).toMatchObject({ resolvedBy: "model", firstDie, dice: [3, 7, 1], result: draw, winner: null });
    expect(s.state.turnState!.diceUsed).toBe(firstDie + 3);
    expect(s.state.battles["t1b1"]!.resolvedBy).toBe("model");
    // Its only battle resolved, the turn's End phase has begun.
    expect(s.state.phase).toBe("end");
  });

  it("B4 refuses the host's modelled result in a campaign whose battles are fought on the table", () => {
    const s = new Scenario().startTurn().r1AttacksB1();
    s.refused(resolve(), { rule: "B4", message: "fought on the table" });
  });
});

function modelledTurnEnded(log: ReturnType<typeof parseLog>): boolean {
  const first = modelled(log)[0];
  return (
    !!first &&
    log.some(
      (e) => e.type === "TurnEnded" && (e.data as { turn: number }).turn === (first.data as { turn: number }).turn,
    )
  );
}
