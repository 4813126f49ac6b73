/**
 * The audit (replays/audit.ts, `epicwar audit`) on honest campaigns: the demo's scripted commanders playing Ashfall
 * with a Table and in-memory secrets; the dice checked against docs/fair-dice.md by an implementation written from
 * that page alone; `--turn`; and end to end through the CLI (run in this process) on a real LevelDB,
 * untouched and with one stored event edited with the `level` API as a host with file access would.
 */
import { createHash, createHmac } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Level } from "level";
import { beforeAll, describe, expect, it } from "vitest";
import { auditCampaign, VERDICTS, type AuditInput, type AuditReport } from "../replays/audit.js";
import { loadAuditInput } from "../replays/audit-load.js";
import { renderAudit } from "../replays/audit-text.js";
import { MemorySecrets } from "../src/client/secrets.js";
import { Table } from "../src/client/table.js";
import { playCampaign } from "../src/demo/play.js";
import { rollDie, rollInitiative } from "../src/crypto/dice.js";
import { Engine } from "../src/engine/engine.js";
import { sha256Hex } from "../src/log/hash.js";
import { runInProcess, show, type Run } from "./support/cli.js";
import { loadSetupFile } from "../src/setup/setup-loader.js";
import { setupCommands } from "../src/setup/setup-file.js";
import { tempDir } from "./support/tmp.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const ASHFALL = join(ROOT, "examples", "ashfall.setup.json");
const READY = join(ROOT, "test", "golden", "fixtures", "ready.json");
const CLOCK = () => new Date("2026-01-01T00:00:00.000Z");

// ---------------------------------------------------------------------------------------------------------------
// The dice as docs/fair-dice.md states them, written from the page, not from src/crypto/dice.ts.

function specDie(campaign: string, turn: number, hostSeed: string, playerSeeds: string[], index: number): number {
  for (let block = 0; ; block++) {
    const message = `epicwar-die|${campaign}|${turn}|${index}|${playerSeeds.join("|")}|${block}`;
    const digest = createHmac("sha256", Buffer.from(hostSeed, "utf8")).update(Buffer.from(message, "utf8")).digest();
    for (const byte of digest) if (byte < 252) return (byte % 6) + 1;
  }
}

function specInitiative(
  campaign: string,
  turn: number,
  hostSeed: string,
  seeds: Record<string, string>,
  players: string[],
  firstDie: number,
) {
  const rounds: Array<Record<string, number>> = [];
  let die = firstDie;
  const ordered = players.map((p) => seeds[p]!);
  for (;;) {
    const round = Object.fromEntries(players.map((p, j) => [p, specDie(campaign, turn, hostSeed, ordered, die + j)]));
    die += players.length;
    rounds.push(round);
    if (new Set(Object.values(round)).size === players.length) return rounds;
  }
}

describe("D1 the dice follow docs/fair-dice.md", () => {
  const HOST = "11".repeat(32);
  const SEEDS = ["aa".repeat(32), "bb".repeat(32)];
  const seeds = (turn: number) => ({ campaign: "example", turn, hostSeed: HOST, playerSeeds: SEEDS });

  it("D1 the page's test vectors: commitment, digests, faces and initiative", () => {
    expect(createHash("sha256").update(HOST).digest("hex")).toBe(
      "3138bb9bc78df27c473ecfd1410f7bd45ebac1f59cf3ff9cfe4db77aab7aedd3",
    );
    const digest = createHmac("sha256", HOST)
      .update(`epicwar-die|example|1|0|${SEEDS.join("|")}|0`)
      .digest("hex");
    expect(digest.startsWith("5433037de0287fe8")).toBe(true);
    const faces = [0, 1, 2, 3, 4, 5].map((i) => specDie("example", 1, HOST, SEEDS, i));
    expect(faces).toEqual([1, 6, 6, 6, 4, 6]);
    expect(faces).toEqual([0, 1, 2, 3, 4, 5].map((i) => rollDie(seeds(1), i)));
    expect(rollInitiative(seeds(1), ["red", "blue"], 0)).toEqual([{ red: 1, blue: 6 }]);
    expect(rollInitiative(seeds(20), ["red", "blue"], 0)).toEqual([
      { red: 5, blue: 5 },
      { red: 3, blue: 2 },
    ]);
  });

  it("D1 src/crypto/dice.ts agrees with the page on many seeds, indices and turns", () => {
    for (let n = 0; n < 300; n++) {
      const host = sha256Hex(`h${n}`);
      const players = [sha256Hex(`a${n}`), sha256Hex(`b${n}`)];
      const input = { campaign: `c-${n % 7}`, turn: 1 + (n % 13), hostSeed: host, playerSeeds: players };
      expect(rollDie(input, n)).toBe(specDie(input.campaign, input.turn, host, players, n));
    }
  });

  it("D1 rejection sampling: over many dice every face comes up about equally often", () => {
    const counts = [0, 0, 0, 0, 0, 0];
    for (let i = 0; i < 6000; i++) counts[rollDie(seeds(3), i) - 1]!++;
    for (const count of counts) {
      expect(count).toBeGreaterThan(850);
      expect(count).toBeLessThan(1150);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------

/** Ashfall played by the demo's scripted commanders for `turns` turns, on a temp LevelDB; the next turn left open. */
async function playedDemo(turns: number): Promise<{ input: AuditInput; report: AuditReport }> {
  const engine = await Engine.open(await tempDir("epicwar-audit-"), { clock: CLOCK });
  try {
    const setup = await loadSetupFile(ASHFALL);
    const created = await engine.create(setupCommands(setup).map((step) => step.command));
    if (!created.ok) throw new Error(JSON.stringify(created.refusal));
    let counter = 0;
    const random = (bytes: number) =>
      sha256Hex(`audit-demo-${counter++}`)
        .repeat(2)
        .slice(0, bytes * 2);
    const table = new Table(engine, setup.campaign, { secrets: new MemorySecrets(), random });
    await playCampaign(table, () => {}, turns);
    const input = await loadAuditInput(engine.store, setup.campaign);
    return { input, report: auditCampaign(input) };
  } finally {
    await engine.close();
  }
}

describe("the audit of an honest campaign", () => {
  let demo: { input: AuditInput; report: AuditReport };
  beforeAll(async () => {
    demo = await playedDemo(3);
  });

  it("D1 T3 T4 T5 a demo campaign played honestly is all ok: chain, every army, every roll", () => {
    const { report } = demo;
    const text = renderAudit(report).join("\n");
    expect(report.findings, text).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.chain).toMatchObject({ ok: true, events: report.events });
    expect(report.turns.map((t) => t.turn)).toEqual([1, 2, 3, 4]);
    // Each turn's initiative and, from turn 2, its battles' kit rolls (K2, K3, K5).
    const rolls = report.turns.reduce((sum, turn) => sum + turn.rolls.length, 0);
    expect(rolls).toBeGreaterThan(4);
    expect(text).toMatch(
      new RegExp(
        `^Result: ok: 4 turns, \\d+ activations, ${rolls} rolls checked, everything recomputes; \\d+ pending`,
        "m",
      ),
    );
    for (const turn of report.turns.slice(0, 3)) {
      expect(turn).toMatchObject({ state: "ended", hostSeedStatus: "ok", findings: [] });
      expect(turn.armies.length).toBeGreaterThan(0);
      for (const army of turn.armies)
        expect(army, `${army.army} in turn ${turn.turn}`).toMatchObject({ status: "ok", verdicts: ["ok"] });
    }
    expect(
      report.turns
        .slice(0, 3)
        .flatMap((t) => t.armies)
        .some((a) => a.squares > 0),
    ).toBe(true);
  });

  it("D1 every roll of an ended turn recomputes, and agrees with the page's own dice", () => {
    const { report } = demo;
    const players = report.turns[0]!.rolls[0]!.inputs.playerSeeds.map((s) => s.player);
    for (const turn of report.turns.slice(0, 3)) {
      // The turn's first roll is its initiative; the battle kit's rolls follow it.
      expect(turn.rolls.filter((r) => r.kind === "initiative")).toHaveLength(1);
      const roll = turn.rolls[0]!;
      if (roll.kind !== "initiative") throw new Error(`turn ${turn.turn}'s first roll is ${roll.kind}`);
      expect(roll).toMatchObject({ status: "ok", verdict: "ok", firstDie: 0 });
      expect(roll.recomputed).toEqual(roll.rounds);
      const seeds = Object.fromEntries(roll.inputs.playerSeeds.map((s) => [s.player, s.seed!]));
      expect(specInitiative("ashfall", turn.turn, roll.inputs.hostSeed!, seeds, players, 0)).toEqual(roll.rounds);
      expect(sha256Hex(turn.hostSeed!.seed)).toBe(turn.commitments[0]!.hostSeedHash);
    }
  });

  it("D1 T5 the turn under way shows pending items, not failures", () => {
    const open = demo.report.turns[3]!;
    expect(open).toMatchObject({
      state: "under way",
      hostSeed: null,
      hostSeedStatus: "pending",
      hostSeedVerdict: "pending: host seed not yet revealed",
    });
    expect(open.rolls[0]).toMatchObject({
      status: "pending",
      verdict: "pending: host seed not yet revealed",
      recomputed: null,
    });
    expect(demo.report.pending).toBeGreaterThan(0);
  });

  it("the audit recomputes engaged activations and stacked armies of the demo without a finding", () => {
    const armies = demo.report.turns.flatMap((t) => t.armies);
    expect(armies.some((a) => a.activation.engaged)).toBe(true);
    expect(armies.some((a) => a.activation.stacked)).toBe(true);
  });

  it("--turn N narrows the report to that turn, and its verdict with it", () => {
    const { input } = demo;
    const two = auditCampaign(input, { turn: 2 });
    expect(two.turnFilter).toBe(2);
    expect(two.turns.map((t) => t.turn)).toEqual([2]);
    expect(renderAudit(two).join("\n")).toContain("turn 2 only");
    expect(renderAudit(two).join("\n")).not.toContain("Turn 1 (");

    // The same log with turn 1's roll changed in memory (the audit is a pure function of the events).
    const forged = {
      ...input,
      events: input.events.map((event) =>
        event.type === "InitiativeRolled" && event.data.turn === 1
          ? { ...event, data: { ...event.data, rounds: [{ concord: 6, horde: 1 }], winner: "concord" } }
          : event,
      ),
    } as AuditInput;
    const whole = auditCampaign(forged);
    expect(whole.ok).toBe(false);
    expect(whole.findings.map((f) => f.verdict)).toContain(VERDICTS.rollMismatch);
    expect(auditCampaign(forged, { turn: 1 }).ok).toBe(false);
    expect(auditCampaign(forged, { turn: 2 }).ok).toBe(true);
    expect(auditCampaign(forged, { turn: 99 }).turns).toEqual([]);
  });
});

describe("the audit of a branch", () => {
  it("reads a branch as its line: the parent's events up to the fork, then its own", async () => {
    const engine = await Engine.open(await tempDir("epicwar-audit-branch-"), { clock: CLOCK });
    try {
      const setup = await loadSetupFile(ASHFALL);
      await engine.create(setupCommands(setup).map((step) => step.command));
      let counter = 0;
      const random = (bytes: number) =>
        sha256Hex(`audit-branch-${counter++}`)
          .repeat(2)
          .slice(0, bytes * 2);
      await playCampaign(new Table(engine, "ashfall", { secrets: new MemorySecrets(), random }), () => {}, 1);
      const main = auditCampaign(await loadAuditInput(engine.store, "ashfall"));
      const fork = main.turns[1]!.firstSeq; // turn 2's TurnStarted
      await engine.store.createBranch("ashfall.what-if", "ashfall", fork);
      const branch = auditCampaign(await loadAuditInput(engine.store, "ashfall.what-if"));
      expect(branch).toMatchObject({
        campaign: "ashfall",
        stream: "ashfall.what-if",
        events: fork,
        ok: true,
        chain: { ok: true, events: fork },
      });
      expect(branch.turns.map((t) => [t.turn, t.state])).toEqual([
        [1, "ended"],
        [2, "under way"],
      ]);
      expect(branch.turns[0]).toEqual(main.turns[0]);
    } finally {
      await engine.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// End to end through the CLI, run in this process (src/cli/run.ts)

const cli = (args: string[]): Promise<Run> => runInProcess(args);

const lines = (text: string) => text.split("\n").filter((line) => line.trim() !== "");

/** Exit code and exactly one line on stderr, no stack trace. */
function oneLineError(run: Run, code: number): string {
  expect(run.code, show(run)).toBe(code);
  expect(lines(run.stderr), show(run)).toHaveLength(1);
  expect(run.stderr).toMatch(/^epicwar: /);
  expect(run.stderr).not.toContain("internal error");
  return lines(run.stderr)[0]!;
}

describe("epicwar audit", () => {
  it("exits 0 on the untouched demo, and 2 naming the seq once one stored event is edited in LevelDB", async () => {
    const db = join(await tempDir("epicwar-audit-cli-"), "db");
    expect((await cli(["demo", "--db", db])).code).toBe(0);

    const clean = await cli(["audit", "--db", db]);
    expect(clean.code, show(clean)).toBe(0);
    expect(clean.stderr).toBe("");
    expect(clean.stdout).toMatch(/^chain: ok, \d+ events, head [0-9a-f]{64}$/m);
    expect(clean.stdout).toMatch(/^Turn 1 \(seq \d+-\d+, ended\)$/m);
    expect(clean.stdout).toMatch(/^ {2}roll seq \d+: initiative, dice 0-\d+: .*: ok$/m);
    expect(clean.stdout).toMatch(/^Result: ok: /m);
    expect(clean.stdout).not.toContain("! ");

    const json = await cli(["audit", "--db", db, "--json"]);
    expect(json.code, show(json)).toBe(0);
    expect(lines(json.stdout)).toHaveLength(1);
    const report = JSON.parse(json.stdout) as AuditReport;
    expect(report).toMatchObject({ campaign: "ashfall", ok: true, findings: [], chain: { ok: true } });
    const activated = report.turns[1]!.armies[0]!.activation.seq;

    const turn = await cli(["audit", "--db", db, "--turn", "2"]);
    expect(turn.code, show(turn)).toBe(0);
    expect(turn.stdout).toMatch(/^Turn 2 \(/m);
    expect(turn.stdout).not.toMatch(/^Turn [13] \(/m);

    // A host with the folder changes turn 2's first activation's commitment, keeping the stored hash in front of it.
    const level = new Level<string, string>(db, { valueEncoding: "utf8" });
    await level.open({ createIfMissing: false });
    try {
      const events = level.sublevel<string, string>("events", { valueEncoding: "utf8" });
      const key = `ashfall#${String(activated).padStart(12, "0")}`;
      const value = (await events.get(key))!;
      const body = JSON.parse(value.slice(64)) as { type: string; data: { commitment: string } };
      expect(body.type).toBe("ArmyActivated");
      body.data.commitment = sha256Hex("another order");
      await events.put(key, value.slice(0, 64) + JSON.stringify(body));
    } finally {
      await level.close();
    }

    const broken = await cli(["audit", "--db", db]);
    const error = oneLineError(broken, 2);
    expect(error).toContain(`chain broken at seq ${activated}`);
    expect(broken.stdout).toContain(`chain: chain broken at seq ${activated} (hash)`);
    expect(broken.stdout).toMatch(new RegExp(`^! chain broken at seq ${activated}: `, "m"));
    // The changed commitment no longer matches the reveal either: the audit recomputes it.
    expect(broken.stdout).toContain("! reveal does not match commitment");

    const brokenJson = await cli(["audit", "--db", db, "--json", "--turn", "3"]);
    expect(brokenJson.code, show(brokenJson)).toBe(2);
    expect(JSON.parse(brokenJson.stdout)).toMatchObject({
      ok: false,
      chain: { ok: false, seq: activated, problem: "hash" },
      turnFilter: 3,
    });
  });

  it("exits 0 on a running campaign, its open turn pending; refuses a bad --turn in one line", async () => {
    const db = join(await tempDir("epicwar-audit-cli-"), "db");
    expect((await cli(["new", "--db", db, "--setup", READY])).code).toBe(0);
    const open = await cli(["audit", "--db", db]);
    expect(open.code, show(open)).toBe(0);
    expect(open.stdout).toMatch(/^Turn 1 \(seq \d+-\d+, under way\)$/m);
    expect(open.stdout).toContain("host seed: committed seq");
    expect(open.stdout).toMatch(/roll seq \d+: .*host seed secret.*: pending: host seed not yet revealed$/m);
    expect(open.stdout).toMatch(/^Result: ok: .*pending/m);

    // A head recorded from verify's output must still be in the log.
    const verified = await cli(["verify", "--db", db]);
    const [, events, head] = /intact, (\d+) events, head ([0-9a-f]{16})/.exec(verified.stdout)!;
    const kept = await cli(["audit", "--db", db, "--head", `${events}:${head}`, "--head", head!]);
    expect(kept.code, show(kept)).toBe(0);
    const rewritten = await cli(["audit", "--db", db, "--head", `${events}:${"0".repeat(16)}`]);
    expect(oneLineError(rewritten, 2)).toContain(`recorded head not in the log [seq ${events}]`);

    // Only the first of these opens the database (one process at a time may); the others fail before.
    const [late, word, badHead, nowhere] = await Promise.all([
      cli(["audit", "--db", db, "--turn", "9"]),
      cli(["audit", "--db", db, "--turn", "two"]),
      cli(["audit", "--db", db, "--head", "xyz"]),
      cli(["audit", "--db", join(db, "nowhere")]),
    ]);
    expect(oneLineError(late!, 1)).toContain("turn 9 of golden has not started (turns 1-1 have)");
    expect(oneLineError(word!, 1)).toContain("--turn must be a turn number");
    expect(oneLineError(badHead!, 1)).toContain("--head must be a head hash");
    expect(oneLineError(nowhere!, 1)).toContain("no campaign database");
  });
});
