/**
 * The audit (replays/audit.ts) of campaigns that play the advanced rules: an honest one recomputes clean; a log where a
 * host broke A3-A8 by writing events straight into the store (schema-valid, correctly chained) is caught, each breach
 * reported with its rule and the seq of the event that shows it.
 *
 * Campaigns: examples/emberfall.setup.json (every advanced option on) played by the demo's commanders;
 * test/golden/fixtures/advanced-movement.json (A1, A4: g2k, rate 3, at (12,0) beside the road square (12,1));
 * battle-ready.json with A3 on, as the golden case A3-scout-wins-bluff-within-1000 plays it (r1 scouts b1, true size
 * 1,750, the scout wins: the size may be stated up to 1,000 off).
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { HOST } from "../events/common.js";
import { catalogue, type DomainEvent, type StoredEvent, type EventData } from "../events/index.js";
import {
  auditCampaign,
  PENDING_SEED,
  VERDICTS,
  type AuditReport,
  type Finding,
  type Verdict,
} from "../replays/audit.js";
import { auditStream, loadAuditInput } from "../replays/audit-load.js";
import { renderAudit } from "../replays/audit-text.js";
import { sequenceRandomHex } from "../src/client/prepare.js";
import { MemorySecrets } from "../src/client/secrets.js";
import { Table } from "../src/client/table.js";
import { playCampaign } from "../src/demo/play.js";
import { Engine } from "../src/engine/engine.js";
import { EventStore } from "../src/log/index.js";
import { sha256Hex } from "../src/log/hash.js";
import { loadSetupFile } from "../src/setup/setup-loader.js";
import { setupCommands } from "../src/setup/setup-file.js";
import { mergePatch } from "./golden/format.js";
import { goldenSetup } from "./support/fixtures.js";
import { tempDir } from "./support/tmp.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLOCK = () => new Date("2026-01-01T00:00:00.000Z");

/** The one finding of `verdict` at `seq` (its main event), with the rule it names. */
function expectFinding(report: AuditReport, verdict: Verdict, rule: string, seq: number): Finding {
  const text = renderAudit(report).join("\n");
  const found = report.findings.filter((f) => f.verdict === verdict && f.seqs[0] === seq);
  expect(found, text).toHaveLength(1);
  expect(found[0]!.rule, text).toBe(rule);
  expect(report.ok).toBe(false);
  expect(text).toContain(`! ${verdict} (${rule}): `);
  return found[0]!;
}

/** A new event as a host with the store writes it: past every rule, at the version the catalogue reads. */
function forged<T extends DomainEvent["type"]>(type: T, data: EventData<T>, actor = HOST) {
  return { type, version: catalogue.definition(type)!.version, at: CLOCK().toISOString(), actor, data };
}

type Written = ReturnType<typeof forged>;
const rewritten = (event: StoredEvent): Written =>
  ({ type: event.type, version: event.version, at: event.at, actor: event.actor, data: event.data }) as Written;

/**
 * A host rewrites a campaign's log: the honest events, edited by `edit`, written into a fresh store and chained anew,
 * as a host with the folder could. Returns the audit of the new log and where each event landed.
 */
async function rewrite(
  campaign: string,
  honest: readonly StoredEvent[],
  edit: (events: Written[]) => Written[],
): Promise<AuditReport> {
  const store = await EventStore.open(join(await tempDir("epicwar-audit-forged-"), "db"));
  try {
    let seq = 0;
    for (const event of edit(honest.map(rewritten))) {
      await store.append(campaign, seq, [event]);
      seq++;
    }
    return await auditStream(store, campaign);
  } finally {
    await store.close();
  }
}

const indexOf = (events: readonly Written[], where: (e: Written) => boolean): number => {
  const index = events.findIndex(where);
  if (index < 0) throw new Error("no such event in the log");
  return index;
};

/** Two other dice with the same total (so the band stands and only the seeds can tell): swapped, or one up and one down. */
function sameTotal([a, b]: [number, number]): [number, number] {
  if (a !== b) return [b, a];
  if (a > 1 && a < 6) return [a + 1, a - 1];
  throw new Error(`no other pair of dice totals ${a + b}`);
}

/** Inserts `added` before events[at]; the seq of the first added event is at + 1. */
const insert = (events: Written[], at: number, ...added: Written[]): Written[] => [
  ...events.slice(0, at),
  ...added,
  ...events.slice(at),
];

// ---------------------------------------------------------------------------------------------------------------

describe("the audit of an honest advanced campaign", () => {
  let honest: StoredEvent[];
  let report: AuditReport;
  beforeAll(async () => {
    const engine = await Engine.open(await tempDir("epicwar-audit-advanced-"), { clock: CLOCK });
    try {
      const setup = await loadSetupFile(join(ROOT, "examples", "emberfall.setup.json"));
      const created = await engine.create(setupCommands(setup).map((step) => step.command));
      if (!created.ok) throw new Error(JSON.stringify(created.refusal));
      let counter = 0;
      // A label whose seeds bring a titan battle (A8 damage and repairs) into the two turns played.
      const random = (bytes: number) =>
        sha256Hex(`audit-advanced-3-${counter++}`)
          .repeat(2)
          .slice(0, bytes * 2);
      await playCampaign(new Table(engine, setup.campaign, { secrets: new MemorySecrets(), random }), () => {}, 2);
      honest = await engine.store.readAll(setup.campaign);
      report = auditCampaign(await loadAuditInput(engine.store, setup.campaign));
    } finally {
      await engine.close();
    }
  }, 60_000);

  it("A1 A4 A5 A6 A7 A8 every advanced option on, played honestly: income, purchases, commanders and moves all recompute", () => {
    expect(report.findings, renderAudit(report).join("\n")).toEqual([]);
    const types = new Set(honest.map((e) => e.type));
    for (const type of ["WarChestIncomeRecorded", "CommanderAppointed", "CommanderKilled", "ArmyMoved"])
      expect(types, type).toContain(type);
    expect(
      honest.some((e) =>
        ["FormationsPurchased", "SupportPurchased", "DefencesPurchased", "ArmyPurchased"].includes(e.type),
      ),
    ).toBe(true);
  });

  const firstIncome = (events: Written[]) => indexOf(events, (e) => e.type === "WarChestIncomeRecorded");
  const incomeOf = (events: Written[], at: number) => events[at]!.data as EventData<"WarChestIncomeRecorded">;

  it("A8 an income event that pays more than the table gives does not recompute", async () => {
    let at = 0;
    const forgedReport = await rewrite("emberfall", honest, (events) => {
      at = firstIncome(events);
      const data = incomeOf(events, at);
      events[at] = {
        ...events[at]!,
        data: {
          ...data,
          total: data.total + 500,
          change: data.change + 500,
          earned: data.earned + 500,
          balance: data.balance + 500,
        },
      };
      return events;
    });
    const finding = expectFinding(forgedReport, VERDICTS.incomeMismatch, "A8", at + 1);
    expect(finding.detail).toContain("records total");
    expect(finding.player).toBe(incomeOf(honest.map(rewritten), at).player);
  });

  it("A8 a side that finishes the End phase without its income recorded is reported", async () => {
    let finished = 0;
    const forgedReport = await rewrite("emberfall", honest, (events) => {
      const at = firstIncome(events);
      const player = incomeOf(events, at).player;
      const kept = events.filter((_, i) => i !== at);
      finished = indexOf(
        kept,
        (e) => e.type === "EndPhaseFinished" && (e.data as { player: string }).player === player,
      );
      return kept;
    });
    expectFinding(forgedReport, VERDICTS.incomeMismatch, "A8", finished + 1);
  });

  /** The End phase of turn 1, just after both sides' income: who bought, what it held, and where its armies stood. */
  function endPhase(events: Written[]) {
    const at = firstIncome(events) + 2;
    const income = incomeOf(events, at - 2);
    return { at, player: income.player, balance: income.balance, turn: income.turn };
  }

  it("A8 defences bought for more than the war chest holds are reported; the same bought within the balance are not", async () => {
    let at = 0;
    let square: [number, number] = [0, 0];
    const buy = (points: number) => (events: Written[]) => {
      const end = endPhase(events);
      at = end.at;
      const home = events.find(
        (e) => e.type === "HomeBasePlaced" && (e.data as EventData<"HomeBasePlaced">).player === end.player,
      )!.data as EventData<"HomeBasePlaced">;
      square = home.at;
      return insert(
        events,
        at,
        forged(
          "DefencesPurchased",
          { turn: end.turn, player: end.player, at: square, points: points === 0 ? end.balance + 50 : points },
          end.player,
        ),
      );
    };
    const over = await rewrite("emberfall", honest, buy(0));
    const finding = expectFinding(over, VERDICTS.overspent, "A8", at + 1);
    expect(finding.detail).toContain("the war chest never goes below 0");
    const within = await rewrite("emberfall", honest, buy(50));
    // The purchase written in by hand carries no signature of concord's (D2), which that check reports; A8 does not.
    expect(within.findings.filter((f) => f.seqs[0] === at + 1).map((f) => f.verdict)).toEqual([VERDICTS.unsigned]);
  });

  it("A8 formations bought below their catalogue points, and put into an enemy army, are reported", async () => {
    let at = 0;
    const forgedReport = await rewrite("emberfall", honest, (events) => {
      const end = endPhase(events);
      at = end.at;
      const enemy = events.find(
        (e) => e.type === "ArmyRegistered" && (e.data as EventData<"ArmyRegistered">).player !== end.player,
      )!.data as EventData<"ArmyRegistered">;
      const formation = enemy.formations[0]!;
      return insert(
        events,
        at,
        forged(
          "FormationsPurchased",
          {
            turn: end.turn,
            player: end.player,
            army: enemy.army,
            formations: [{ ...formation, id: "bought" }],
            cost: 1,
          },
          end.player,
        ),
      );
    });
    const seq = at + 1;
    const findings = forgedReport.findings.filter((f) => f.seqs[0] === seq);
    expect(findings.map((f) => [f.verdict, f.rule])).toEqual(
      expect.arrayContaining([
        [VERDICTS.priceMismatch, "A8"],
        [VERDICTS.misplaced, "A8"],
      ]),
    );
  });

  it("A5 spending while the enemy holds the home base is reported", async () => {
    let at = 0;
    const forgedReport = await rewrite("emberfall", honest, (events) => {
      const end = endPhase(events);
      at = end.at;
      const enemyArmy = events.find(
        (e) => e.type === "ArmyRegistered" && (e.data as EventData<"ArmyRegistered">).player !== end.player,
      )!.data as EventData<"ArmyRegistered">;
      return insert(
        events,
        at,
        forged("ObjectiveCaptured", {
          turn: end.turn,
          objective: end.player,
          kind: "homeBase",
          by: enemyArmy.player,
          army: enemyArmy.army,
          how: "moved",
        }),
        forged(
          "SupportPurchased",
          { turn: end.turn, player: end.player, item: "blind-forged", kind: "blind", cost: 50, paidFrom: "warChest" },
          end.player,
        ),
      );
    });
    expectFinding(forgedReport, VERDICTS.spentWhenClosed, "A5", at + 2);
  });

  it("A7 support bought at another price than the list's is reported", async () => {
    let at = 0;
    const forgedReport = await rewrite("emberfall", honest, (events) => {
      const end = endPhase(events);
      at = end.at;
      return insert(
        events,
        at,
        forged(
          "SupportPurchased",
          { turn: end.turn, player: end.player, item: "vortex-forged", kind: "vortex", cost: 30, paidFrom: "warChest" },
          end.player,
        ),
      );
    });
    const finding = expectFinding(forgedReport, VERDICTS.priceMismatch, "A7", at + 1);
    expect(finding.detail).toContain("the price list says 300");
  });

  it("A6 a commander's death kept out of the log, and a promotion never earned, are reported", async () => {
    let resolved = 0;
    let next = 0;
    const hidden = await rewrite("emberfall", honest, (events) => {
      const killed = indexOf(events, (e) => e.type === "CommanderKilled");
      const battle = (events[killed]!.data as EventData<"CommanderKilled">).battle;
      resolved = indexOf(
        events,
        (e) => e.type === "BattleResolved" && (e.data as EventData<"BattleResolved">).battle === battle,
      );
      const kept = events.filter((_, i) => i !== killed);
      next = kept.findIndex(
        (e, i) => i > resolved && ["BattleResolved", "EndPhaseFinished", "TurnEnded"].includes(e.type),
      );
      return kept;
    });
    const death = expectFinding(hidden, VERDICTS.commanderMismatch, "A6", resolved + 1);
    expect(death.seqs).toEqual([resolved + 1, next + 1]);
    expect(death.detail).toContain("no CommanderKilled reveals it");

    let promoted = 0;
    const unearned = await rewrite("emberfall", honest, (events) => {
      const killed = indexOf(events, (e) => e.type === "CommanderKilled");
      const data = events[killed]!.data as EventData<"CommanderKilled">;
      resolved = indexOf(
        events,
        (e) => e.type === "BattleResolved" && (e.data as EventData<"BattleResolved">).battle === data.battle,
      );
      promoted = killed;
      return insert(
        events,
        killed,
        forged("CommanderPromoted", {
          turn: data.turn,
          army: data.army,
          player: data.player,
          battle: data.battle,
          commander: data.commander,
          level: 2,
        }),
      );
    });
    const promotion = expectFinding(unearned, VERDICTS.commanderMismatch, "A6", promoted + 1);
    expect(promotion.detail).toContain("killed it");
  });

  /** The battle where a side called in support, and the index of its BattleResolved. */
  function supportBattle(events: Written[]) {
    const at = indexOf(
      events,
      (e) =>
        e.type === "BattleResolved" &&
        ["attacker", "defender"].some(
          (role) => (e.data as EventData<"BattleResolved">).result[role as "attacker"].support?.length,
        ),
    );
    const data = events[at]!.data as EventData<"BattleResolved">;
    const role = data.result.attacker.support?.length ? "attacker" : "defender";
    return { at, data, role, use: data.result[role]!.support![0]! } as const;
  }
  const withSupport = (
    data: EventData<"BattleResolved">,
    role: "attacker" | "defender",
    support: EventData<"BattleResolved">["result"]["attacker"]["support"],
  ) => ({
    ...data,
    result: { ...data.result, [role]: { ...data.result[role], support } },
  });

  it("A7 a one-shot called in twice, and an item never bought, are reported at the battle result", async () => {
    let at = 0;
    const forgedReport = await rewrite("emberfall", honest, (events) => {
      const battle = supportBattle(events);
      at = battle.at;
      const support = [
        { ...battle.use, turns: [1, 2] },
        { item: "ghost-barrage", turns: [1] },
      ];
      events[at] = { ...events[at]!, data: withSupport(battle.data, battle.role, support) };
      return events;
    });
    const findings = forgedReport.findings.filter((f) => f.verdict === VERDICTS.supportMisused && f.seqs[0] === at + 1);
    expect(findings.map((f) => f.rule)).toEqual(["A7", "A7"]);
    expect(findings.map((f) => f.detail)).toEqual([
      expect.stringContaining("a one-shot weapon, yet"),
      expect.stringContaining(`"ghost-barrage" in battle`),
    ]);
  });

  it("A7 an item called in again after it was used up is reported", async () => {
    let first = 0;
    let again = 0;
    const forgedReport = await rewrite("emberfall", honest, (events) => {
      const battle = supportBattle(events);
      first = battle.at;
      // The same side's next battle calls the struck-off item in once more.
      const player = (events.find((e) => e.type === "SupportExpended")!.data as EventData<"SupportExpended">).player;
      again = events.findIndex((e, i) => i > first && e.type === "BattleResolved");
      const next = events[again]!.data as EventData<"BattleResolved">;
      const started = events.find(
        (e) => e.type === "BattleStarted" && (e.data as EventData<"BattleStarted">).battle === next.battle,
      )!.data as EventData<"BattleStarted">;
      const role =
        (
          events.find(
            (e) => e.type === "ArmyRegistered" && (e.data as EventData<"ArmyRegistered">).army === started.attacker,
          )!.data as EventData<"ArmyRegistered">
        ).player === player
          ? "attacker"
          : "defender";
      events[again] = { ...events[again]!, data: withSupport(next, role, [{ item: battle.use.item, turns: [1] }]) };
      return events;
    });
    const finding = expectFinding(forgedReport, VERDICTS.supportMisused, "A7", again + 1);
    expect(finding.seqs).toEqual([again + 1, first + 1]);
    expect(finding.detail).toContain("it was used up in battle");
  });

  it("A7 an item called in but never struck off, and one struck off that was not called in, are reported", async () => {
    let resolved = 0;
    let closing = 0;
    const kept = await rewrite("emberfall", honest, (events) => {
      resolved = supportBattle(events).at;
      const rest = events.filter((e) => e.type !== "SupportExpended");
      closing = rest.findIndex(
        (e, i) => i > resolved && ["BattleResolved", "EndPhaseFinished", "TurnEnded"].includes(e.type),
      );
      return rest;
    });
    const unstruck = expectFinding(kept, VERDICTS.supportRosterMismatch, "A7", resolved + 1);
    expect(unstruck.seqs).toEqual([resolved + 1, closing + 1]);
    expect(unstruck.detail).toContain("no SupportExpended struck it off");

    let struck = 0;
    const robbed = await rewrite("emberfall", honest, (events) => {
      // The host strikes a side's newly bought item off its roster before it was ever called in.
      const bought = indexOf(events, (e) => e.type === "SupportPurchased");
      const data = events[bought]!.data as EventData<"SupportPurchased">;
      const battle = (
        events.filter((e, i) => i < bought && e.type === "BattleResolved").pop()!.data as EventData<"BattleResolved">
      ).battle;
      struck = bought + 1;
      return insert(
        events,
        struck,
        forged("SupportExpended", { turn: data.turn, battle, player: data.player, items: [data.item] }),
      );
    });
    const finding = expectFinding(robbed, VERDICTS.supportRosterMismatch, "A7", struck + 1);
    expect(finding.detail).toContain("did not call it in battle");
  });

  const carriedAt = (events: Written[]) => indexOf(events, (e) => e.type === "TitanDamageCarried");

  it("A8 titan damage carried must be the damage of the battle result: more is reported, and so is none", async () => {
    let at = 0;
    const inflated = await rewrite("emberfall", honest, (events) => {
      at = carriedAt(events);
      const data = events[at]!.data as EventData<"TitanDamageCarried">;
      const damage = Object.fromEntries(
        Object.entries(data.damage).map(([titan, d]) => [titan, { ...d, shields: d.shields + 2 }]),
      );
      events[at] = { ...events[at]!, data: { ...data, damage } };
      return events;
    });
    const more = expectFinding(inflated, VERDICTS.titanDamageMismatch, "A8", at + 1);
    expect(more.seqs).toEqual([at + 1, at]);
    expect(more.detail).toContain("its result (seq");

    let resolved = 0;
    let closing = 0;
    let repaired = 0;
    const dropped = await rewrite("emberfall", honest, (events) => {
      at = carriedAt(events);
      resolved = indexOf(
        events,
        (e) =>
          e.type === "BattleResolved" &&
          (e.data as EventData<"BattleResolved">).battle ===
            (events[at]!.data as EventData<"TitanDamageCarried">).battle,
      );
      const rest = events.filter((_, i) => i !== at);
      closing = rest.findIndex(
        (e, i) => i > resolved && ["BattleResolved", "EndPhaseFinished", "TurnEnded"].includes(e.type),
      );
      repaired = indexOf(rest, (e) => e.type === "TitanRepaired");
      return rest;
    });
    const none = expectFinding(dropped, VERDICTS.titanDamageMismatch, "A8", resolved + 1);
    expect(none.seqs).toEqual([resolved + 1, closing + 1]);
    expect(none.detail).toContain("no TitanDamageCarried keeps it on them");
    // With nothing carried, the honest repair now restores damage the titan does not carry.
    expectFinding(dropped, VERDICTS.titanDamageMismatch, "A8", repaired + 1);
  });

  it("A8 repairs that restore more shields than the titan carries are reported; the honest repair is not", async () => {
    let at = 0;
    const forgedReport = await rewrite("emberfall", honest, (events) => {
      at = indexOf(events, (e) => e.type === "TitanRepaired");
      const data = events[at]!.data as EventData<"TitanRepaired">;
      events[at] = { ...events[at]!, data: { ...data, shields: data.shields + 1, cost: data.cost + 100 } };
      return events;
    });
    const finding = expectFinding(forgedReport, VERDICTS.titanDamageMismatch, "A8", at + 1);
    expect(finding.detail).toMatch(/restore \d+ shields\/fields, but it carried \d+ down/);
    expect(honest.some((e) => e.type === "TitanRepaired")).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------------------

/** A campaign on a golden fixture, its chores (seeds, rolls) taken by a table as the golden cases do. */
async function golden(fixture: string, patch: unknown = {}) {
  const engine = await Engine.open(await tempDir("epicwar-audit-advanced-"), { clock: CLOCK });
  const setup = mergePatch(goldenSetup(fixture), patch) as ReturnType<typeof goldenSetup>;
  const created = await engine.create(setupCommands(setup).map((step) => step.command));
  if (!created.ok) throw new Error(JSON.stringify(created.refusal));
  const parties = new Set([HOST, ...setup.players.map((p) => p.id)]);
  const table = new Table(engine, setup.campaign, {
    parties,
    secrets: new MemorySecrets(),
    random: sequenceRandomHex("audit"),
    chores: true,
  });
  await table.takeChores();
  const must = async (command: Record<string, unknown>) => {
    const outcome = await table.submit(command);
    if (!outcome.ok) throw new Error(`refused: ${JSON.stringify(outcome.refusal)}`);
    return outcome.events;
  };
  const append = async <T extends DomainEvent["type"]>(type: T, data: EventData<T>, actor = HOST) => {
    const head = await engine.store.head(setup.campaign);
    const [stored] = await engine.store.append(setup.campaign, head.seq, [forged(type, data, actor)]);
    return stored!;
  };
  const audit = () => auditStream(engine.store, setup.campaign);
  const winner = async () => (await engine.state(setup.campaign)).turnState!.initiativeWinner!;
  /** The last stored event of a type (the table's chores write some after a command's own events). */
  const last = async (type: DomainEvent["type"]) =>
    (await engine.store.readAll(setup.campaign)).filter((e) => e.type === type).pop()!;
  return { engine, must, append, audit, winner, last };
}

describe("A4 the audit measures moves by terrain costs", () => {
  it("A4 an Advance of R + 1 squares over the free road square is allowed; one square more is moved too far", async () => {
    const game = await golden("advanced-movement.json");
    try {
      await game.must({ actor: await game.winner(), type: "ChooseFirst", first: "red" });
      await game.must({
        actor: "red",
        type: "ActivateArmy",
        army: "g2k",
        order: "advance",
        path: [
          [12, 1],
          [13, 1],
          [14, 1],
          [15, 1],
        ],
      });
      await game.must({ actor: "red", type: "RevealOrder", army: "g2k" });
      const legal = (await game.audit()).turns[0]!.armies.find((a) => a.army === "g2k")!;
      expect(legal).toMatchObject({ squares: 4, allowed: 4, status: "ok", verdicts: ["ok"] });
      expect(legal.activation.rate).toBe(3);
    } finally {
      await game.engine.close();
    }

    const over = await golden("advanced-movement.json");
    try {
      await over.must({ actor: await over.winner(), type: "ChooseFirst", first: "red" });
      await over.must({
        actor: "red",
        type: "ActivateArmy",
        army: "g2k",
        order: "advance",
        path: [
          [12, 1],
          [13, 1],
          [14, 1],
          [15, 1],
          [15, 2],
        ],
      });
      const revealed = await over.must({ actor: "red", type: "RevealOrder", army: "g2k" });
      expect(revealed.find((e) => e.type === "OrderViolated")?.data).toMatchObject({ rule: "A4" });
      const report = await over.audit();
      const army = report.turns[0]!.armies.find((a) => a.army === "g2k")!;
      expect(army).toMatchObject({ squares: 5, allowed: 4, status: "failed", verdicts: [VERDICTS.movedTooFar] });
      const finding = report.findings.find((f) => f.verdict === VERDICTS.movedTooFar)!;
      expect(finding.detail).toContain("which allows 4 at terrain costs (A4) at move rate 3");
      // The engine's own OrderViolated (A4) is confirmed, not reported as an unconfirmed breach.
      expect(report.findings.map((f) => f.verdict)).not.toContain(VERDICTS.unconfirmedBreach);
    } finally {
      await over.engine.close();
    }
  });
});

describe("A3 the audit checks scouting", () => {
  const SCOUTING = { campaign: "scout-audit", options: { advanced: { scouting: true } } };

  async function rolled() {
    const game = await golden("battle-ready.json", SCOUTING);
    await game.must({ actor: await game.winner(), type: "ChooseFirst", first: "red" });
    await game.must({ actor: "red", type: "ScoutArmy", army: "r1", target: "b1" });
    return game;
  }

  it("A3 a size stated within the band audits clean; a bluff beyond it, written by the host, is reported", async () => {
    const honest = await rolled();
    try {
      await honest.must({ actor: "blue", type: "AnswerScouting", scouting: "t1s1", firstFire: false });
      await honest.must({ actor: "blue", type: "StateArmySize", scouting: "t1s1", points: 2750 });
      const report = await honest.audit();
      expect(report.findings, renderAudit(report).join("\n")).toEqual([]);
    } finally {
      await honest.engine.close();
    }

    const bluffed = await rolled();
    try {
      await bluffed.must({ actor: "blue", type: "AnswerScouting", scouting: "t1s1", firstFire: false });
      const roll = await bluffed.last("ScoutingRolled");
      expect(roll.data).toMatchObject({ band: "scoutWins" });
      const stated = await bluffed.append(
        "ArmySizeStated",
        { turn: 1, scouting: "t1s1", army: "b1", player: "blue", points: 2751 },
        "blue",
      );
      const finding = expectFinding(await bluffed.audit(), VERDICTS.scoutingBluff, "A3", stated.seq);
      expect(finding.seqs).toEqual([stated.seq, roll.seq]);
      expect(finding.detail).toContain("its true size was 1,750");
      expect(finding.detail).toContain("allows at most 1,000 either way");
    } finally {
      await bluffed.engine.close();
    }
  });

  it("A3 a First Fire bonus claimed without revealing First Fire is reported", async () => {
    const game = await rolled();
    try {
      const answered = await game.append(
        "ScoutingAnswered",
        { turn: 1, scouting: "t1s1", army: "b1", player: "blue", bonus: 2 },
        "blue",
      );
      expectFinding(await game.audit(), VERDICTS.bonusUnrevealed, "A3", answered.seq);
    } finally {
      await game.engine.close();
    }
  });

  it("A3 D1 a scouting roll is listed among the turn's rolls, pending while the host's seed is secret", async () => {
    const game = await rolled();
    try {
      await game.must({ actor: "blue", type: "AnswerScouting", scouting: "t1s1", firstFire: false });
      const roll = await game.last("ScoutingRolled");
      const report = await game.audit();
      const listed = report.turns[0]!.rolls;
      expect(listed.map((r) => r.kind)).toEqual(["initiative", "scouting"]);
      expect(listed[1]).toMatchObject({
        kind: "scouting",
        seq: roll.seq,
        scouting: "t1s1",
        army: "r1",
        target: "b1",
        status: "pending",
        verdict: PENDING_SEED,
        recomputed: null,
      });
      expect(report).toMatchObject({ ok: true, pending: 3 });
      const text = renderAudit(report).join("\n");
      expect(text).toContain(`roll seq ${roll.seq}: scouting t1s1 (r1 scouts b1), dice `);
      expect(text).toMatch(/Result: ok: 1 turn, 0 activations, 2 rolls checked, everything recomputes; 3 pending/);
    } finally {
      await game.engine.close();
    }
  });

  it("A3 D1 a scouting turn played to its end recomputes from the seeds; a forged die of the same total is reported", async () => {
    const game = await rolled();
    let honest: StoredEvent[];
    try {
      await game.must({ actor: "blue", type: "AnswerScouting", scouting: "t1s1", firstFire: false });
      await game.must({ actor: "blue", type: "StateArmySize", scouting: "t1s1", points: 1750 });
      await game.must({ actor: "red", type: "ActivateArmy", army: "r1", order: "advance", path: [[1, 1]] });
      await game.must({ actor: "blue", type: "ActivateArmy", army: "b1", order: "firstFire", path: [] });
      await game.must({ actor: "red", type: "ActivateArmy", army: "r2", order: "firstFire", path: [] });
      await game.must({ actor: "blue", type: "ActivateArmy", army: "b2", order: "firstFire", path: [] });
      await game.must({ actor: "red", type: "FinishEndPhase" });
      await game.must({ actor: "blue", type: "FinishEndPhase" });
      const report = await game.audit();
      expect(report.findings, renderAudit(report).join("\n")).toEqual([]);
      const turn = report.turns[0]!;
      expect(turn.state).toBe("ended");
      const scouting = turn.rolls.find((r) => r.kind === "scouting")!;
      expect(scouting).toMatchObject({ status: "ok", verdict: "ok" });
      expect(scouting.recomputed).toEqual(scouting.rounds);
      honest = await game.engine.store.readAll("scout-audit");
    } finally {
      await game.engine.close();
    }

    let at = 0;
    let ended = 0;
    const forgedReport = await rewrite("scout-audit", honest, (events) => {
      at = indexOf(events, (e) => e.type === "ScoutingRolled");
      ended = indexOf(events, (e) => e.type === "TurnEnded");
      const data = events[at]!.data as EventData<"ScoutingRolled">;
      const rounds = data.rounds.map((round, i) =>
        i === data.rounds.length - 1 ? { ...round, scout: sameTotal(round.scout) } : round,
      );
      events[at] = { ...events[at]!, data: { ...data, rounds } };
      return events;
    });
    const finding = expectFinding(forgedReport, VERDICTS.scoutingMismatch, "A3", at + 1);
    expect(finding.seqs).toEqual([at + 1, ended + 1]);
    expect(finding.detail).toContain("but the seeds give");
    expect(forgedReport.turns[0]!.rolls.find((r) => r.kind === "scouting")).toMatchObject({
      status: "failed",
      verdict: VERDICTS.scoutingMismatch,
    });
  });

  it("A3 a second scouting roll naming dice already drawn does not recompute", async () => {
    const game = await rolled();
    try {
      await game.must({ actor: "blue", type: "AnswerScouting", scouting: "t1s1", firstFire: false });
      const honest = (await game.last("ScoutingRolled")).data as EventData<"ScoutingRolled">;
      expect(honest.firstDie).toBeGreaterThan(0);
      // The host rolls again, naming dice drawn already: caught at once, whatever the seeds give.
      const again = await game.append("ScoutingRolled", { ...honest, firstDie: 0 });
      expectFinding(await game.audit(), VERDICTS.scoutingMismatch, "A3", again.seq);
    } finally {
      await game.engine.close();
    }
  });
});
