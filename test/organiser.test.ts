import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { StoredEvent } from "../events/index.js";
import { auditCampaign, VERDICTS, type AuditInput } from "../replays/audit.js";
import { loadAuditInput } from "../replays/audit-load.js";
import { sequenceRandomHex } from "../src/client/prepare.js";
import { MemorySecrets } from "../src/client/secrets.js";
import { Table } from "../src/client/table.js";
import { Engine, type Outcome } from "../src/engine/engine.js";
import { waitingOn } from "../src/rules/waiting-on.js";
import { loadSetupFile } from "../src/setup/setup-loader.js";
import { setupCommands } from "../src/setup/setup-file.js";
import { describeWaitingOn, waitingFor } from "../src/words/waiting.js";
import { nonEmptyLines, ok, scratchDir } from "./support/campaign-cli.js";
import { tempDir } from "./support/tmp.js";
import { Scenario, side } from "./battle-support.js";
import { turnOneBattles } from "./support/end-ready.js";

/**
 * The organiser's tools (docs/rulings.md O1, O2) through the whole engine, on a LevelDB of its own, with a clock the
 * test moves: pause and resume, the Action phase's deadline, the close at the deadline under the T5 stall ruling and
 * its audit, and what the campaign waits on. The set-up is test/golden/fixtures/action-close.json: turn 1 under way,
 * seeds and initiative taken; red's r1 can reach blue's b1 at (4,5) in one Charge.
 */

const FIXTURE = fileURLToPath(new URL("golden/fixtures/action-close.json", import.meta.url));
const START = Date.parse("2026-03-01T12:00:00Z");
const R1_INTO_B1 = [
  [4, 1],
  [4, 2],
  [4, 3],
  [4, 4],
  [4, 5],
];

/** Given: turn 1's Action phase, red to activate first; the clock at START until the test moves it. */
async function given() {
  let now = START;
  const engine = await Engine.open(join(await tempDir("epicwar-organiser-"), "db"), { clock: () => new Date(now) });
  const setup = await loadSetupFile(FIXTURE);
  const created = await engine.create(setupCommands(setup).map((step) => step.command));
  if (!created.ok) throw new Error(JSON.stringify(created.refusal));
  const table = new Table(engine, setup.campaign, {
    secrets: new MemorySecrets(),
    random: sequenceRandomHex("organiser"),
  });
  await table.takeChores();
  const winner = (await table.state()).turnState!.initiativeWinner!;
  await accepted(table.submit({ actor: winner, type: "ChooseFirst", first: "red" }));
  return {
    engine,
    table,
    campaign: setup.campaign,
    at: (iso: string) => (now = Date.parse(iso)),
    head: async () => (await engine.store.readAll(setup.campaign)).length,
    close: () => engine.close(),
  };
}

type Given = Awaited<ReturnType<typeof given>>;

/** Runs `then` on a fresh given(), closing its engine whatever happens. */
async function withGiven(then: (g: Given) => Promise<void>): Promise<void> {
  const g = await given();
  try {
    await then(g);
  } finally {
    await g.close();
  }
}

/** Given the host set the Action phase's deadline and red's r1 charged blue's b1 (battle t1b1), whose order is owed. */
async function attackUnderDeadline(g: Given, deadline: string): Promise<void> {
  await accepted(g.table.submit({ actor: "host", type: "SetActionDeadline", at: deadline }));
  await accepted(g.table.submit({ actor: "red", type: "ActivateArmy", army: "r1", order: "charge", path: R1_INTO_B1 }));
}

async function accepted(outcome: Promise<Outcome>): Promise<StoredEvent[]> {
  const done = await outcome;
  if (!done.ok) throw new Error(`refused: ${JSON.stringify(done.refusal)}`);
  return done.events;
}

/** Then the command is refused naming `expected`, and the log is as it was. */
async function refused(
  g: Given,
  command: object,
  expected: { rule?: string; field?: string; message: string },
): Promise<void> {
  const before = await g.head();
  const outcome = await g.table.submit(command);
  expect(outcome.ok, JSON.stringify(command)).toBe(false);
  if (outcome.ok) return;
  if (expected.rule) expect(outcome.refusal).toMatchObject({ kind: "rule", rule: expected.rule });
  if (expected.field) expect(outcome.refusal).toMatchObject({ kind: "field", field: expected.field });
  expect(outcome.refusal.message).toContain(expected.message);
  expect(await g.head(), "a refused command leaves the log as it was").toBe(before);
}

describe("O1 pause and resume", () => {
  it("O1 pause: while paused every command but the host's ResumeCampaign is refused naming O1, the log unchanged; resumed, play goes on", async () => {
    await withGiven(async (g) => {
      // When the host pauses with a reason
      const paused = await accepted(g.table.submit({ actor: "host", type: "PauseCampaign", reason: "server move" }));
      // The organiser's first command registers its own key in the same batch (D2)
      expect(paused.map((e) => [e.type, e.data])).toEqual([
        [
          "SeatKeyRegistered",
          { party: "organiser", publicKey: expect.stringMatching(/^[0-9a-f]{64}$/), replaces: null },
        ],
        ["CampaignPaused", { reason: "server move" }],
      ]);
      expect(waitingFor(await g.table.state())).toMatch(
        /^the host to resume the campaign, paused at seq \d+ \(server move\)/,
      );
      // Then players' and host's commands alike are refused, naming the pause and what is accepted
      const activation = { actor: "red", type: "ActivateArmy", army: "r1", order: "charge", path: R1_INTO_B1 };
      await refused(g, activation, { rule: "O1", message: "paused the campaign at seq" });
      await refused(g, activation, { rule: "O1", message: "(server move): it accepts no ActivateArmy" });
      await refused(g, { actor: "host", type: "CloseActionPhase" }, { rule: "O1", message: "ResumeCampaign" });
      await refused(g, { actor: "host", type: "PauseCampaign" }, { rule: "O1", message: "no PauseCampaign" });
      await refused(g, { actor: "red", type: "ResumeCampaign" }, { field: "actor", message: "only the host" });
      // When the host resumes, Then the same activation is accepted
      await accepted(g.table.submit({ actor: "host", type: "ResumeCampaign" }));
      expect((await g.table.state()).paused).toBeUndefined();
      await accepted(g.table.submit(activation));
    });
  });

  it("O1 resume: refused when the campaign is not paused; pause is the host's alone", async () => {
    await withGiven(async (g) => {
      await refused(g, { actor: "host", type: "ResumeCampaign" }, { rule: "O1", message: "is not paused" });
      await refused(g, { actor: "blue", type: "PauseCampaign" }, { field: "actor", message: "only the host" });
      await refused(
        g,
        { actor: "host", type: "PauseCampaign", reason: "" },
        { field: "reason", message: "must NOT have fewer than 1 characters" },
      );
    });
  });
});

describe("O2 the Action phase's deadline", () => {
  it("O2 SetActionDeadline: host only, later than the command's recorded time, a real date; kept in UTC and may be moved", async () => {
    await withGiven(async (g) => {
      const later = { actor: "host", type: "SetActionDeadline", at: "2026-03-02T18:00:00+01:00" };
      await refused(g, { ...later, actor: "red" }, { field: "actor", message: "only the host" });
      await refused(g, { ...later, at: "2026-03-01T12:00:00Z" }, { field: "at", message: "has passed" });
      await refused(g, { ...later, at: "2026-02-30T18:00:00Z" }, { field: "at", message: "no real date" });
      await refused(g, { ...later, at: "tomorrow" }, { field: "at", message: "must match pattern" });
      const set = await accepted(g.table.submit(later));
      expect(set.map((e) => [e.type, e.data])).toEqual([
        ["SeatKeyRegistered", expect.objectContaining({ party: "organiser", replaces: null })],
        ["ActionDeadlineSet", { turn: 1, deadline: "2026-03-02T17:00:00.000Z" }],
      ]);
      await accepted(g.table.submit({ ...later, at: "2026-03-03T09:00:00Z" }));
      expect((await g.table.state()).turnState!.actionDeadline).toBe("2026-03-03T09:00:00.000Z");
    });
  });

  it("T5 deadline: the host cannot close the waiting phase before its deadline; at it, the close records who was waited on and the audit agrees", async () => {
    await withGiven(async (g) => {
      // Given red attacked b1, blue never gives b1's order, and nobody claims the stall
      await attackUnderDeadline(g, "2026-03-02T12:00:00Z");
      // When the host closes a second before the deadline, Then it is refused, naming the deadline
      g.at("2026-03-02T11:59:59Z");
      await refused(
        g,
        { actor: "host", type: "CloseActionPhase" },
        { rule: "T3", message: "once its deadline, 2026-03-02T12:00:00.000Z, has passed (O2)" },
      );
      // When it closes at the deadline
      g.at("2026-03-02T12:00:00Z");
      const closed = await accepted(g.table.submit({ actor: "host", type: "CloseActionPhase" }));
      // Then the close names who was waited on, and the phase ends as after a claimed stall
      expect(closed.map((e) => e.type).slice(0, 2)).toEqual(["ActionDeadlineEnforced", "ActionPhaseEnded"]);
      expect(closed[0]!.data).toEqual({
        turn: 1,
        deadline: "2026-03-02T12:00:00.000Z",
        owed: [{ army: "b1", player: "blue", owes: "order", battle: "t1b1" }],
        notActivated: [
          { army: "r2", player: "red" },
          { army: "r3", player: "red" },
          { army: "b2", player: "blue" },
          { army: "b3", player: "blue" },
        ],
      });
      expect(closed[1]!.data).toEqual({ turn: 1, withheld: ["b1"], notActivated: ["r2", "r3", "b2", "b3"] });
      // And the audit judges the close by its recorded time: only blue's breach, no army "never activated" but b1
      const input = await loadAuditInput(g.engine.store, g.campaign);
      const report = auditCampaign(input);
      const verdicts = report.findings.map((f) => `${f.verdict} ${f.army ?? ""}`);
      expect(verdicts.filter((v) => !v.endsWith(" b1"))).toEqual([]);
      // And a log whose close is dated before the deadline is a finding (the rules refuse the close then)
      const early = "2026-03-02T11:00:00.000Z";
      const forged = {
        ...input,
        events: input.events.map((e) => (e.seq >= closed[0]!.seq && e.seq <= closed[1]!.seq ? { ...e, at: early } : e)),
      } as AuditInput;
      const refusedClose = auditCampaign(forged).findings.filter((f) => f.verdict === VERDICTS.derivedRefused);
      expect(refusedClose.map((f) => f.detail).join("\n")).toMatch(/CloseActionPhase.*T3.*deadline/);
    });
  });

  it("T5 deadline: a claimed stall still closes the phase before any deadline, with no deadline record", async () => {
    await withGiven(async (g) => {
      await attackUnderDeadline(g, "2026-03-09T12:00:00Z");
      await accepted(g.table.submit({ actor: "red", type: "ClaimStall" }));
      const closed = await accepted(g.table.submit({ actor: "host", type: "CloseActionPhase" }));
      expect(closed[0]!.type).toBe("ActionPhaseEnded");
    });
  });
});

describe("waitingOn: what the campaign waits on, per party", () => {
  it("waitingOn names the activations of the player to move, then the order owed; with the deadline, and the pause", async () => {
    await withGiven(async (g) => {
      const now = await g.table.state();
      expect(waitingOn(now).parties).toEqual({
        host: [],
        red: ["r1", "r2", "r3"].map((army) => ({ what: "activation", command: "ActivateArmy", army })),
        blue: [],
      });
      await attackUnderDeadline(g, "2026-03-02T12:00:00Z");
      const attacked = waitingOn(await g.table.state());
      expect(attacked).toEqual({
        parties: {
          host: [],
          red: [],
          blue: [{ what: "order", command: "ActivateArmy", army: "b1", battle: "t1b1" }],
        },
        actionDeadline: "2026-03-02T12:00:00.000Z",
      });
      expect(describeWaitingOn(attacked, new Date("2026-03-02T12:00:00Z"))).toEqual([
        "host: nothing",
        "red: nothing",
        "blue: the order of b1, attacked (battle t1b1) (ActivateArmy)",
        "The Action phase's deadline is 2026-03-02T12:00:00.000Z: it has passed, and the host may close the phase (CloseActionPhase).",
      ]);
      await accepted(g.table.submit({ actor: "host", type: "PauseCampaign" }));
      const paused = waitingOn(await g.table.state());
      expect(paused.parties).toEqual({ host: [{ what: "resume", command: "ResumeCampaign" }], red: [], blue: [] });
      expect(paused.paused).toMatchObject({ seq: expect.any(Number) });
    });
  });
});

describe("waitingOn through set-up, battles and the End phase", () => {
  it("waitingOn in set-up names each player's deployments, then the host's StartCampaign", () => {
    const s = new Scenario("placed.json");
    const waiting = waitingOn(s.state).parties;
    expect(waiting["host"]).toEqual([]);
    expect(waiting["red"]!.map((item) => [item.what, item.command])).toContainEqual(["deployment", "DeployArmy"]);
    const squares: Record<string, [number, number]> = { red: [1, 0], blue: [1, 7] };
    for (const army of Object.values(s.state.armies)) {
      const [x, y] = squares[army.player]!;
      s.run({ type: "DeployArmy", actor: army.player, army: army.id, at: [x, y] });
      squares[army.player] = [x + 1, y];
    }
    expect(waitingOn(s.state).parties).toEqual({
      host: [{ what: "campaignStart", command: "StartCampaign" }],
      red: [],
      blue: [],
    });
  });

  it("B4 waitingOn in the Battle phase of a campaign whose battles the model resolves names the host's ResolveBattleByModel for each battle, and no player", () => {
    const fought = structuredClone(turnOneBattles().state);
    fought.setup!.options.battles = "model";
    expect(waitingOn(fought).parties).toEqual({
      host: [
        { what: "modelledBattle", command: "ResolveBattleByModel", battle: "t1b1" },
        { what: "modelledBattle", command: "ResolveBattleByModel", battle: "t1b2" },
      ],
      red: [],
      blue: [],
    });
    expect(describeWaitingOn(waitingOn(fought), new Date(START))[0]).toBe(
      "host: to resolve battle t1b1 by the battle model (ResolveBattleByModel); to resolve battle t1b2 by the battle model (ResolveBattleByModel)",
    );
  });

  it("waitingOn in the Battle phase names both sides of a battle unreported, then the side that must confirm; in the End phase each player, then the host", () => {
    const s = turnOneBattles();
    expect(waitingOn(s.state).parties["red"]).toEqual([
      { what: "battleResult", command: "ReportBattleResult", battle: "t1b1" },
      { what: "battleResult", command: "ReportBattleResult", battle: "t1b2" },
    ]);
    const draw = { outcome: "draw", attacker: side(10), defender: side(10) };
    s.run({ type: "ReportBattleResult", actor: "red", battle: "t1b1", result: draw });
    const reported = waitingOn(s.state).parties;
    expect(reported["red"]).toEqual([{ what: "battleResult", command: "ReportBattleResult", battle: "t1b2" }]);
    expect(reported["blue"]).toEqual([
      { what: "resultConfirmation", command: "ConfirmBattleResult", battle: "t1b1" },
      { what: "battleResult", command: "ReportBattleResult", battle: "t1b2" },
    ]);
    s.run({ type: "ConfirmBattleResult", actor: "blue", battle: "t1b1" });
    s.fight("t1b2", { outcome: "defender" });
    expect(waitingOn(s.state).parties).toEqual({
      host: [],
      red: [{ what: "endPhase", command: "FinishEndPhase" }],
      blue: [{ what: "endPhase", command: "FinishEndPhase" }],
    });
    s.finishEndPhase();
    expect(waitingOn(s.state).parties).toEqual({ host: [{ what: "turnEnd", command: "EndTurn" }], red: [], blue: [] });
    s.endTurn();
    expect(waitingOn(s.state).parties).toEqual({
      host: [],
      red: [{ what: "seedCommitment", command: "CommitSeed" }],
      blue: [{ what: "seedCommitment", command: "CommitSeed" }],
    });
  });
});

describe("epicwar waiting", () => {
  it("epicwar waiting prints, per party, what the campaign waits on and the command that gives it; --json the same as data", async () => {
    const dir = await scratchDir("epicwar-waiting-");
    const db = join(dir, "db");
    await ok(["new", "--db", db, "--setup", FIXTURE]);
    const winner = (
      JSON.parse(await ok(["state", "--db", db, "--json"])) as { turnState: { initiativeWinner: string } }
    ).turnState.initiativeWinner;
    expect(nonEmptyLines(await ok(["waiting", "--db", db]))).toEqual([
      "host: nothing",
      `red: ${winner === "red" ? "to choose who activates first (won initiative) (ChooseFirst)" : "nothing"}`,
      `blue: ${winner === "blue" ? "to choose who activates first (won initiative) (ChooseFirst)" : "nothing"}`,
    ]);
    const json = JSON.parse(await ok(["waiting", "--db", db, "--json"])) as { parties: Record<string, unknown[]> };
    expect(json.parties[winner]).toEqual([{ what: "firstChoice", command: "ChooseFirst" }]);
  });
});
