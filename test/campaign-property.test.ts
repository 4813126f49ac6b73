/**
 * Whole turns of random play (fast-check) through the real Engine on a real LevelDB in a temp folder, with the
 * protocol chores (seeds, initiative, reveals, turn ends) taken by a Table holding every party's secrets in memory.
 *
 * - A random player (test/support/campaign-player.ts) makes only legal decisions of the kind the demo makes, every
 *   choice drawn from fast-check; the engine must accept each one.
 * - After every accepted command the audit (test/support/campaign-audit.ts) folds the stored events and checks the
 *   invariants: (a) stacking, (b) both sides on one square only in an open battle, (c) rosters, points and move rates,
 *   routed and disbanded armies off the map, (d) CVPs from the log's battles plus the objectives held, (e) units
 *   conserved, (f) one activation per army per turn; and per event, that moves, reveals, violations, awards and
 *   victories are what the rules say.
 * - Illegal commands (mutations of the legal ones) are interleaved: each is refused naming a rule or field, and the
 *   log's head (seq and hash) stays as it was.
 * - Once the campaign is finished, every command is refused with E2 (g).
 * - At the end the log is replayed from LevelDB by a fresh Engine and must give the live state.
 */
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toCurrent, type StoredEvent } from "../events/index.js";
import { replay } from "../projections/campaign.js";
import type { CampaignState } from "../projections/state.js";
import { waitingFor } from "../src/words/waiting.js";
import { MemorySecrets } from "../src/client/secrets.js";
import { ChoreRefusedError, Table } from "../src/client/table.js";
import { Engine } from "../src/engine/engine.js";
import { verifyStream } from "../src/log/index.js";
import { nextActivator, unactivatedArmies } from "../src/rules/action-common.js";
import { describeRefusal } from "../src/rules/refusal.js";
import { setupCommands } from "../src/setup/setup-file.js";
import { CampaignAudit, type AuditStats } from "./support/campaign-audit.js";
import {
  chance,
  commandsAfterFinish,
  illegalCommand,
  pick,
  RandomPlayer,
  type Gen,
  type Illegal,
} from "./support/campaign-player.js";
import { goldenSetup } from "./support/fixtures.js";
import { tempDir } from "./support/tmp.js";

const CLOCK = () => new Date("2026-01-01T00:00:00Z");
const MAX_STEPS = 2000;

interface PlayOptions {
  fixtures: readonly string[];
  turns: { min: number; max: number };
  /** Percent chance of an illegal command before each legal decision. */
  illegal: number;
  aggressive: boolean;
}

interface Totals extends AuditStats {
  runs: number;
  commands: number;
  illegal: number;
  refusedByRule: Record<string, number>;
  afterFinish: number;
}

const newTotals = (): Totals => ({
  runs: 0,
  commands: 0,
  illegal: 0,
  refusedByRule: {},
  afterFinish: 0,
  batches: 0,
  battles: 0,
  draws: 0,
  violations: 0,
  captures: 0,
  reservesUsed: 0,
  finished: 0,
  turnsEnded: 0,
});

/** Salts and seeds drawn from the run's own seed, so that a failing run replays exactly. */
function seededHex(seed: number): (bytes: number) => string {
  let counter = 0;
  return (bytes) =>
    createHash("sha512")
      .update(`${seed}/${counter++}`)
      .digest("hex")
      .slice(0, bytes * 2);
}

const brief = (command: unknown) => JSON.stringify(command).slice(0, 400);

/** Submits an illegal command straight to the engine: it must be refused and the log head must not move. */
async function expectRefused(
  engine: Engine,
  campaign: string,
  illegal: Illegal,
  where: string,
  totals: Totals,
): Promise<void> {
  const head = await engine.store.head(campaign);
  const stored = await engine.store.storedHead(campaign);
  const outcome = await engine.execute(campaign, [illegal.command]);
  const label = `${where}: ${illegal.why}: ${brief(illegal.command)}`;
  expect(outcome.ok, `${label} was accepted`).toBe(false);
  if (outcome.ok) return;
  const { refusal } = outcome;
  expect(["rule", "field"], `${label}: ${describeRefusal(refusal)}`).toContain(refusal.kind);
  if (refusal.kind === "rule") {
    expect(refusal.rule, label).toMatch(/^[A-Z]\d+$/);
    if (illegal.rules || illegal.fields)
      expect(illegal.rules ?? [], `${label}: refused as ${describeRefusal(refusal)}`).toContain(refusal.rule);
  } else if (refusal.kind === "field") {
    expect(refusal.field, label).not.toBe("");
    if (illegal.rules || illegal.fields)
      expect(illegal.fields ?? [], `${label}: refused as ${describeRefusal(refusal)}`).toContain(refusal.field);
  }
  expect(refusal.message.length, label).toBeGreaterThan(0);
  expect(await engine.store.head(campaign), `${label}: the head moved`).toEqual(head);
  expect(await engine.store.storedHead(campaign), `${label}: the stored head moved`).toEqual(stored);
  totals.illegal++;
  const name =
    refusal.kind === "rule" ? refusal.rule : refusal.kind === "field" ? `field ${refusal.field}` : "conflict";
  totals.refusedByRule[name] = (totals.refusedByRule[name] ?? 0) + 1;
}

/** (g) E2: a finished campaign refuses every command, each naming E2, and its log stays as it was. */
async function expectAllRefused(
  g: Gen,
  engine: Engine,
  table: Table,
  secrets: MemorySecrets,
  state: CampaignState,
  totals: Totals,
): Promise<void> {
  const head = await engine.store.head(state.campaign!);
  for (const command of commandsAfterFinish(g, state, await secrets.hostSeed(state.turn))) {
    const outcome = await engine.execute(state.campaign!, [command]);
    expect(
      outcome.ok ? "accepted" : outcome.refusal,
      `E2 after the campaign finished: ${brief(command)}`,
    ).toMatchObject({ kind: "rule", rule: "E2" });
    totals.afterFinish++;
  }
  // Through the players' side too: an order in the clear is committed to, then refused.
  const army = pick(g, Object.values(state.armies));
  const viaTable = await table.submit({
    actor: army.player,
    type: "ActivateArmy",
    army: army.id,
    order: "advance",
    path: [],
  });
  expect(viaTable.ok ? "accepted" : viaTable.refusal, "E2 through the Table").toMatchObject({
    kind: "rule",
    rule: "E2",
  });
  expect(await engine.store.head(state.campaign!), "E2 refusals leave the head as it was").toEqual(head);
}

/** One campaign played at random from a golden fixture; every check is an `expect` inside. */
async function playOnce(g: Gen, options: PlayOptions, totals: Totals): Promise<void> {
  const fixture = pick(g, options.fixtures);
  const turns = g(fc.integer, options.turns);
  const seed = g(fc.integer);
  const setup = goldenSetup(fixture);
  const campaign = setup.campaign;
  const dir = await tempDir("epicwar-campaign-prop-");
  const engine = await Engine.open(dir, { sync: false, clock: CLOCK });
  const audit = new CampaignAudit();
  const history: string[] = [];
  const where = () =>
    `${fixture}, turn ${audit.state.turn} ${audit.state.phase}; last commands:\n  ${history.slice(-6).join("\n  ")}\n`;
  let live: CampaignState;
  try {
    const created = await engine.create(setupCommands(setup).map((step) => step.command));
    expect(created.ok, `${fixture} set-up`).toBe(true);
    if (!created.ok) return;
    audit.absorb(created.events, "set-up");

    const secrets = new MemorySecrets();
    const table = new Table(engine, campaign, { secrets, random: seededHex(seed) });
    const batches: StoredEvent[][] = [];
    const collect = (events: StoredEvent[]) => void batches.push(events);
    const absorb = (label: string) => {
      for (const batch of batches.splice(0))
        audit.absorb(batch, `${where()}${label} -> ${batch.map((e) => e.type).join(", ")}`);
    };
    await table.takeChores(collect);
    absorb("chores");

    const player = new RandomPlayer(g, { aggressive: options.aggressive });
    for (let step = 0; ; step++) {
      expect(step, `${where()}the campaign should have ended within ${MAX_STEPS} decisions`).toBeLessThan(MAX_STEPS);
      const state = await engine.state(campaign);
      expect(state, `${where()}the engine's live state is the audit's fold of the log`).toEqual(audit.state);
      if (state.status === "finished") {
        await expectAllRefused(g, engine, table, secrets, state, totals);
        break;
      }
      if (state.turn > turns) break;
      const decision = player.decide(state);
      if (!decision) throw new Error(`${where()}nobody can decide: the campaign waits for ${waitingFor(state)}`);
      if (chance(g, options.illegal)) {
        const illegal = illegalCommand(g, state, decision);
        if (illegal) await expectRefused(engine, campaign, illegal, where(), totals);
      }
      if (decision.intended)
        audit.intended.set(`${decision.intended.turn}/${decision.intended.army}`, decision.intended);
      history.push(`${decision.why}: ${brief(decision.command)}`);
      const outcome = await table.submit(decision.command, collect);
      expect(outcome.ok ? "accepted" : describeRefusal(outcome.refusal), `${where()}a legal decision was refused`).toBe(
        "accepted",
      );
      totals.commands++;
      absorb(decision.why);
    }
    live = await engine.state(campaign);
  } finally {
    await engine.close();
  }

  // The log, read back by a fresh Engine from LevelDB, gives the live state; its chain verifies.
  const fresh = await Engine.open(dir, { createIfMissing: false });
  try {
    expect(await fresh.state(campaign), "a fresh Engine replays the log to the live state").toEqual(live);
    const stored = await fresh.store.readAll(campaign);
    expect(replay(stored.map(toCurrent)), "replay() of the stored events").toEqual(live);
    expect(stored.map((e) => e.seq)).toEqual(audit.events.map((e) => e.seq));
    const verified = await verifyStream(fresh.store, campaign);
    expect(verified.ok, "the hash chain verifies").toBe(true);
  } finally {
    await fresh.close();
  }
  totals.runs++;
  for (const name of [
    "batches",
    "battles",
    "draws",
    "violations",
    "captures",
    "reservesUsed",
    "finished",
    "turnsEnded",
  ] as const)
    totals[name] += audit.stats[name];
}

async function run(options: PlayOptions, numRuns: number): Promise<Totals> {
  const totals = newTotals();
  await fc.assert(
    fc.asyncProperty(fc.gen(), (g) => playOnce(g, options, totals)),
    // A failing run is reported as found (with its seed and path to replay it), not shrunk: each run opens a database.
    { numRuns, endOnFailure: true },
  );
  console.info(JSON.stringify(totals));
  return totals;
}

describe("campaign property: random play through whole turns on a real LevelDB", () => {
  it("T1 T2 T3 T4 T5 M1 M2 M3 M4 M5 S4 S5 S7 S8 B1 B4 B5 B6 E1 E2 E4 E5 E6 random legal play keeps the campaign valid after every command, and a fresh Engine replays the log to the live state", async () => {
    const totals = await run(
      {
        fixtures: ["ready.json", "action-close.json", "battle-ready.json", "end-ready.json"],
        turns: { min: 3, max: 6 },
        illegal: 0,
        aggressive: false,
      },
      20,
    );
    expect(totals.runs).toBe(20);
    // The runs did exercise the rules: battles, End phases and recorded violations.
    expect(totals.battles).toBeGreaterThan(0);
    expect(totals.turnsEnded).toBeGreaterThan(0);
    expect(totals.violations).toBeGreaterThan(0);
  }, 120_000);

  it("M1 M2 M3 M4 S7 T1 T2 T3 T4 T5 D1 B4 E4 E5 E6 random illegal commands between legal ones are refused naming a rule or field and leave the log head (seq and hash) as it was", async () => {
    const totals = await run(
      {
        fixtures: ["ready.json", "action-close.json", "battle-ready.json", "end-ready.json"],
        turns: { min: 3, max: 5 },
        illegal: 45,
        aggressive: false,
      },
      25,
    );
    expect(totals.illegal).toBeGreaterThan(100);
    for (const rule of ["M1", "T1", "T3", "T4"])
      expect(totals.refusedByRule[rule] ?? 0, `refusals naming ${rule}`).toBeGreaterThan(0);
  }, 120_000);

  it("E2 S3 S4 a side reaching F / 100 CVPs at the end of a turn wins, and the finished campaign refuses every command with E2, the log unchanged", async () => {
    const totals = await run(
      {
        fixtures: ["battle-ready.json", "action-close.json"],
        turns: { min: 8, max: 10 },
        illegal: 10,
        aggressive: true,
      },
      10,
    );
    expect(totals.finished, "aggressive runs should mostly end in a victory").toBeGreaterThan(0);
    expect(totals.afterFinish).toBeGreaterThan(0);
  }, 120_000);
});

/**
 * The players' side of a refused command: the Table prepares a command from the party's secrets before the engine
 * decides it. A refused command must leave the secrets (not only the log) as they were, and a reveal the engine
 * records as not matching must not be retried for ever.
 */
describe("the players' side (Table and secrets) when a command is refused or a reveal does not match", () => {
  async function turnOne() {
    const dir = await tempDir("epicwar-campaign-table-");
    const engine = await Engine.open(dir, { sync: false, clock: CLOCK });
    const setup = goldenSetup("ready.json");
    expect((await engine.create(setupCommands(setup).map((step) => step.command))).ok).toBe(true);
    const secrets = new MemorySecrets();
    const table = new Table(engine, setup.campaign, { secrets, random: seededHex(7) });
    await table.takeChores();
    const winner = (await table.state()).turnState!.initiativeWinner!;
    const army = winner === "red" ? "r1" : "b1";
    expect((await table.submit({ actor: winner, type: "ChooseFirst", first: winner })).ok).toBe(true);
    expect((await table.submit({ actor: winner, type: "ActivateArmy", army, order: "advance", path: [] })).ok).toBe(
      true,
    );
    return { engine, secrets, table, winner, army };
  }

  /** Activates every army left with First Fire, stopping (by throwing) if the chores reject the same reveal again and again. */
  async function activateTheRest(table: Table): Promise<{ revealed: Record<string, string>; rejected: number }> {
    const revealed: Record<string, string> = {};
    let rejected = 0;
    const watch = (events: StoredEvent[]) => {
      for (const event of events.map(toCurrent)) {
        if (event.type === "OrderRevealed") revealed[event.data.army] = event.data.order;
        if (event.type === "RevealRejected" && ++rejected > 3)
          throw new Error(
            `the chores rejected ${event.data.army}'s reveal ${rejected} times and go on (seq ${event.seq})`,
          );
      }
    };
    for (;;) {
      const state = await table.state();
      const next = state.phase === "action" ? nextDecisionArmy(state) : undefined;
      if (!next) return { revealed, rejected };
      try {
        expect(
          (
            await table.submit(
              { actor: next.player, type: "ActivateArmy", army: next.id, order: "firstFire", path: [] },
              watch,
            )
          ).ok,
        ).toBe(true);
      } catch (error) {
        // Stopping the protocol with a ChoreRefusedError is a fair answer to a reveal that does not match.
        if (error instanceof ChoreRefusedError) return { revealed, rejected };
        throw error;
      }
    }
  }

  // The players' side keeps an order only once the engine has accepted its activation, and does not repeat a reveal the
  // engine has rejected.
  it("T3 T5 a refused second ActivateArmy of an army leaves the order kept for its accepted activation as it was", async () => {
    const { engine, secrets, table, winner, army } = await turnOne();
    try {
      const kept = await secrets.order(winner, 1, army);
      const head = await engine.store.head("golden");
      const again = await table.submit({ actor: winner, type: "ActivateArmy", army, order: "charge", path: [] });
      expect(again.ok ? "accepted" : again.refusal).toMatchObject({ kind: "rule", rule: "T3" });
      expect(await engine.store.head("golden"), "the log is as it was").toEqual(head);
      expect(await secrets.order(winner, 1, army), "the secrets are as they were").toEqual(kept);
      const { revealed, rejected } = await activateTheRest(table);
      expect(rejected, "no reveal was rejected").toBe(0);
      expect(revealed[army]).toBe("advance");
    } finally {
      await engine.close();
    }
  });

  it("T5 a reveal from a secrets file that no longer matches is recorded once, and the chores do not repeat it for ever", async () => {
    const { engine, secrets, table, winner, army } = await turnOne();
    try {
      // The party's secrets no longer match its commitment (a restored backup, an edited file): the order kept for the
      // army is gone and another stands in its place.
      await secrets.pruneOrders(winner, 1, (kept) => kept !== army);
      await secrets.keepOrder(winner, 1, army, { order: "charge", salt: "ab".repeat(16) });
      expect(await secrets.ordersKept(winner, 1, army)).toEqual([{ order: "charge", salt: "ab".repeat(16) }]);
      const { rejected } = await activateTheRest(table);
      expect(rejected).toBe(1);
    } finally {
      await engine.close();
    }
  });

  it("T5 a reveal rejected while the secrets hold the order that opens the commitment is revealed from them by the chores", async () => {
    const { engine, secrets, table, winner, army } = await turnOne();
    try {
      // The player reveals by hand with a salt that is not the one kept: recorded as rejected, the order still hidden.
      const held = (await secrets.order(winner, 1, army))!;
      const byHand = await table.submit({
        actor: winner,
        type: "RevealOrder",
        army,
        order: held.order,
        salt: "cd".repeat(16),
      });
      expect(byHand.ok && byHand.events.map((event) => event.type)).toEqual(["RevealRejected"]);
      // Once every army is activated, the chores reveal it from the secrets, which open its commitment; the phase ends.
      const { revealed, rejected } = await activateTheRest(table);
      expect({ order: revealed[army], rejected }).toEqual({ order: held.order, rejected: 0 });
      expect((await table.state()).phase).not.toBe("action");
    } finally {
      await engine.close();
    }
  });
});

/** The next army to activate by T3, as the random player would choose it (first in id order). */
function nextDecisionArmy(state: CampaignState) {
  const player = nextActivator(state);
  return player
    ? unactivatedArmies(state)
        .filter((a) => a.player === player)
        .sort((a, b) => a.id.localeCompare(b.id))[0]
    : undefined;
}
