import { afterEach, describe, expect, it } from "vitest";
import { HOST } from "../events/common.js";
import { engagement } from "../projections/engagement.js";
import { evolveAll } from "../projections/campaign.js";
import { scoutingBand } from "../projections/scouting.js";
import type { CampaignState } from "../projections/state.js";
import { sequenceRandomHex, turnSeeds } from "../src/client/prepare.js";
import { MemorySecrets } from "../src/client/secrets.js";
import { Table } from "../src/client/table.js";
import { decide } from "../src/engine/decide.js";
import { rollScouting } from "../src/crypto/dice.js";
import { Engine } from "../src/engine/engine.js";
import { stateOutput } from "../src/cli/commands/show.js";
import { ownHeldOrders } from "../src/views/view.js";
import { setupCommands } from "../src/setup/setup-file.js";
import { auditCampaign } from "../replays/audit.js";
import { loadAuditInput } from "../replays/audit-load.js";
import { renderAudit } from "../replays/audit-text.js";
import { mergePatch } from "./golden/format.js";
import { goldenSetup } from "./support/fixtures.js";

/** The label of the parties' fixed draws: its seeds give red the initiative of turn 1, which these tests start from. */
const SCOUTING_DICE = "golden-6";
import { tempDir } from "./support/tmp.js";

/** The time the commands here are decided at: none of their rules reads it (only O2's deadline does). */
const DECIDED_AT = "2026-01-01T00:00:00.000Z";

/**
 * A3 scouting through the engine and the players' side, on test/golden/fixtures/battle-ready.json with scouting on:
 * r1 (1,750 points, with outriders: scout units) stands three squares north of b1 (1,750) at (1,3).
 * With campaign id "scout6" red wins the initiative and the scouting dice are 4+1 (+2) against 4+4.
 */

let engine: Engine | undefined;
afterEach(async () => {
  await engine?.close();
  engine = undefined;
});

async function seated(campaign = "scout6"): Promise<{ table: Table; secrets: MemorySecrets }> {
  engine = await Engine.open(await tempDir("epicwar-scouting-"));
  const setup = mergePatch(goldenSetup("battle-ready.json"), {
    campaign,
    options: { advanced: { scouting: true } },
  }) as ReturnType<typeof goldenSetup>;
  const created = await engine.create(setupCommands(setup).map((step) => step.command));
  expect(created.ok).toBe(true);
  const secrets = new MemorySecrets();
  const table = new Table(engine, campaign, { secrets, random: sequenceRandomHex(SCOUTING_DICE) });
  await table.takeChores();
  return { table, secrets };
}

async function submit(table: Table, command: Record<string, unknown>): Promise<void> {
  const outcome = await table.submit(command);
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.refusal));
}

/** The state with a decided command folded in, for deciding what follows without the chores. */
function folded(state: CampaignState, command: Parameters<typeof decide>[1]): CampaignState {
  const decision = decide(state, command, DECIDED_AT);
  if (!decision.ok) throw new Error(JSON.stringify(decision.refusal));
  let seq = state.seq;
  return evolveAll(
    state,
    decision.events.map((event) => ({ ...event, seq: ++seq })),
  );
}

describe("A3 scouting bands", () => {
  it("A3 the bands by totals: 3x, 2x, a win, either way; a tie has no band (rerolled)", () => {
    expect(scoutingBand(12, 4)).toBe("scoutTriple");
    expect(scoutingBand(11, 4)).toBe("scoutDouble");
    expect(scoutingBand(8, 4)).toBe("scoutDouble");
    expect(scoutingBand(7, 4)).toBe("scoutWins");
    expect(scoutingBand(4, 7)).toBe("scoutedWins");
    expect(scoutingBand(4, 8)).toBe("scoutedDouble");
    expect(scoutingBand(4, 11)).toBe("scoutedDouble");
    expect(scoutingBand(4, 12)).toBe("scoutedTriple");
    expect(scoutingBand(6, 6)).toBeNull();
  });

  it("A3 B2 a scout winning by 3x takes every First Fire bonus; by 2x only the automatic initiative", () => {
    expect(engagement("advance", "firstFire", "scoutTriple")).toMatchObject({
      initiative: null,
      forwardCm: { attacker: 0, defender: 0 },
      deploysFirst: null,
    });
    expect(engagement("advance", "firstFire", "scoutDouble")).toMatchObject({
      initiative: null,
      forwardCm: { attacker: 0, defender: 15 },
    });
    expect(engagement("advance", "firstFire", "scoutWins")).toEqual(engagement("advance", "firstFire"));
    expect(engagement("advance", "firstFire", "scoutedWins")).toEqual(engagement("advance", "firstFire"));
  });

  it("A3 B2 a scouted army winning by 2x deploys 10 cm further and the attacker first; by 3x it may also dig in", () => {
    expect(engagement("advance", "firstFire", "scoutedDouble")).toMatchObject({
      initiative: { side: "defender", turns: [1] },
      forwardCm: { attacker: 0, defender: 25 },
      deploysFirst: "attacker",
    });
    expect(engagement("advance", "firstFire", "scoutedDouble").dugIn).toBeUndefined();
    expect(engagement("advance", "firstFire", "scoutedTriple")).toMatchObject({
      forwardCm: { defender: 25 },
      deploysFirst: "attacker",
      dugIn: true,
    });
  });

  it("A3 the scouting bands change nothing for a defender not on First Fire", () => {
    for (const band of ["scoutTriple", "scoutDouble", "scoutedDouble", "scoutedTriple"] as const) {
      expect(engagement("advance", "advance", band)).toEqual(engagement("advance", "advance"));
      expect(engagement("advance", "fortify", band)).toEqual(engagement("advance", "fortify"));
    }
  });
});

describe("A3 scouting through the engine", () => {
  it("A3 D1 the scouting roll the host records recomputes from the turn's seeds, after the initiative dice", async () => {
    const { table, secrets } = await seated();
    await submit(table, { actor: "red", type: "ChooseFirst", first: "red" });
    await submit(table, { actor: "red", type: "ScoutArmy", army: "r1", target: "b1" });
    const before = await table.state();
    await submit(table, { actor: "blue", type: "AnswerScouting", scouting: "t1s1", firstFire: false });
    const after = await table.state();
    const scouting = after.turnState!.scouting!.scoutings["t1s1"]!;
    const seeds = turnSeeds(after, (await secrets.hostSeed(1))!);
    const rounds = rollScouting(seeds, before.turnState!.diceUsed, 2, 0);
    expect(rounds).toEqual([{ scout: [1, 1], scouted: [3, 4] }]);
    expect(scouting.band).toBe("scoutedWins");
    expect(after.turnState!.diceUsed).toBe(before.turnState!.diceUsed + 4);
  });

  it("A3 the host's rounds must be ties (with bonuses) until the last, which may not be one", async () => {
    const { table } = await seated();
    await submit(table, { actor: "red", type: "ChooseFirst", first: "red" });
    await submit(table, { actor: "red", type: "ScoutArmy", army: "r1", target: "b1" });
    const answered = folded(await table.state(), { actor: "blue", type: "AnswerScouting", scouting: "t1s1" });
    const roll = (rounds: Array<{ scout: [number, number]; scouted: [number, number] }>) =>
      decide(answered, { actor: HOST, type: "RollScouting", scouting: "t1s1", rounds }, DECIDED_AT);
    expect(roll([{ scout: [2, 2], scouted: [3, 3] }])).toMatchObject({
      ok: false,
      refusal: { rule: "A3", message: expect.stringContaining("is a tie") },
    });
    expect(
      roll([
        { scout: [2, 2], scouted: [3, 4] },
        { scout: [6, 6], scouted: [1, 1] },
      ]),
    ).toMatchObject({ ok: false, refusal: { rule: "A3", message: expect.stringContaining("not a tie") } });
    expect(
      roll([
        { scout: [2, 2], scouted: [3, 3] },
        { scout: [6, 6], scouted: [1, 1] },
      ]),
    ).toMatchObject({ ok: true });
  });

  it("A3 the scouted player answers once, and only the scouted player answers or states the size", async () => {
    const { table } = await seated();
    await submit(table, { actor: "red", type: "ChooseFirst", first: "red" });
    await submit(table, { actor: "red", type: "ScoutArmy", army: "r1", target: "b1" });
    expect(await table.submit({ actor: "red", type: "AnswerScouting", scouting: "t1s1" })).toMatchObject({
      ok: false,
      refusal: { field: "actor" },
    });
    expect(await table.submit({ actor: "blue", type: "StateArmySize", scouting: "t1s1", points: 1750 })).toMatchObject({
      ok: false,
      refusal: { rule: "A3", message: expect.stringContaining("not been rolled") },
    });
    await submit(table, { actor: "blue", type: "AnswerScouting", scouting: "t1s1" });
    expect(await table.submit({ actor: "blue", type: "AnswerScouting", scouting: "t1s1" })).toMatchObject({
      ok: false,
      refusal: { rule: "A3", message: expect.stringContaining("already been answered") },
    });
    expect(await table.submit({ actor: "red", type: "StateArmySize", scouting: "t1s1", points: 1750 })).toMatchObject({
      ok: false,
      refusal: { field: "actor" },
    });
  });

  it("A3 nobody activates while a scouting is unfinished, and the scout moves next, with the order it revealed", async () => {
    const { table } = await seated();
    await submit(table, { actor: "red", type: "ChooseFirst", first: "red" });
    await submit(table, { actor: "red", type: "ScoutArmy", army: "r1", target: "b1" });
    const activateR2 = { actor: "red", type: "ActivateArmy", army: "r2", order: "advance", path: [] };
    expect(await table.submit(activateR2)).toMatchObject({
      ok: false,
      refusal: { rule: "A3", message: expect.stringContaining("is not finished") },
    });
    await submit(table, { actor: "blue", type: "AnswerScouting", scouting: "t1s1" });
    await submit(table, { actor: "blue", type: "StateArmySize", scouting: "t1s1", points: 3000 });
    expect(await table.submit(activateR2)).toMatchObject({
      ok: false,
      refusal: { rule: "A3", message: expect.stringContaining("has scouted and moves next") },
    });
    await submit(table, {
      actor: "red",
      type: "ActivateArmy",
      army: "r1",
      order: "advance",
      path: [
        [1, 1],
        [1, 2],
        [1, 3],
      ],
    });
    const state = await table.state();
    expect(state.battles["t1b1"]).toMatchObject({
      attacker: { army: "r1" },
      defender: { army: "b1" },
      scouting: "scoutedWins",
    });
  });

  it("A3 T5 a First Fire made public for the +2, attacked and never activated: the close of a claimed stall charges nothing and the audit finds nothing", async () => {
    const { table } = await seated();
    await submit(table, { actor: "red", type: "ChooseFirst", first: "red" });
    await submit(table, { actor: "red", type: "ScoutArmy", army: "r1", target: "b1" });
    await submit(table, { actor: "blue", type: "AnswerScouting", scouting: "t1s1", firstFire: true });
    await submit(table, { actor: "blue", type: "StateArmySize", scouting: "t1s1", points: 1750 });
    const attack = [
      [1, 1],
      [1, 2],
      [1, 3],
    ];
    await submit(table, { actor: "red", type: "ActivateArmy", army: "r1", order: "advance", path: attack });
    await submit(table, { actor: "red", type: "ClaimStall" });
    await submit(table, { actor: HOST, type: "CloseActionPhase" });

    const events = await engine!.store.readAll("scout6");
    const ended = events.find((event) => event.type === "ActionPhaseEnded")!;
    expect(ended.data).toMatchObject({ withheld: [], notActivated: ["r2", "b1", "b2"] });
    const state = await engine!.state("scout6");
    expect(state.violations).toEqual([]);
    expect(state.battles["t1b1"]).toMatchObject({ defender: { army: "b1", order: "firstFire" } });
    const report = auditCampaign(await loadAuditInput(engine!.store, "scout6"));
    expect(report.findings, renderAudit(report).join("\n")).toEqual([]);
  });

  it("A3 an army scouts each enemy army once", async () => {
    const { table } = await seated();
    await submit(table, { actor: "red", type: "ChooseFirst", first: "red" });
    await submit(table, { actor: "red", type: "ScoutArmy", army: "r1", target: "b1" });
    await submit(table, { actor: "blue", type: "AnswerScouting", scouting: "t1s1" });
    await submit(table, { actor: "blue", type: "StateArmySize", scouting: "t1s1", points: 1750 });
    expect(await table.submit({ actor: "red", type: "ScoutArmy", army: "r1", target: "b1" })).toMatchObject({
      ok: false,
      refusal: { rule: "A3", message: expect.stringContaining("has already scouted") },
    });
  });

  it("A3 a scout's Advance, made public by the scouting, is shown as such to both players, not as hidden", async () => {
    const { table, secrets } = await seated();
    await submit(table, { actor: "red", type: "ChooseFirst", first: "red" });
    await submit(table, { actor: "red", type: "ScoutArmy", army: "r1", target: "b1" });
    const state = await table.state();
    for (const viewer of ["red", "blue"]) {
      const r1 = stateOutput({ state }, viewer, await ownHeldOrders(state, viewer, secrets), false)
        .split("\n")
        .find((line) => /^\s+r1\s/.test(line));
      expect(r1, viewer).toContain("Advance (made public by scouting)");
    }
  });

  it("A3 a scout reveals Advance: a commitment that Advance and the salt do not open is refused", async () => {
    const { table } = await seated();
    await submit(table, { actor: "red", type: "ChooseFirst", first: "red" });
    const outcome = await table.submit({
      actor: "red",
      type: "ScoutArmy",
      army: "r1",
      target: "b1",
      commitment: "ab".repeat(32),
      salt: "cd".repeat(16),
    });
    expect(outcome).toMatchObject({
      ok: false,
      refusal: { rule: "A3", message: expect.stringContaining("does not hash to the commitment") },
    });
  });
});
