/**
 * Ways to cheat, each shown refused by the engine or reported by the audit (replays/audit.ts) with the right verdict
 * and the seq of the event that shows it. Real LevelDB in temp folders, driven through Engine + Table as the CLI
 * drives them; a malicious host who bypasses the rules writes events straight into the log with `store.append`
 * (schema-valid, correctly chained), and one with file access edits the LevelDB folder with the `level` API.
 *
 * Fixtures: test/golden/fixtures/ready.json (12 x 8 map; red r1 (1,0) and r2 (6,0) on the north edge, blue b1 (2,7)
 * and b2 (4,7) on the south edge, far apart: no battle unless a test makes one; r1 has move rate 3) and
 * action-close.json (armies within reach of each other on turn 1).
 */
import { join } from "node:path";
import { Level } from "level";
import { afterEach, describe, expect, it } from "vitest";
import { HOST, type Order, type Square } from "../events/common.js";
import { catalogue, type DomainEvent, type EventData, type StoredEvent } from "../events/index.js";
import type { CampaignState } from "../projections/state.js";
import { VERDICTS, type AuditReport, type Finding, type Verdict } from "../replays/audit.js";
import { auditStream } from "../replays/audit-load.js";
import { renderAudit } from "../replays/audit-text.js";
import { turnSeeds } from "../src/client/prepare.js";
import { MemorySecrets } from "../src/client/secrets.js";
import { Table } from "../src/client/table.js";
import { orderCommitment, seedCommitment } from "../src/crypto/commitments.js";
import { rollInitiative } from "../src/crypto/dice.js";
import { Engine, type Outcome } from "../src/engine/engine.js";
import { sha256Hex } from "../src/log/hash.js";
import { canonicalJson } from "../src/crypto/commitments.js";
import { EventStore, verifyStream } from "../src/log/index.js";
import { nextActivator, unactivatedArmies } from "../src/rules/action-common.js";
import { setupCommands } from "../src/setup/setup-file.js";
import { goldenSetup } from "./support/fixtures.js";
import { tempDir } from "./support/tmp.js";

const CLOCK = () => new Date("2026-01-01T00:00:00.000Z");
const PLAYERS = ["red", "blue"];

/** Repeatable "random" bytes: seeds, salts and so dice are the same on every run. */
function counterRandom(): (bytes: number) => string {
  let counter = 0;
  return (bytes) =>
    sha256Hex(`cheat-${counter++}`)
      .repeat(Math.ceil((bytes * 2) / 64))
      .slice(0, bytes * 2);
}

const eventsOf = (db: Level<string, string>) => db.sublevel<string, string>("events", { valueEncoding: "utf8" });
type EventsLevel = ReturnType<typeof eventsOf>;

const ownerOf = (army: string) => (army.startsWith("r") ? "red" : "blue");

/** One campaign on a real LevelDB, with the parties' seats and a malicious host's direct access to the log. */
class Game {
  /** Prepares commands from the parties' secrets; takes no chores. */
  manual!: Table;
  /** Takes the players' chores only (seeds, reveals): the host's steps are the test's. */
  players!: Table;
  /** Takes every chore, the host's too. */
  everyone!: Table;
  readonly secrets = new MemorySecrets();
  private readonly random = counterRandom();
  private open = true;

  private constructor(
    readonly dir: string,
    public engine: Engine,
    readonly campaign: string,
  ) {
    this.seat();
  }

  static readonly opened: Game[] = [];

  static async create(fixture = "ready.json"): Promise<Game> {
    const dir = join(await tempDir("epicwar-cheat-"), "db");
    const engine = await Engine.open(dir, { clock: CLOCK });
    const setup = goldenSetup(fixture);
    const created = await engine.create(setupCommands(setup).map((step) => step.command));
    if (!created.ok) throw new Error(`set-up refused: ${JSON.stringify(created.refusal)}`);
    const game = new Game(dir, engine, setup.campaign);
    Game.opened.push(game);
    return game;
  }

  private seat(): void {
    const common = { secrets: this.secrets, random: this.random };
    this.manual = new Table(this.engine, this.campaign, { ...common, chores: false });
    this.players = new Table(this.engine, this.campaign, { ...common, parties: new Set(PLAYERS) });
    this.everyone = new Table(this.engine, this.campaign, common);
  }

  state(): Promise<CampaignState> {
    return this.engine.state(this.campaign);
  }

  head() {
    return this.engine.store.head(this.campaign);
  }

  submit(input: Record<string, unknown>): Promise<Outcome> {
    return this.manual.submit(input);
  }

  /** A command the engine must accept; returns its events. */
  async must(input: Record<string, unknown>): Promise<StoredEvent[]> {
    const outcome = await this.submit(input);
    if (!outcome.ok) throw new Error(`refused: ${JSON.stringify(outcome.refusal)} for ${JSON.stringify(input)}`);
    return outcome.events;
  }

  /** A command the engine must refuse, leaving the log as it was; returns the refusal. */
  async refused(input: Record<string, unknown>) {
    const before = await this.head();
    const outcome = await this.submit(input);
    expect(outcome.ok, `${JSON.stringify(input)} should have been refused`).toBe(false);
    expect(await this.head(), "a refused command leaves the log as it was").toEqual(before);
    return (outcome as Extract<Outcome, { ok: false }>).refusal;
  }

  /** A malicious host writes an event straight into the log, past every rule: valid schema, valid chain. */
  async append<T extends DomainEvent["type"]>(actor: string, type: T, data: EventData<T>): Promise<StoredEvent> {
    const head = await this.head();
    const version = catalogue.definition(type)!.version;
    const [stored] = await this.engine.store.append(this.campaign, head.seq, [
      { type, version, at: CLOCK().toISOString(), actor, data },
    ]);
    return stored!;
  }

  async events(): Promise<StoredEvent[]> {
    return this.engine.store.readAll(this.campaign);
  }

  /** The seq of the last event of this type (matching `where`). */
  async seqOf(type: string, where: (data: Record<string, unknown>) => boolean = () => true): Promise<number> {
    const found = (await this.events()).filter((e) => e.type === type && where(e.data as Record<string, unknown>));
    if (found.length === 0) throw new Error(`no ${type} in the log`);
    return found[found.length - 1]!.seq;
  }

  audit(turn?: number): Promise<AuditReport> {
    return auditStream(this.engine.store, this.campaign, turn === undefined ? {} : { turn });
  }

  async close(): Promise<void> {
    if (this.open) await this.engine.close();
    this.open = false;
  }

  /** As someone with the folder would: the engine closed, the events edited with `level`, the engine opened again. */
  async tamper(edit: (events: EventsLevel) => Promise<void>): Promise<void> {
    await this.close();
    const db = new Level<string, string>(this.dir, { valueEncoding: "utf8" });
    await db.open({ createIfMissing: false });
    try {
      await edit(eventsOf(db));
    } finally {
      await db.close();
    }
    this.engine = await Engine.open(this.dir, { clock: CLOCK, createIfMissing: false });
    this.open = true;
    this.seat();
  }

  key(seq: number): string {
    return `${this.campaign}#${String(seq).padStart(12, "0")}`;
  }

  // ---------- playing ----------

  /** The host's and players' chores: the turn starts, seeds are given, initiative is rolled. */
  async startTurn(): Promise<void> {
    await this.everyone.takeChores();
  }

  async chooseFirst(first = "red"): Promise<void> {
    const winner = (await this.state()).turnState!.initiativeWinner!;
    await this.must({ actor: winner, type: "ChooseFirst", first });
  }

  /** Activates an army with an order given in the clear: only its commitment goes into the log. */
  activate(army: string, order: Order, path: Square[] = []): Promise<StoredEvent[]> {
    return this.must({ actor: ownerOf(army), type: "ActivateArmy", army, order, path });
  }

  reveal(army: string): Promise<StoredEvent[]> {
    return this.must({ actor: ownerOf(army), type: "RevealOrder", army });
  }

  /** Every army not yet activated, in turn, on First Fire without moving; then the players reveal what is due. */
  async quietActionPhase(): Promise<void> {
    for (;;) {
      const state = await this.state();
      const player = nextActivator(state);
      if (player === null) break;
      const army = unactivatedArmies(state)
        .filter((a) => a.player === player)
        .sort((a, b) => a.id.localeCompare(b.id))[0]!;
      await this.activate(army.id, "firstFire");
    }
    await this.players.takeChores();
  }

  async finishEndPhase(): Promise<void> {
    for (const player of PLAYERS) await this.must({ actor: player, type: "FinishEndPhase" });
  }

  /** A turn in which nothing happens, ended by the host, and the next one started. */
  async quietTurn(first = "red"): Promise<void> {
    await this.chooseFirst(first);
    await this.quietActionPhase();
    await this.finishEndPhase();
    await this.everyone.takeChores();
  }

  async hostSeed(turn: number): Promise<string> {
    return (await this.secrets.hostSeed(turn))!;
  }
}

afterEach(async () => {
  await Promise.all(Game.opened.splice(0).map((game) => game.close()));
});

// ---------------------------------------------------------------------------------------------------------------

function findings(report: AuditReport, verdict: Verdict): Finding[] {
  return report.findings.filter((f) => f.verdict === verdict);
}

/** The report holds a finding with this verdict whose main seq is `seq`; it is not ok; the text names both. */
function expectFinding(report: AuditReport, verdict: Verdict, seq: number, also: Partial<Finding> = {}): Finding {
  const text = renderAudit(report).join("\n");
  const found = findings(report, verdict).find((f) => f.seqs[0] === seq);
  expect(found, `expected "${verdict}" at seq ${seq}\n${text}`).toBeDefined();
  expect(found).toMatchObject(also);
  expect(report.ok).toBe(false);
  const label = verdict === VERDICTS.chainBroken ? `chain broken at seq ${seq}` : verdict;
  expect(text).toContain(`! ${label}:`);
  return found!;
}

function expectClean(report: AuditReport): void {
  expect(report.findings, renderAudit(report).join("\n")).toEqual([]);
  expect(report.ok).toBe(true);
}

const armyOf = (report: AuditReport, turn: number, army: string) =>
  report.turns.find((t) => t.turn === turn)!.armies.find((a) => a.army === army)!;

// ---------------------------------------------------------------------------------------------------------------

describe("hidden orders (T5)", () => {
  it("T5 change an order after seeing the enemy move: commit Advance, reveal Charge -> RevealRejected; audit: reveal does not match commitment", async () => {
    const game = await Game.create();
    await game.startTurn();
    await game.chooseFirst("red");
    const [activated] = await game.activate("r1", "advance", [[1, 1]]);
    await game.activate("b1", "firstFire");
    // Having seen blue stay put, red would rather have charged: it claims Charge with its real salt.
    const held = (await game.secrets.order("red", 1, "r1"))!;
    const [rejected] = await game.must({
      actor: "red",
      type: "RevealOrder",
      army: "r1",
      order: "charge",
      salt: held.salt,
    });
    expect(rejected!.type).toBe("RevealRejected");
    expect((await game.state()).turnState!.activations["r1"]!.order, "the order stays hidden").toBeNull();

    const report = await game.audit();
    const finding = expectFinding(report, VERDICTS.revealMismatch, rejected!.seq, {
      army: "r1",
      player: "red",
      turn: 1,
    });
    expect(finding.seqs).toContain(activated!.seq);
    expect(armyOf(report, 1, "r1")).toMatchObject({
      status: "failed",
      verdicts: [VERDICTS.revealMismatch],
      reveal: null,
    });

    // The real order can still be revealed; the attempt stays on the record.
    const [revealed] = await game.reveal("r1");
    expect(revealed!.type).toBe("OrderRevealed");
    const after = await game.audit();
    expect(armyOf(after, 1, "r1")).toMatchObject({
      status: "failed",
      reveal: { seq: revealed!.seq, order: "advance" },
    });
    expectFinding(after, VERDICTS.revealMismatch, rejected!.seq);
  });

  it("T5 reveal a different order with a matching-looking salt: refused as RevealRejected; written past the engine, the audit recomputes it", async () => {
    const game = await Game.create();
    await game.startTurn();
    await game.chooseFirst("red");
    const [activated] = await game.activate("r1", "firstFire");
    const held = (await game.secrets.order("red", 1, "r1"))!;
    // A salt one hex digit away from the real one, with the real order: well-formed, and wrong.
    const lookalike = (held.salt[0] === "0" ? "1" : "0") + held.salt.slice(1);
    const [rejected] = await game.must({
      actor: "red",
      type: "RevealOrder",
      army: "r1",
      order: "firstFire",
      salt: lookalike,
    });
    expect(rejected!.type).toBe("RevealRejected");

    // A host that wants Advance on record for red writes an OrderRevealed with the real salt and another order.
    const forged = await game.append("red", "OrderRevealed", {
      turn: 1,
      army: "r1",
      order: "advance",
      salt: held.salt,
    });
    expect(
      (await game.state()).turnState!.activations["r1"]!.order,
      "the engine's projection takes the forged reveal",
    ).toBe("advance");

    const report = await game.audit();
    expectFinding(report, VERDICTS.revealMismatch, rejected!.seq, { army: "r1" });
    const caught = expectFinding(report, VERDICTS.revealMismatch, forged.seq, { army: "r1" });
    expect(caught.seqs).toEqual([forged.seq, activated!.seq]);
    expect(caught.detail).toContain("the log accepts Advance");
    expect(armyOf(report, 1, "r1").reveal, "no reveal matches the commitment").toBeNull();
  });

  it("T5 reuse a salt or commitment from an earlier turn: the commitment binds turn and army, so the old reveal fails; a copied hash is reported as commitment reused", async () => {
    const game = await Game.create();
    await game.startTurn();
    await game.quietTurn();
    const turn1 = (await game.events()).filter((e) => e.type === "ArmyActivated");
    const oldR1 = turn1.find((e) => (e.data as { army: string }).army === "r1")!;
    const oldR1Secret = (await game.secrets.order("red", 1, "r1"))!;
    const oldR2Secret = (await game.secrets.order("red", 1, "r2"))!;
    expect((await game.state()).turn).toBe(2);
    await game.chooseFirst("red");

    // r1 copies its turn-1 commitment hash: the engine cannot tell, but no reveal can ever match it in turn 2.
    const [copied] = await game.must({
      actor: "red",
      type: "ActivateArmy",
      army: "r1",
      commitment: (oldR1.data as { commitment: string }).commitment,
      path: [],
    });
    const [replayed] = await game.must({ actor: "red", type: "RevealOrder", army: "r1", ...oldR1Secret });
    expect(replayed!.type, "the turn-1 order and salt do not open a turn-2 commitment").toBe("RevealRejected");

    // r2 reuses its turn-1 salt with the same order: the commitment is a different one (turn 2 is inside the hash).
    await game.activate("b1", "firstFire");
    const [r2] = await game.must({
      actor: "red",
      type: "ActivateArmy",
      army: "r2",
      order: oldR2Secret.order,
      salt: oldR2Secret.salt,
      path: [],
    });
    const r2Old = turn1.find((e) => (e.data as { army: string }).army === "r2")!;
    expect((r2!.data as { commitment: string }).commitment).not.toBe((r2Old.data as { commitment: string }).commitment);
    expect((r2!.data as { commitment: string }).commitment).toBe(
      orderCommitment({ campaign: "golden", turn: 2, army: "r2", ...oldR2Secret }),
    );

    const report = await game.audit();
    const reused = expectFinding(report, VERDICTS.commitmentReused, copied!.seq, { army: "r1", turn: 2 });
    expect(reused.seqs).toEqual([copied!.seq, oldR1.seq]);
    expectFinding(report, VERDICTS.revealMismatch, replayed!.seq, { army: "r1", turn: 2 });
    expect(findings(report, VERDICTS.commitmentReused)).toHaveLength(1);
    expect(armyOf(report, 2, "r2").status).toBe("pending");
  });

  it("T5 replay a reveal: a second RevealOrder is refused and the log is unchanged", async () => {
    const game = await Game.create();
    await game.startTurn();
    await game.chooseFirst("red");
    await game.activate("r1", "advance", [[1, 1]]);
    await game.reveal("r1");
    const held = (await game.secrets.order("red", 1, "r1"))!;
    const refusal = await game.refused({ actor: "red", type: "RevealOrder", army: "r1", ...held });
    expect(refusal).toMatchObject({ kind: "rule", rule: "T5" });
    expect(refusal.message).toContain("revealed once");
    const report = await game.audit();
    expectClean(report);
    expect(armyOf(report, 1, "r1")).toMatchObject({ status: "ok", verdicts: ["ok"], squares: 1, allowed: 3 });
  });

  it("T5 withhold a reveal: the host closes the Action phase; audit: never revealed (pending until then)", async () => {
    const game = await Game.create();
    await game.startTurn();
    await game.chooseFirst("red");
    const seqs: Record<string, number> = {};
    for (const [army, order] of [
      ["r1", "advance"],
      ["b1", "firstFire"],
      ["r2", "charge"],
      ["b2", "fortify"],
    ] as const) {
      seqs[army] = (await game.activate(army, order))[0]!.seq;
    }
    await game.reveal("b1");
    await game.reveal("b2");
    // red keeps its orders to itself. While the phase is open that is pending, not cheating.
    const open = await game.audit();
    expectClean(open);
    expect(armyOf(open, 1, "r1")).toMatchObject({ status: "pending", verdicts: ["pending: order not yet revealed"] });
    expect(open.pending).toBeGreaterThanOrEqual(2);

    // The organiser's first command registers the organiser's key before it, in its batch (D2).
    const [registered, ended] = await game.must({ actor: HOST, type: "CloseActionPhase" });
    expect(registered).toMatchObject({ type: "SeatKeyRegistered", data: { party: "organiser" } });
    expect(ended).toMatchObject({ type: "ActionPhaseEnded", data: { withheld: ["r1", "r2"] } });
    const report = await game.audit();
    for (const army of ["r1", "r2"]) {
      const finding = expectFinding(report, VERDICTS.neverRevealed, seqs[army]!, { army, player: "red" });
      expect(finding.seqs).toContain(ended!.seq);
    }
    expect(findings(report, VERDICTS.neverRevealed)).toHaveLength(2);
    expect(armyOf(report, 1, "b1").status).toBe("ok");
  });
});

describe("moves against the revealed order (T4)", () => {
  it("T4 move 2R on Advance: recorded as OrderViolated at the reveal; audit: moved further than the order allows", async () => {
    const game = await Game.create();
    await game.startTurn();
    await game.chooseFirst("red");
    const rate = (await game.state()).armies["r1"]!.moveRate;
    const path: Square[] = Array.from({ length: 2 * rate }, (_, i) => [1, i + 1]);
    const events = await game.activate("r1", "advance", path);
    const moved = events.find((e) => e.type === "ArmyMoved")!;
    const revealed = await game.reveal("r1");
    expect(revealed.map((e) => e.type)).toEqual(["OrderRevealed", "OrderViolated"]);

    const report = await game.audit();
    const finding = expectFinding(report, VERDICTS.movedTooFar, moved.seq, { army: "r1", player: "red" });
    expect(finding.detail).toContain(`moved ${2 * rate} squares`);
    expect(armyOf(report, 1, "r1")).toMatchObject({ squares: 2 * rate, allowed: rate, status: "failed" });
    expect(findings(report, VERDICTS.unconfirmedBreach), "the engine's OrderViolated is confirmed").toEqual([]);
  });

  it("T4 move on First Fire: recorded as OrderViolated at the reveal; audit: moved although First Fire or Fortify", async () => {
    const game = await Game.create();
    await game.startTurn();
    await game.chooseFirst("red");
    const events = await game.activate("r1", "firstFire", [[1, 1]]);
    const moved = events.find((e) => e.type === "ArmyMoved")!;
    const revealed = await game.reveal("r1");
    expect(revealed.map((e) => e.type)).toEqual(["OrderRevealed", "OrderViolated"]);

    const report = await game.audit();
    const finding = expectFinding(report, VERDICTS.movedStationary, moved.seq, { army: "r1" });
    expect(finding.seqs).toEqual([moved.seq, revealed[0]!.seq, events[0]!.seq]);
  });

  it("T4 the audit does not take the engine's word: a forged OrderViolated against a legal move is itself a finding", async () => {
    const game = await Game.create();
    await game.startTurn();
    await game.chooseFirst("red");
    const [activated] = await game.activate("r1", "advance", [[1, 1]]);
    await game.reveal("r1");
    const forged = await game.append(HOST, "OrderViolated", {
      turn: 1,
      army: "r1",
      player: "red",
      order: "advance",
      rule: "T4",
      evidenceSeq: activated!.seq + 1,
      detail: "moved 4 squares on Advance",
    });
    const report = await game.audit();
    expectFinding(report, VERDICTS.unconfirmedBreach, forged.seq, { army: "r1" });
    expect(armyOf(report, 1, "r1").status).toBe("ok");
  });
});

describe("the stored log (hash chain)", () => {
  /** A campaign with a turn played, closed with `level` access; returns the seq of its first ArmyMoved. */
  async function played(): Promise<{ game: Game; seq: number; total: number }> {
    const game = await Game.create();
    await game.startTurn();
    await game.chooseFirst("red");
    await game.activate("r1", "advance", [
      [1, 1],
      [1, 2],
    ]);
    await game.quietActionPhase();
    const seq = await game.seqOf("ArmyMoved");
    expectClean(await game.audit());
    return { game, seq, total: (await game.head()).seq };
  }

  it("edit a stored event: its value changed in LevelDB -> verify and audit: chain broken at that seq", async () => {
    const { game, seq } = await played();
    await game.tamper(async (events) => {
      const value = (await events.get(game.key(seq)))!;
      // r1 "only" moved one square: the body is changed, the hash in front of it kept.
      const body = JSON.parse(value.slice(64)) as { data: { path: Square[] } };
      body.data.path = [[1, 1]];
      await events.put(game.key(seq), value.slice(0, 64) + JSON.stringify(body));
    });
    expect(await verifyStream(game.engine.store, game.campaign)).toMatchObject({ ok: false, seq, problem: "hash" });
    const report = await game.audit();
    expectFinding(report, VERDICTS.chainBroken, seq);
    expect(report.chain).toMatchObject({ ok: false, seq, verdict: `chain broken at seq ${seq}` });
  });

  it("edit a stored event and re-hash it: the next event no longer links to it -> chain broken at the next seq", async () => {
    const { game, seq } = await played();
    await game.tamper(async (events) => {
      const value = (await events.get(game.key(seq)))!;
      const body = value.slice(64).replace("[[1,1],[1,2]]", "[[1,1]]");
      expect(body).not.toBe(value.slice(64));
      await events.put(game.key(seq), sha256Hex(body) + body);
    });
    expect(await verifyStream(game.engine.store, game.campaign)).toMatchObject({
      ok: false,
      seq: seq + 1,
      problem: "link",
    });
    expectFinding(await game.audit(), VERDICTS.chainBroken, seq + 1);
  });

  it("rewrite the log from an event on, re-hashing every later event and the head: verify passes; the audit finds the signed move changed, and a recorded head gone", async () => {
    const { game, seq, total } = await played();
    const recorded = await game.head();
    await game.tamper(async (events) => {
      let prev = (await events.get(game.key(seq - 1)))!.slice(0, 64);
      for (let n = seq; n <= total; n++) {
        const body = JSON.parse((await events.get(game.key(n)))!.slice(64)) as {
          prev: string;
          data: { path?: Square[] };
        };
        if (n === seq) body.data.path = [[1, 1]];
        body.prev = prev;
        const text = canonicalJson(body);
        prev = sha256Hex(text);
        await events.put(game.key(n), prev + text);
      }
      const db = events.db as Level<string, string>;
      await db
        .sublevel<string, string>("heads", { valueEncoding: "utf8" })
        .put(game.campaign, JSON.stringify({ seq: total, hash: prev }));
    });
    expect(await verifyStream(game.engine.store, game.campaign)).toMatchObject({ ok: true, events: total });
    const unaware = await game.audit();
    expect(unaware.chain.ok, "the chain alone cannot tell").toBe(true);
    // The move is red's, signed (D2): decided again, red's signed command gives another path. No head is needed.
    expectFinding(unaware, VERDICTS.notDecided, seq);
    const report = await auditStream(game.engine.store, game.campaign, {
      heads: [{ seq: recorded.seq, hash: recorded.hash }],
    });
    const finding = expectFinding(report, VERDICTS.headNotFound, recorded.seq);
    expect(finding.detail).toContain("was rewritten");
    // Heads recorded before the rewritten event are still there: the signed command's finding is the only one.
    const before = (await game.events()).find((e) => e.seq === seq - 1)!;
    const earlier = await auditStream(game.engine.store, game.campaign, {
      heads: [{ seq: seq - 1, hash: before.hash.slice(0, 16) }],
    });
    expect(earlier.findings.map((f) => [f.verdict, f.seqs[0]])).toEqual([[VERDICTS.notDecided, seq]]);
  });

  it("drop an event: its key deleted -> chain broken at that seq", async () => {
    const { game, seq } = await played();
    await game.tamper((events) => events.del(game.key(seq)));
    expect(await verifyStream(game.engine.store, game.campaign)).toMatchObject({ ok: false, seq, problem: "missing" });
    const report = await game.audit();
    expectFinding(report, VERDICTS.chainBroken, seq);
    expect(report.events).toBe((await game.head()).seq - 1);
  });

  it("reorder events: two stored values swapped -> chain broken at the first of them", async () => {
    const { game, seq } = await played();
    await game.tamper(async (events) => {
      const a = (await events.get(game.key(seq)))!;
      const b = (await events.get(game.key(seq + 1)))!;
      await events.batch([
        { type: "put", key: game.key(seq), value: b },
        { type: "put", key: game.key(seq + 1), value: a },
      ]);
    });
    expect(await verifyStream(game.engine.store, game.campaign)).toMatchObject({ ok: false, seq, problem: "order" });
    expectFinding(await game.audit(), VERDICTS.chainBroken, seq);
  });
});

describe("dice (D1)", () => {
  it("D1 forge a roll: a host appends InitiativeRolled that the seeds do not give -> pending while its seed is secret, then roll does not recompute", async () => {
    const game = await Game.create();
    await game.players.takeChores();
    await game.must({ actor: HOST, type: "StartTurn" });
    await game.players.takeChores();
    const state = await game.state();
    expect(Object.keys(state.turnState!.playerSeeds)).toEqual(PLAYERS);
    const honest = rollInitiative(turnSeeds(state, await game.hostSeed(1)), PLAYERS, 0);
    const forged =
      JSON.stringify(honest) === JSON.stringify([{ red: 6, blue: 1 }]) ? [{ red: 1, blue: 6 }] : [{ red: 6, blue: 1 }];
    const winner = forged[0]!.red > forged[0]!.blue ? "red" : "blue";
    const roll = await game.append(HOST, "InitiativeRolled", { turn: 1, firstDie: 0, rounds: forged, winner });

    const during = await game.audit();
    expectClean(during);
    expect(during.turns[0]!.rolls[0]).toMatchObject({
      seq: roll.seq,
      status: "pending",
      verdict: "pending: host seed not yet revealed",
      recomputed: null,
    });

    await game.quietTurn(winner === "red" ? "red" : "blue");
    const ended = await game.seqOf("TurnEnded");
    const report = await game.audit();
    const finding = expectFinding(report, VERDICTS.rollMismatch, roll.seq, { turn: 1 });
    expect(finding.seqs).toEqual([roll.seq, ended]);
    expect(report.turns[0]!.rolls[0]).toMatchObject({ status: "failed", recomputed: honest, rounds: forged });
    expect(report.turns[0]!.hostSeedStatus, "the seed itself was honest").toBe("ok");
    // Turn 2 was rolled by the engine's own host chores: it recomputes.
    expect(report.turns[1]!.rolls[0]).toMatchObject({ status: "pending" });
  });

  it("D1 forge a roll by choosing the dice: a firstDie other than the next unused die does not recompute", async () => {
    const game = await Game.create();
    await game.players.takeChores();
    await game.must({ actor: HOST, type: "StartTurn" });
    await game.players.takeChores();
    const state = await game.state();
    // The host looks for a window of dice that makes blue win, and records it honestly computed.
    const seeds = turnSeeds(state, await game.hostSeed(1));
    const firstDie = Array.from({ length: 50 }, (_, i) => i + 1).find((i) => {
      const rounds = rollInitiative(seeds, PLAYERS, i);
      return rounds[rounds.length - 1]!.blue! > rounds[rounds.length - 1]!.red!;
    })!;
    const rounds = rollInitiative(seeds, PLAYERS, firstDie);
    const roll = await game.append(HOST, "InitiativeRolled", { turn: 1, firstDie, rounds, winner: "blue" });
    const report = await game.audit();
    const finding = expectFinding(report, VERDICTS.rollMismatch, roll.seq);
    expect(finding.detail).toContain(`from index ${firstDie}`);
  });

  it("D1 re-seed after seeing player seeds: a second StartTurn is refused; a TurnStarted appended after PlayerSeedGiven is reported", async () => {
    const game = await Game.create();
    await game.players.takeChores();
    const [started] = await game.must({ actor: HOST, type: "StartTurn" });
    await game.players.takeChores();
    const seeds = (await game.events()).filter((e) => e.type === "PlayerSeedGiven").map((e) => e.seq);
    expect(seeds).toHaveLength(2);

    const refusal = await game.refused({
      actor: HOST,
      type: "StartTurn",
      hostSeedHash: seedCommitment("ab".repeat(32)),
    });
    expect(refusal).toMatchObject({ kind: "rule", rule: "T1" });
    expect(refusal.message).toContain("still under way");

    // Knowing both player seeds, the host searches for a seed of its own that makes red win, and re-commits to it.
    const state = await game.state();
    const newSeed = Array.from({ length: 100 }, (_, i) => sha256Hex(`grind-${i}`)).find((seed) => {
      const rounds = rollInitiative(turnSeeds(state, seed), PLAYERS, 0);
      return rounds[rounds.length - 1]!.red! > rounds[rounds.length - 1]!.blue!;
    })!;
    const recommitted = await game.append(HOST, "TurnStarted", { turn: 1, hostSeedHash: seedCommitment(newSeed) });
    const rounds = rollInitiative(turnSeeds(state, newSeed), PLAYERS, 0);
    await game.append(HOST, "InitiativeRolled", { turn: 1, firstDie: 0, rounds, winner: "red" });

    const report = await game.audit();
    const finding = expectFinding(report, VERDICTS.hostRecommitted, recommitted.seq, { turn: 1 });
    expect(finding.seqs).toEqual([recommitted.seq, started!.seq, ...seeds]);
    for (const seq of seeds) {
      expect(findings(report, VERDICTS.seedBeforeCommit).find((f) => f.seqs[0] === seq)?.seqs).toEqual([
        seq,
        recommitted.seq,
      ]);
    }
  });

  it("D1 a player who reads every secrets file still cannot change a roll: its seed is fixed before the host's exists", async () => {
    const game = await Game.create();
    await game.players.takeChores();
    // Both players have committed; the host has drawn nothing yet, so there is no host seed to read.
    expect(await game.secrets.hostSeed(1)).toBeUndefined();
    const committed = (await game.state()).seedCommitments;
    expect(Object.keys(committed)).toEqual(PLAYERS);
    await game.must({ actor: HOST, type: "StartTurn" });

    // Red now reads the host's file and blue's, and looks for a seed of its own that wins initiative.
    const hostSeed = (await game.secrets.hostSeed(1))!;
    const blueSeed = (await game.secrets.playerSeed("blue", 1))!;
    const seedsWith = (red: string) => ({ campaign: game.campaign, turn: 1, hostSeed, playerSeeds: [red, blueSeed] });
    const wins = (red: string) => {
      const rounds = rollInitiative(seedsWith(red), PLAYERS, 0);
      return rounds[rounds.length - 1]!.red! > rounds[rounds.length - 1]!.blue!;
    };
    const honest = (await game.secrets.playerSeed("red", 1))!;
    const chosen = Array.from({ length: 100 }, (_, i) => sha256Hex(`grind-${i}`)).find(
      (seed) => wins(seed) !== wins(honest),
    )!;
    expect(chosen, "some seed would change the winner").toBeDefined();

    const given = await game.refused({ actor: "red", type: "GiveSeed", seed: chosen });
    expect(given).toMatchObject({ kind: "rule", rule: "D1" });
    expect(given.message).toContain("does not hash to red's commitment");
    expect(await game.refused({ actor: "red", type: "CommitSeed", seed: chosen })).toMatchObject({
      kind: "rule",
      rule: "T1",
    });

    // Written past the engine, the chosen seed is caught by the audit against red's commitment.
    const forged = await game.append("red", "PlayerSeedGiven", { turn: 1, player: "red", seed: chosen });
    const report = await game.audit();
    const commitment = (await game.events()).find(
      (e) => e.type === "PlayerSeedCommitted" && (e.data as { player: string }).player === "red",
    )!;
    expect(expectFinding(report, VERDICTS.seedCommitMismatch, forged.seq, { player: "red" }).seqs).toEqual([
      forged.seq,
      commitment.seq,
    ]);
  });

  it("D1 a seed given with no commitment before the host committed is reported", async () => {
    const game = await Game.create();
    const started = await game.append(HOST, "TurnStarted", { turn: 1, hostSeedHash: seedCommitment("ab".repeat(32)) });
    const report = await game.audit();
    for (const player of PLAYERS) {
      const finding = findings(report, VERDICTS.seedUncommitted).find((f) => f.player === player);
      expect(finding?.seqs).toEqual([started.seq]);
    }
  });

  it("D1 a player seed before the host committed: refused by the engine; written past it, reported", async () => {
    const game = await Game.create();
    await game.startTurn();
    await game.quietTurn();
    // Between turns: turn 1 has ended, turn 2 not started yet.
    await game.chooseFirst("red");
    await game.quietActionPhase();
    await game.finishEndPhase();
    await game.must({ actor: HOST, type: "EndTurn" });
    const refusal = await game.refused({ actor: "red", type: "GiveSeed", seed: "cd".repeat(32) });
    expect(refusal).toMatchObject({ kind: "rule", rule: "T1" });

    const early = await game.append("red", "PlayerSeedGiven", { turn: 3, player: "red", seed: "cd".repeat(32) });
    const report = await game.audit();
    expectFinding(report, VERDICTS.seedBeforeCommit, early.seq, { player: "red" });
  });

  it("D1 reveal a host seed that does not match: EndTurn is refused; a TurnEnded appended with it is reported", async () => {
    const game = await Game.create();
    await game.players.takeChores();
    await game.must({ actor: HOST, type: "StartTurn" });
    await game.players.takeChores();
    await game.must({ actor: HOST, type: "RollInitiative" });
    await game.chooseFirst("red");
    await game.quietActionPhase();
    await game.finishEndPhase();
    const wrong = "ee".repeat(32);
    const refusal = await game.refused({ actor: HOST, type: "EndTurn", hostSeed: wrong });
    expect(refusal).toMatchObject({ kind: "rule", rule: "D1" });

    const started = await game.seqOf("TurnStarted");
    const ended = await game.append(HOST, "TurnEnded", { turn: 1, hostSeed: wrong, cvps: { red: 0, blue: 0 } });
    const report = await game.audit();
    const finding = expectFinding(report, VERDICTS.hostSeedMismatch, ended.seq, { turn: 1 });
    expect(finding.seqs).toEqual([ended.seq, started]);
    expect(report.turns[0]).toMatchObject({ hostSeedStatus: "failed", hostSeedVerdict: VERDICTS.hostSeedMismatch });
    expect(report.turns[0]!.rolls[0]).toMatchObject({ status: "failed", verdict: VERDICTS.hostSeedMismatch });
  });

  it("D1 reuse a host seed already revealed: refused by the engine; written past it, audit: host seed reused from an earlier turn", async () => {
    const game = await Game.create();
    await game.startTurn();
    const [firstStart] = [await game.seqOf("TurnStarted")];
    // Turn 1 played and ended by hand, so that the host can start turn 2 itself.
    await game.chooseFirst("red");
    await game.quietActionPhase();
    await game.finishEndPhase();
    const [ended] = await game.must({ actor: HOST, type: "EndTurn" });
    // Everybody has seen turn 1's seed in TurnEnded; the host commits to it again for turn 2.
    const seed = await game.hostSeed(1);
    await game.players.takeChores();
    expect(await game.refused({ actor: HOST, type: "StartTurn", hostSeed: seed })).toMatchObject({
      kind: "rule",
      rule: "D1",
    });
    const reused = await game.append(HOST, "TurnStarted", { turn: 2, hostSeedHash: seedCommitment(seed) });
    await game.secrets.keepHostSeed(2, seed);
    await game.players.takeChores();
    await game.must({ actor: HOST, type: "RollInitiative" });
    const report = await game.audit();
    const finding = expectFinding(report, VERDICTS.hostSeedReused, reused.seq, { turn: 2 });
    expect(finding.seqs).toEqual([reused.seq, firstStart, ended!.seq]);
    // Known at once, before the turn ends: the seed was public when the players gave theirs.
    expect(report.turns[1]).toMatchObject({
      state: "under way",
      hostSeedStatus: "failed",
      hostSeedVerdict: VERDICTS.hostSeedReused,
    });
    await game.chooseFirst("red");
    await game.quietActionPhase();
    await game.finishEndPhase();
    await game.must({ actor: HOST, type: "EndTurn" });
    expect((await game.audit()).turns[1]).toMatchObject({
      hostSeedStatus: "failed",
      hostSeedVerdict: VERDICTS.hostSeedReused,
    });
  });

  it("D1 the host never reveals its seed and starts the next turn past the engine: host seed never revealed", async () => {
    const game = await Game.create();
    await game.players.takeChores();
    const [started] = await game.must({ actor: HOST, type: "StartTurn" });
    await game.players.takeChores();
    await game.must({ actor: HOST, type: "RollInitiative" });
    const next = await game.append(HOST, "TurnStarted", { turn: 2, hostSeedHash: seedCommitment("ab".repeat(32)) });
    const report = await game.audit();
    const finding = expectFinding(report, VERDICTS.hostSeedNeverRevealed, started!.seq, { turn: 1 });
    expect(finding.seqs).toEqual([started!.seq, next.seq]);
    expect(report.turns[0]).toMatchObject({ state: "abandoned", hostSeedStatus: "failed" });
  });
});

describe("activation order (T3)", () => {
  it("T3 activate out of turn: refused by the engine; appended past it -> activated out of turn or twice", async () => {
    const game = await Game.create();
    await game.startTurn();
    await game.chooseFirst("red");
    const refusal = await game.refused({ actor: "blue", type: "ActivateArmy", army: "b1", order: "advance", path: [] });
    expect(refusal).toMatchObject({ kind: "rule", rule: "T3" });

    const commitment = orderCommitment({
      campaign: "golden",
      turn: 1,
      army: "b1",
      order: "firstFire",
      salt: "12".repeat(16),
    });
    const forged = await game.append("blue", "ArmyActivated", {
      turn: 1,
      army: "b1",
      player: "blue",
      commitment,
      rate: 2,
      engaged: false,
      stacked: false,
    });
    const chosen = await game.seqOf("FirstPlayerChosen");
    const report = await game.audit();
    const finding = expectFinding(report, VERDICTS.outOfTurn, forged.seq, { army: "b1", player: "blue" });
    expect(finding.seqs).toEqual([forged.seq, chosen]);
    expect(finding.detail).toContain("red's turn");
  });

  it("T3 activate an army twice: refused by the engine; appended past it -> activated out of turn or twice, naming both", async () => {
    const game = await Game.create();
    await game.startTurn();
    await game.chooseFirst("red");
    const [first] = await game.activate("r1", "firstFire");
    await game.activate("b1", "firstFire");
    const refusal = await game.refused({ actor: "red", type: "ActivateArmy", army: "r1", order: "charge", path: [] });
    expect(refusal).toMatchObject({ kind: "rule", rule: "T3" });
    const commitment = orderCommitment({
      campaign: "golden",
      turn: 1,
      army: "r1",
      order: "charge",
      salt: "34".repeat(16),
    });
    const again = await game.append("red", "ArmyActivated", {
      turn: 1,
      army: "r1",
      player: "red",
      commitment,
      rate: 3,
      engaged: false,
      stacked: false,
    });
    const finding = expectFinding(await game.audit(), VERDICTS.outOfTurn, again.seq, { army: "r1" });
    expect(finding.seqs).toEqual([again.seq, first!.seq]);
  });

  it("T3 a defender attacked before its activation gives its order out of sequence: not out of turn", async () => {
    const game = await Game.create("action-close.json");
    await game.everyone.takeChores();
    await game.chooseFirst("red");
    // r1 charges b1; blue gives b1's order at once (engaged), then makes its own regular activation: two in a row.
    await game.activate("r1", "charge", [
      [4, 1],
      [4, 2],
      [4, 3],
      [4, 4],
      [4, 5],
    ]);
    await game.activate("b1", "firstFire");
    await game.players.takeChores();
    await game.activate("b2", "advance", [[9, 5]]);
    await game.activate("r2", "advance", [[8, 0]]);
    await game.activate("b3", "firstFire");
    await game.activate("r3", "fortify");
    await game.players.takeChores();
    const report = await game.audit();
    expectClean(report);
    expect(armyOf(report, 1, "b1")).toMatchObject({ activation: { engaged: true }, status: "ok" });
    expect((await game.state()).phase).toBe("battle");
  });
});

describe("other forgeries the audit recomputes", () => {
  it("S7 T4 a stacked army on First Fire that moves off its home base: both breaches found, the engine's records confirmed", async () => {
    const game = await Game.create("action-close.json");
    await game.everyone.takeChores();
    await game.chooseFirst("red");
    const [activated, moved] = await game.activate("r2", "firstFire", [[7, 1]]);
    const revealed = await game.reveal("r2");
    expect(revealed.map((e) => e.type)).toEqual(["OrderRevealed", "OrderViolated", "OrderViolated"]);
    const report = await game.audit();
    expectFinding(report, VERDICTS.movedStationary, moved!.seq, { army: "r2" });
    expectFinding(report, VERDICTS.stackedStayed, activated!.seq, { army: "r2" });
    expect(armyOf(report, 1, "r2").activation.stacked).toBe(true);
    expect(findings(report, VERDICTS.unconfirmedBreach)).toEqual([]);
  });

  it("M1 a move the engine never made: a forged ArmyMoved jumping squares -> not a path of orthogonal steps, and too far", async () => {
    const game = await Game.create();
    await game.startTurn();
    await game.chooseFirst("red");
    const [activated] = await game.activate("r1", "advance", [[1, 1]]);
    const jump = await game.append("red", "ArmyMoved", {
      turn: 1,
      army: "r1",
      from: [1, 1],
      path: [
        [3, 3],
        [3, 4],
        [3, 5],
      ],
    });
    await game.reveal("r1");
    const report = await game.audit();
    expectFinding(report, VERDICTS.illegalPath, jump.seq, { army: "r1", seqs: [jump.seq, activated!.seq] });
    expect(armyOf(report, 1, "r1")).toMatchObject({
      squares: 4,
      allowed: 3,
      verdicts: [VERDICTS.illegalPath, VERDICTS.movedTooFar],
    });
  });

  it("T3 a forged ArmyMoved for an army never activated: moved without being activated", async () => {
    const game = await Game.create();
    await game.startTurn();
    await game.chooseFirst("red");
    await game.activate("r1", "firstFire");
    // The projection cannot fold a move of an army with no activation, and the engine's live state throws on it
    // (reported as an engine weakness), so the host writes it with the engine closed, through the bare store.
    await game.close();
    const store = await EventStore.open(game.dir, { createIfMissing: false });
    try {
      const head = await store.head(game.campaign);
      const [moved] = await store.append(game.campaign, head.seq, [
        {
          type: "ArmyMoved",
          version: 1,
          at: CLOCK().toISOString(),
          actor: "blue",
          data: { turn: 1, army: "b1", from: [2, 7], path: [[2, 6]] },
        },
      ]);
      const report = await auditStream(store, game.campaign);
      expectFinding(report, VERDICTS.movedUnactivated, moved!.seq, { army: "b1" });
      expectFinding(report, VERDICTS.unfit, moved!.seq);
    } finally {
      await store.close();
    }
  });

  it("T2 the initiative loser chooses who activates first: first player not chosen by the initiative winner", async () => {
    const game = await Game.create();
    await game.startTurn();
    const state = await game.state();
    const loser = PLAYERS.find((p) => p !== state.turnState!.initiativeWinner)!;
    const chosen = await game.append(loser, "FirstPlayerChosen", { turn: 1, chosenBy: loser, first: loser });
    expectFinding(await game.audit(), VERDICTS.firstChosenWrongly, chosen.seq, { player: loser });
  });

  it("T2 initiative rolled a second time: initiative rolled more than once", async () => {
    const game = await Game.create();
    await game.startTurn();
    const first = await game.seqOf("InitiativeRolled");
    const again = await game.append(HOST, "InitiativeRolled", {
      turn: 1,
      firstDie: 2,
      rounds: [{ red: 6, blue: 2 }],
      winner: "red",
    });
    const finding = expectFinding(await game.audit(), VERDICTS.rolledTwice, again.seq);
    expect(finding.seqs).toEqual([again.seq, first]);
  });

  it("T3 the Action phase closed past the engine before every army was activated: never activated", async () => {
    const game = await Game.create();
    await game.startTurn();
    await game.chooseFirst("red");
    await game.activate("r1", "firstFire");
    await game.reveal("r1");
    const refusal = await game.refused({ actor: HOST, type: "CloseActionPhase" });
    expect(refusal).toMatchObject({ kind: "rule", rule: "T3" });
    const closed = await game.append(HOST, "ActionPhaseEnded", { turn: 1, withheld: [] });
    const report = await game.audit();
    expect(findings(report, VERDICTS.neverActivated).map((f) => [f.army, f.seqs])).toEqual([
      ["r2", [closed.seq]],
      ["b1", [closed.seq]],
      ["b2", [closed.seq]],
    ]);
  });
});

describe("T5 stall ruling: a player who never gives or reveals an order cannot hold the campaign, and the host cannot close early", () => {
  // action-close.json: r1 charging four squares ends on b1, starting battle t1b1 before b1 is activated.
  const charge: Square[] = [
    [4, 1],
    [4, 2],
    [4, 3],
    [4, 4],
    [4, 5],
  ];

  it("T5 an attacked army's order never given: claimed by red, closed by the host; only blue's breach is recorded and found", async () => {
    const game = await Game.create("action-close.json");
    await game.startTurn();
    await game.chooseFirst("red");
    await game.activate("r1", "charge", charge);
    expect(await game.refused({ actor: HOST, type: "CloseActionPhase" })).toMatchObject({
      rule: "T3",
      message: expect.stringContaining("no stall was claimed"),
    });
    await game.must({ actor: "red", type: "ClaimStall" });
    // The organiser's first command registers the organiser's key before it, in its batch (D2).
    const [registered, ended] = await game.must({ actor: HOST, type: "CloseActionPhase" });
    expect(registered).toMatchObject({ type: "SeatKeyRegistered", data: { party: "organiser" } });
    expect(ended!.data).toEqual({ turn: 1, withheld: ["b1"], notActivated: ["r2", "r3", "b2", "b3"] });
    expect((await game.state()).violations.map((v) => [v.army, v.player, v.detail])).toEqual([
      ["b1", "blue", "order never given"],
    ]);

    const report = await game.audit();
    // b1 is the one army never activated; r1 could not reveal its order before b1 gave its own; the rest were held back.
    expect(findings(report, VERDICTS.neverActivated).map((f) => f.army)).toEqual(["b1"]);
    expect(findings(report, VERDICTS.neverRevealed)).toEqual([]);
  });

  it("T5 what becomes owed after a claim needs a claim of its own; a reveal never made is blue's breach", async () => {
    const game = await Game.create("action-close.json");
    await game.startTurn();
    await game.chooseFirst("red");
    await game.activate("r1", "charge", charge);
    await game.must({ actor: "red", type: "ClaimStall" });
    await game.activate("b1", "firstFire");
    await game.reveal("r1");
    // Now only blue's reveal of b1 is owed: it was not owed when red claimed.
    expect(await game.refused({ actor: HOST, type: "CloseActionPhase" })).toMatchObject({
      rule: "T3",
      message: expect.stringContaining("became owed after the stall claimed"),
    });
    expect(await game.refused({ actor: "blue", type: "ClaimStall" })).toMatchObject({
      rule: "T5",
      message: expect.stringContaining("blue owes the reveal of b1"),
    });
    await game.must({ actor: "red", type: "ClaimStall" });
    // The organiser's first command registers the organiser's key before it, in its batch (D2).
    const [registered, ended] = await game.must({ actor: HOST, type: "CloseActionPhase" });
    expect(registered).toMatchObject({ type: "SeatKeyRegistered", data: { party: "organiser" } });
    expect(ended!.data).toEqual({ turn: 1, withheld: ["b1"], notActivated: ["r2", "r3", "b2", "b3"] });

    const report = await game.audit();
    expect(findings(report, VERDICTS.neverActivated)).toEqual([]);
    expect(findings(report, VERDICTS.neverRevealed).map((f) => f.army)).toEqual(["b1"]);
  });

  it("T3 a close written past the engine that calls armies not activated without a claimed stall is still found", async () => {
    const game = await Game.create("action-close.json");
    await game.startTurn();
    await game.chooseFirst("red");
    await game.activate("r1", "firstFire");
    await game.reveal("r1");
    const closed = await game.append(HOST, "ActionPhaseEnded", {
      turn: 1,
      withheld: [],
      notActivated: ["r2", "r3", "b1", "b2", "b3"],
    });
    const report = await game.audit();
    expect(findings(report, VERDICTS.neverActivated).map((f) => [f.army, f.seqs])).toEqual(
      ["r2", "r3", "b1", "b2", "b3"].map((army) => [army, [closed.seq]]),
    );
  });
});
