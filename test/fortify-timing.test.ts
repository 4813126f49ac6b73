/**
 * E3 timing: the ruling (Fortify builds from its activation, made known with its reveal) is the default; the
 * `atEndPhase` option keeps the defences for the End phase; and a log created before the option existed (CampaignCreated
 * version 1) is read under `atEndPhase`, so that it replays and audits as it was played. The ruling's own cases on
 * the board are golden (test/golden/E/E3-*).
 *
 * The campaign: test/golden/fixtures/end-ready.json, one turn: r2 on Fortify at (4,0) is attacked by b2 on Advance
 * after its activation and wins the battle; r1 and b1 hold on First Fire.
 */
import { allBattles, replaySettling } from "../projections/settled-battles.js";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { BattleResult, Options } from "../events/common.js";
import type { NewEvent } from "../events/envelope.js";
import { CampaignCreated } from "../events/CampaignCreated.js";
import { defineEvent, EVENT_DEFINITIONS, EventCatalogue, toCurrent, type StoredEvent } from "../events/index.js";
import { replay } from "../projections/campaign.js";
import { DERIVED_VERDICTS } from "../replays/audit-report.js";
import { auditStream } from "../replays/audit-load.js";
import type { AuditReport } from "../replays/audit.js";
import { renderAudit } from "../replays/audit-text.js";
import { renderState } from "../src/cli/render.js";
import { sequenceRandomHex } from "../src/client/prepare.js";
import { MemorySecrets } from "../src/client/secrets.js";
import { Table } from "../src/client/table.js";
import { Engine } from "../src/engine/engine.js";
import { EventStore } from "../src/log/index.js";
import { describeRefusal } from "../src/rules/refusal.js";
import { setupCommands } from "../src/setup/setup-file.js";
import { viewState } from "../src/views/view.js";
import { goldenSetup } from "./support/fixtures.js";
import { asWritten } from "./support/rewrite.js";
import { tempDir } from "./support/tmp.js";

const CLOCK = () => new Date("2026-01-01T00:00:00.000Z");

const defenderWins: BattleResult = {
  outcome: "defender",
  attacker: { vp: 5, losses: {}, routed: {} },
  defender: { vp: 20, losses: {}, routed: {} },
};

/** The turn of the module comment, played with `options`; returns its stored events. */
async function fortifiedAndAttacked(options: Options): Promise<StoredEvent[]> {
  const engine = await Engine.open(join(await tempDir("epicwar-fortify-"), "db"), { clock: CLOCK, sync: false });
  try {
    const setup = { ...goldenSetup("end-ready.json"), options };
    const created = await engine.create(setupCommands(setup).map((step) => step.command));
    if (!created.ok) throw new Error(describeRefusal(created.refusal));
    const table = new Table(engine, setup.campaign, {
      secrets: new MemorySecrets(),
      random: sequenceRandomHex("fortify"),
    });
    await table.takeChores();
    const play = async (command: Record<string, unknown>) => {
      const outcome = await table.submit(command);
      if (!outcome.ok) throw new Error(`${JSON.stringify(command)} refused: ${describeRefusal(outcome.refusal)}`);
    };
    const activate = (army: string, order: string, path: number[][] = []) =>
      play({ actor: army.startsWith("r") ? "red" : "blue", type: "ActivateArmy", army, order, path });
    await play({ actor: (await table.state()).turnState!.initiativeWinner!, type: "ChooseFirst", first: "red" });
    await activate("r1", "firstFire");
    await activate("b1", "firstFire");
    await activate("r2", "fortify");
    await activate("b2", "advance", [
      [4, 2],
      [4, 1],
      [4, 0],
    ]);
    await play({ actor: "blue", type: "ReportBattleResult", battle: "t1b1", result: defenderWins });
    await play({ actor: "red", type: "ConfirmBattleResult", battle: "t1b1" });
    await play({ actor: "red", type: "FinishEndPhase" });
    await play({ actor: "blue", type: "FinishEndPhase" });
    return await engine.store.readAll(setup.campaign);
  } finally {
    await engine.close();
  }
}

/** What an engine from before the E3 timing option wrote: CampaignCreated at version 1 (its data fits version 2). */
const versionOneEngine = new EventCatalogue([
  ...EVENT_DEFINITIONS.filter((definition) => definition.type !== "CampaignCreated"),
  defineEvent("CampaignCreated", 1, CampaignCreated.schema),
]);

/**
 * The events, edited by `edit`, sealed one after the other into a fresh store (by an engine that wrote `catalogue`);
 * its events and its audit, read by this engine.
 */
async function resealed(
  events: readonly StoredEvent[],
  edit: (events: NewEvent[]) => void,
  catalogue?: EventCatalogue,
): Promise<{ events: StoredEvent[]; report: AuditReport }> {
  const edited = events.map(asWritten);
  edit(edited);
  const folder = join(await tempDir("epicwar-fortify-old-"), "db");
  const store = await EventStore.open(folder, { sync: false, ...(catalogue && { catalogue }) });
  try {
    await store.append(events[0]!.stream, 0, edited);
    return { events: await store.readAll(events[0]!.stream), report: await auditStream(store, events[0]!.stream) };
  } finally {
    await store.close();
  }
}

/** CampaignCreated as version 1 wrote it: no `fortifyBuilds` among the options. */
function asVersionOne(events: NewEvent[]): void {
  const created = events[0]!;
  const { fortifyBuilds: _dropped, ...options } = (created.data as { options: Options }).options;
  created.version = 1;
  created.data = { ...(created.data as object), options };
}

/** The state the events fold to, folded from copies as the log reads them back (a fold may write into what it folds). */
const stateOf = (events: readonly StoredEvent[]) => replay(structuredClone(events).map(toCurrent));
/** Every battle the events start, the settled ones (projections/settled-battles.ts) with the current turn's. */
const battlesOf = (events: readonly StoredEvent[]) => allBattles(replaySettling(events.map(toCurrent)));
const types = (events: readonly StoredEvent[]) => events.map((event) => event.type);
const findingsText = (report: AuditReport) => renderAudit(report).join("\n");

describe("E3 timing of a Fortify order's defences", () => {
  it("E3 by default the defences are built with the Fortify reveal, before the battle, and not again at the End phase", async () => {
    const events = await fortifiedAndAttacked({});
    const reveal = events.findIndex((e) => e.type === "OrderRevealed" && (e.data as { army: string }).army === "r2");
    expect(events[reveal + 1]).toMatchObject({ type: "DefencesBuilt", data: { army: "r2", at: [4, 0], points: 450 } });
    expect(types(events).filter((type) => type === "DefencesBuilt")).toHaveLength(1);
    expect(battlesOf(events)["t1b1"]).toMatchObject({ defences: 450, builtThisTurn: 450 });
    expect(stateOf(events).defences).toEqual({ "4,0": 450 });
    const { report } = await resealed(events, () => {});
    expect(report.findings, findingsText(report)).toEqual([]);
  });

  it("E3 B2 the battle sheet shows this turn's defences once the Fortify order is revealed, never before", async () => {
    const events = await fortifiedAndAttacked({});
    const sheet = (seq: number) => renderState(viewState(stateOf(events.slice(0, seq)), "blue"), { viewer: "blue" });
    const started = events.find((e) => e.type === "BattleStarted")!.seq;
    const built = events.find((e) => e.type === "DefencesBuilt")!.seq;
    expect(sheet(started)).toContain("t1b1 at (4,0)");
    expect(sheet(started)).not.toContain("defences");
    expect(sheet(built)).toContain("450 pts of defences for the defender (450 of them built this turn on Fortify)");
    expect(sheet(built)).toContain("Defences: (4,0) 450 pts");
  });

  it("E3 the audit recomputes the defences of a Fortify reveal: left out of the log, they are reported missing", async () => {
    const events = await fortifiedAndAttacked({});
    const built = events.findIndex((e) => e.type === "DefencesBuilt");
    const { report } = await resealed(events, (edited) => edited.splice(built, 1));
    const missing = report.findings.filter((f) => f.verdict === DERIVED_VERDICTS.derivedMissing);
    expect(missing, findingsText(report)).toHaveLength(1);
    expect(missing[0]).toMatchObject({ rule: "E3", seqs: [built] });
  });

  it("E3 with the atEndPhase option the attacked Fortify army fights with no defences and builds them when the turn ends", async () => {
    const events = await fortifiedAndAttacked({ fortifyBuilds: "atEndPhase" });
    const built = types(events).indexOf("DefencesBuilt");
    expect(types(events)[built + 1]).toBe("TurnEnded");
    expect(battlesOf(events)["t1b1"]!.defences).toBe(0);
    expect(stateOf(events).defences).toEqual({ "4,0": 450 });
    const battlePhase = events.find((e) => e.type === "ActionPhaseEnded")!.seq;
    expect(renderState(viewState(stateOf(events.slice(0, battlePhase)), "red"), { viewer: "red" })).toContain(
      "no defences for the defender yet",
    );
  });

  it("E3 a CampaignCreated of version 1 is read with the atEndPhase option, the timing its campaign was played under", () => {
    const stored = { type: "CampaignCreated", version: 1, data: { options: { armySize: 2000 } } } as StoredEvent;
    expect(toCurrent(stored).data).toEqual({ options: { armySize: 2000, fortifyBuilds: "atEndPhase" } });
  });

  it("E3 a log created before the timing option replays, shows its battle and audits clean as it was played", async () => {
    const played = await fortifiedAndAttacked({ fortifyBuilds: "atEndPhase" });
    const old = await resealed(played, asVersionOne, versionOneEngine);
    expect(old.events[0]).toMatchObject({ type: "CampaignCreated", version: 1 });
    expect(old.report.findings, findingsText(old.report)).toEqual([]);
    expect(stateOf(old.events)).toEqual(stateOf(played));
    // Read under the ruling instead, the same log would not audit clean: the upcast is what keeps it as played.
    const misread = await resealed(played, (edited) => {
      asVersionOne(edited);
      edited[0]!.version = CampaignCreated.version;
    });
    expect(misread.report.findings.map((f) => f.rule)).toContain("E3");
  });
});
