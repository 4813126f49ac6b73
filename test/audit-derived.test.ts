/**
 * The audit recomputes what the rules derive (replays/audit-derived.ts): a host who rewrites the log and re-hashes it
 * whole (every event sealed again, a new head: the chain verifies) is caught by the rules, each rewrite reported with
 * its verdict, the rule that derives the event and the seq of the event that shows it.
 *
 * The campaign: test/golden/fixtures/battle-ready.json (F 10,000: target 100 CVPs; win 2, overwhelming 3, COM 5)
 * played by script, whoever wins the initiative letting blue open, so that no die changes what happens:
 * - turn 1: r2 moves onto blue's COM at (6,0) (E1); r1 attacks b1 at (1,3) and wins 40 to 10, overwhelming (43
 *   CVPs); b1 is routed, its units go In Transit (B5).
 * - turn 2: r1 charges through red's COM at (3,3) (E1) into b2 on the COM at (6,3), wins 60 to 5 (63 CVPs) and takes
 *   it (B6); b1's units join blue's Reserves (E4); red ends the turn on 106 + 15 = 121 CVPs and wins (E2).
 * And the demos (examples/ashfall.setup.json, examples/emberfall.setup.json) played by their scripted commanders.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type { BattleResult } from "../events/common.js";
import type { NewEvent } from "../events/envelope.js";
import type { DomainEvent, StoredEvent, EventData } from "../events/index.js";
import { DERIVED_VERDICTS } from "../replays/audit-report.js";
import { auditCampaign, type AuditReport, type Finding, type Verdict } from "../replays/audit.js";
import { auditStream, loadAuditInput } from "../replays/audit-load.js";
import { renderAudit } from "../replays/audit-text.js";
import { MemorySecrets } from "../src/client/secrets.js";
import { Table } from "../src/client/table.js";
import { playCampaign } from "../src/demo/play.js";
import { Engine } from "../src/engine/engine.js";
import { sha256Hex } from "../src/log/hash.js";
import { EventStore } from "../src/log/index.js";
import { describeRefusal } from "../src/rules/refusal.js";
import { loadSetupFile } from "../src/setup/setup-loader.js";
import { setupCommands } from "../src/setup/setup-file.js";
import { goldenSetup } from "./support/fixtures.js";
import { asWritten } from "./support/rewrite.js";
import { tempDir } from "./support/tmp.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLOCK = () => new Date("2026-01-01T00:00:00.000Z");
const V = DERIVED_VERDICTS;

/** Repeatable "random" bytes: seeds and salts are the same on every run. */
const counter = (label: string) => {
  let n = 0;
  return (bytes: number) =>
    sha256Hex(`${label}-${n++}`)
      .repeat(Math.ceil(bytes / 32))
      .slice(0, bytes * 2);
};

const win = (vp: number, loserVp: number): BattleResult => ({
  outcome: "attacker",
  attacker: { vp, losses: {}, routed: {} },
  defender: { vp: loserVp, losses: {}, routed: {} },
});

/** The scripted two-turn war of the module comment; returns its stored events. */
async function scriptedWar(): Promise<StoredEvent[]> {
  const engine = await Engine.open(join(await tempDir("epicwar-derived-"), "db"), { clock: CLOCK, sync: false });
  try {
    const setup = goldenSetup("battle-ready.json");
    const created = await engine.create(setupCommands(setup).map((step) => step.command));
    if (!created.ok) throw new Error(describeRefusal(created.refusal));
    const table = new Table(engine, setup.campaign, { secrets: new MemorySecrets(), random: counter("derived") });
    await table.takeChores();
    const play = async (command: Record<string, unknown>) => {
      const outcome = await table.submit(command);
      if (!outcome.ok) throw new Error(`${JSON.stringify(command)} refused: ${describeRefusal(outcome.refusal)}`);
    };
    const blueOpens = async () =>
      play({ actor: (await table.state()).turnState!.initiativeWinner!, type: "ChooseFirst", first: "blue" });
    const activate = (army: string, order: string, path: number[][] = []) =>
      play({ actor: army.startsWith("r") ? "red" : "blue", type: "ActivateArmy", army, order, path });
    const battle = async (id: string, result: BattleResult) => {
      await play({ actor: "red", type: "ReportBattleResult", battle: id, result });
      await play({ actor: "blue", type: "ConfirmBattleResult", battle: id });
    };
    const endPhase = async () => {
      await play({ actor: "red", type: "FinishEndPhase" });
      await play({ actor: "blue", type: "FinishEndPhase" });
    };

    await blueOpens();
    await activate("b1", "firstFire");
    await activate("r1", "advance", [
      [1, 1],
      [1, 2],
      [1, 3],
    ]);
    await activate("b2", "firstFire");
    await activate("r2", "advance", [[6, 0]]);
    await battle("t1b1", win(40, 10));
    await endPhase();

    await blueOpens();
    await activate("b2", "firstFire");
    await activate("r1", "charge", [
      [2, 3],
      [3, 3],
      [4, 3],
      [5, 3],
      [6, 3],
    ]);
    await activate("r2", "firstFire");
    await battle("t2b1", win(60, 5));
    await endPhase();
    const state = await table.state();
    expect(state.result, "the script plays a war red wins in turn 2").toEqual({ winner: "red", turn: 2 });
    return await engine.store.readAll(setup.campaign);
  } finally {
    await engine.close();
  }
}

/**
 * A host with the folder rewrites the log: the honest events, edited in place by `edit`, sealed again one after the
 * other into a fresh store with a new head, so that the chain verifies. Returns the audit of the rewritten log.
 */
async function rewritten(honest: readonly StoredEvent[], edit: (events: NewEvent[]) => void): Promise<AuditReport> {
  const events = honest.map(asWritten);
  edit(events);
  const store = await EventStore.open(join(await tempDir("epicwar-derived-forged-"), "db"), { sync: false });
  try {
    await store.append(honest[0]!.stream, 0, events);
    const report = await auditStream(store, honest[0]!.stream);
    expect(report.chain, "the rewritten chain verifies: only the rules can tell").toMatchObject({
      ok: true,
      events: events.length,
    });
    return report;
  } finally {
    await store.close();
  }
}

/** The index of the nth event of `type` (matching `where`); its seq is the index + 1 while nothing is inserted before it. */
function indexOf(
  events: readonly NewEvent[],
  type: string,
  where: (data: never) => boolean = () => true,
  nth = 0,
): number {
  const found = events.flatMap((event, index) => (event.type === type && where(event.data as never) ? [index] : []));
  if (found[nth] === undefined) throw new Error(`no ${type} #${nth} in the log`);
  return found[nth]!;
}

const dataAt = <T extends DomainEvent["type"]>(events: readonly NewEvent[], index: number, _type: T) =>
  events[index]!.data as EventData<T>;

/** Every derived-audit finding of the report. */
const derivedFindings = (report: AuditReport) =>
  report.findings.filter((f) => (Object.values(V) as string[]).includes(f.verdict));

/** The one finding of `verdict` about event `seq` (its main seq), naming `rule`; the report is not ok. */
function expectFinding(report: AuditReport, verdict: Verdict, rule: string, seq: number): Finding {
  const text = renderAudit(report).join("\n");
  const found = report.findings.filter((f) => f.verdict === verdict && f.seqs[0] === seq);
  expect(found, `expected "${verdict}" at seq ${seq}\n${text}`).toHaveLength(1);
  expect(found[0]!.rule, text).toBe(rule);
  expect(report.ok).toBe(false);
  expect(text).toContain(`! ${verdict} (${rule}): `);
  return found[0]!;
}

/** Adds `delta` CVPs to `player` in every TurnEnded and CampaignFinished from `from` on, as a careful forger would. */
function carryCvps(events: NewEvent[], from: number, player: string, delta: number): void {
  for (const event of events.slice(from)) {
    if (event.type !== "TurnEnded" && event.type !== "CampaignFinished") continue;
    const cvps = (event.data as EventData<"TurnEnded">).cvps;
    cvps[player] = cvps[player]! + delta;
  }
}

describe("the audit recomputes what the rules derive", () => {
  let honest: StoredEvent[];
  beforeAll(async () => {
    honest = await scriptedWar();
  });

  it("S4 B5 B6 E1 E2 E4 the scripted war, untouched, audits clean; rewritten unchanged it still does", async () => {
    const types = honest.map((e) => e.type);
    for (const type of [
      "ObjectiveCaptured",
      "BattleResolved",
      "ArmyRouted",
      "ArmyOccupied",
      "TransitArrived",
      "CampaignFinished",
    ])
      expect(types).toContain(type);
    const report = await rewritten(honest, () => {});
    expect(report.findings, renderAudit(report).join("\n")).toEqual([]);
  });

  it("S4 a BattleResolved with 30 VPs added for one side (and the turn's totals to match) does not recompute from the reported result", async () => {
    let at = 0;
    const report = await rewritten(honest, (events) => {
      at = indexOf(events, "BattleResolved");
      const data = dataAt(events, at, "BattleResolved");
      data.result.attacker.vp += 30;
      data.cvps["red"]! += 30;
      carryCvps(events, at, "red", 30);
    });
    const finding = expectFinding(report, V.derivedMismatch, "S4", at + 1);
    expect(finding.detail).toContain("result.attacker.vp 70 where the rules give 40");
    expect(finding.detail).toContain("cvps.red 73 where the rules give 43");
    // The totals carried forward agree with the forged award: the audit names the one event that is wrong.
    expect(derivedFindings(report), renderAudit(report).join("\n")).toHaveLength(1);
  });

  it("S4 a changed CVP award (a win's instead of an overwhelming win's) does not recompute", async () => {
    let at = 0;
    const report = await rewritten(honest, (events) => {
      at = indexOf(events, "BattleResolved", (d: EventData<"BattleResolved">) => d.battle === "t2b1");
      const data = dataAt(events, at, "BattleResolved");
      expect(data).toMatchObject({ overwhelming: true, cvps: { red: 63 } });
      data.overwhelming = false;
      data.cvps["red"] = 62;
      carryCvps(events, at, "red", -1);
    });
    const finding = expectFinding(report, V.derivedMismatch, "S4", at + 1);
    expect(finding.detail).toContain("cvps.red 62 where the rules give 63");
    expect(finding.detail).toContain("overwhelming false where the rules give true");
  });

  it("E2 a CampaignFinished naming the other winner does not recompute", async () => {
    let at = 0;
    const report = await rewritten(honest, (events) => {
      at = indexOf(events, "CampaignFinished");
      dataAt(events, at, "CampaignFinished").winner = "blue";
    });
    expect(expectFinding(report, V.derivedMismatch, "E2", at + 1).detail).toContain(
      'winner "blue" where the rules give "red"',
    );
  });

  it("E2 a changed turn of the win does not recompute", async () => {
    let at = 0;
    const report = await rewritten(honest, (events) => {
      at = indexOf(events, "CampaignFinished");
      dataAt(events, at, "CampaignFinished").turn = 1;
    });
    expect(expectFinding(report, V.derivedMismatch, "E2", at + 1).detail).toContain("turn 1 where the rules give 2");
  });

  it("E2 a second CampaignFinished appended and sealed is an event after the campaign finished", async () => {
    let first = 0;
    let appended = 0;
    const report = await rewritten(honest, (events) => {
      first = indexOf(events, "CampaignFinished");
      events.push({
        ...asWritten(honest[first]!),
        data: { ...dataAt(events, first, "CampaignFinished"), winner: "blue" },
      });
      appended = events.length - 1;
    });
    const finding = expectFinding(report, V.afterFinish, "E2", appended + 1);
    expect(finding.seqs).toEqual([appended + 1, first + 1]);
    expect(derivedFindings(report)).toHaveLength(1);
  });

  it("E2 a CampaignFinished left out although a side reached the target is a derived event missing", async () => {
    let ended = 0;
    const report = await rewritten(honest, (events) => {
      events.splice(indexOf(events, "CampaignFinished"), 1);
      ended = indexOf(events, "TurnEnded", (d: EventData<"TurnEnded">) => d.turn === 2);
    });
    expect(expectFinding(report, V.derivedMissing, "E2", ended + 1).detail).toContain(
      "the rules derive CampaignFinished",
    );
  });

  it("E1 a changed capture (another COM than the one moved onto) does not recompute", async () => {
    let at = 0;
    const report = await rewritten(honest, (events) => {
      at = indexOf(events, "ObjectiveCaptured", (d: EventData<"ObjectiveCaptured">) => d.how === "moved");
      const data = dataAt(events, at, "ObjectiveCaptured");
      const other = honest
        .flatMap((e) => (e.type === "ObjectivePlaced" ? [(e.data as EventData<"ObjectivePlaced">).objective] : []))
        .find((id) => id !== data.objective)!;
      data.objective = other;
    });
    expect(expectFinding(report, V.derivedMismatch, "E1", at + 1).detail).toContain("objective");
  });

  it("B6 a capture by battle left out is a derived event missing, named at the battle's result", async () => {
    let resolved = 0;
    const report = await rewritten(honest, (events) => {
      events.splice(
        indexOf(events, "ObjectiveCaptured", (d: EventData<"ObjectiveCaptured">) => d.how === "battle"),
        1,
      );
      resolved = indexOf(events, "BattleResolved", (d: EventData<"BattleResolved">) => d.battle === "t2b1");
    });
    expect(expectFinding(report, V.derivedMissing, "B6", resolved + 1).detail).toContain("ObjectiveCaptured");
  });

  it("B5 E4 units added In Transit by the rout (and carried into the Reserves) do not recompute at the rout", async () => {
    let routed = 0;
    const report = await rewritten(honest, (events) => {
      routed = indexOf(events, "ArmyRouted");
      const units = dataAt(events, routed, "ArmyRouted").units;
      const type = Object.keys(units)[0]!;
      units[type]! += 5;
      const arrived = indexOf(events, "TransitArrived");
      dataAt(events, arrived, "TransitArrived").units[type]! += 5;
    });
    expectFinding(report, V.derivedMismatch, "B5", routed + 1);
    expect(derivedFindings(report), renderAudit(report).join("\n")).toHaveLength(1);
  });

  it("E4 units added to the Reserves on arrival do not recompute", async () => {
    let arrived = 0;
    const report = await rewritten(honest, (events) => {
      arrived = indexOf(events, "TransitArrived");
      const units = dataAt(events, arrived, "TransitArrived").units;
      units[Object.keys(units)[0]!]! += 5;
    });
    expectFinding(report, V.derivedMismatch, "E4", arrived + 1);
  });

  it("B5 E4 the Reserves arrival left out is a derived event missing", async () => {
    let resolved = 0;
    const report = await rewritten(honest, (events) => {
      events.splice(indexOf(events, "TransitArrived"), 1);
      resolved = indexOf(events, "BattleResolved", (d: EventData<"BattleResolved">) => d.battle === "t2b1");
    });
    expectFinding(report, V.derivedMissing, "E4", resolved + 1);
  });

  it("B4 a BattleResolved whose result was never reported is an event the rules refuse", async () => {
    let resolved = 0;
    const report = await rewritten(honest, (events) => {
      events.splice(indexOf(events, "BattleResultReported"), 1);
      resolved = indexOf(events, "BattleResolved");
    });
    expect(expectFinding(report, V.derivedRefused, "B4", resolved + 1).detail).toContain("no result has been reported");
  });

  it("E1 a capture the rules do not give, slipped in after a move, is an event the rules do not derive", async () => {
    let slipped = 0;
    let activated = 0;
    const report = await rewritten(honest, (events) => {
      activated = indexOf(events, "ArmyActivated", (d: EventData<"ArmyActivated">) => d.army === "r2");
      const moved = indexOf(events, "ArmyMoved", (d: EventData<"ArmyMoved">) => d.army === "r2");
      const captured = events[indexOf(events, "ObjectiveCaptured")]!;
      const other = honest
        .flatMap((e) => (e.type === "ObjectivePlaced" ? [(e.data as EventData<"ObjectivePlaced">).objective] : []))
        .find((id) => id !== (captured.data as EventData<"ObjectiveCaptured">).objective)!;
      slipped = moved + 2;
      events.splice(slipped, 0, {
        ...captured,
        data: { ...(captured.data as EventData<"ObjectiveCaptured">), objective: other },
      });
    });
    // Named with the activation whose decision it follows.
    expect(expectFinding(report, V.derivedUnexpected, "E1", slipped + 1).seqs).toEqual([slipped + 1, activated + 1]);
  });
});

describe("the demos audit clean", () => {
  async function playedDemo(file: string, turns: number): Promise<AuditReport> {
    const engine = await Engine.open(join(await tempDir("epicwar-derived-demo-"), "db"), { clock: CLOCK, sync: false });
    try {
      const setup = await loadSetupFile(join(ROOT, "examples", file));
      const created = await engine.create(setupCommands(setup).map((step) => step.command));
      if (!created.ok) throw new Error(describeRefusal(created.refusal));
      await playCampaign(
        new Table(engine, setup.campaign, { secrets: new MemorySecrets(), random: counter(file) }),
        () => {},
        turns,
      );
      return auditCampaign(await loadAuditInput(engine.store, setup.campaign));
    } finally {
      await engine.close();
    }
  }

  it("S4 B5 B6 E1 E2 E4 E5 E6 the basic demo (Ashfall) played honestly: every derived event recomputes", async () => {
    const report = await playedDemo("ashfall.setup.json", 8);
    expect(report.findings, renderAudit(report).join("\n")).toEqual([]);
  });

  it("A6 A7 A8 E2 the advanced demo (Emberfall) played honestly: every derived event recomputes", async () => {
    const report = await playedDemo("emberfall.setup.json", 12);
    expect(report.findings, renderAudit(report).join("\n")).toEqual([]);
  });
});
