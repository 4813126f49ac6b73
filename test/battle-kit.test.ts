/**
 * The battle kit beyond the golden cases: the audit finds a changed kit roll (D1 with K3), a log written before the
 * kit (or a volley allocated before its dice) reads as it was played, `epicwar battle` prints the whole sheet, and the allies limit holds where a formation
 * replaces another (E6) or is bought into an army (A8), and `epicwar kit` plays the kit's commands at the table.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampaignCreated } from "../events/CampaignCreated.js";
import type { Catalogue, RosterFormation } from "../events/common.js";
import type { AllocatedHit, HitKind, TargetUnit } from "../events/kit-common.js";
import { toCurrent, type StoredEvent } from "../events/index.js";
import type { CampaignSetup } from "../projections/state.js";
import { auditCampaign, VERDICTS, type AuditInput, type KitRollAudit } from "../replays/audit.js";
import { loadAuditInput } from "../replays/audit-load.js";
import { renderAudit } from "../replays/audit-text.js";
import { Engine } from "../src/engine/engine.js";
import { conditionsFromDice } from "../projections/battle-kit-tables.js";
import { requireWithinCeiling } from "../src/rules/reserves.js";
import { allocateBeforeDice, rollVolley } from "../src/rules/hit-allocation.js";
import { Refused } from "../src/rules/refusal.js";
import { runInProcess, show } from "./support/cli.js";
import { ASHFALL, CAMPAIGN, CLOCK, playAshfall, playedFolder, removePlayed } from "./replays-support.js";
import { sequenceRandomHex } from "../src/client/prepare.js";
import { MemorySecrets } from "../src/client/secrets.js";
import { Table } from "../src/client/table.js";
import { nextDecision } from "../src/demo/play.js";
import { waitingOn } from "../src/rules/waiting-on.js";
import { loadSetupFile } from "../src/setup/setup-loader.js";
import { setupCommands } from "../src/setup/setup-file.js";
import { tempDir } from "./support/tmp.js";

const FIXTURES = fileURLToPath(new URL("golden/fixtures", import.meta.url));

describe("D1 K3 the audit of the battle kit's rolls", () => {
  let input: AuditInput;
  beforeAll(async () => {
    const db = await tempDir("epicwar-kit-audit-");
    const engine = await Engine.open(db, { sync: false, clock: CLOCK });
    try {
      await playAshfall(engine, db, 3);
      input = await loadAuditInput(engine.store, CAMPAIGN);
    } finally {
      await engine.close();
    }
  });

  /** The first roll of that type (a conditions roll) of an ended turn, and the same log with `edit` made to it. */
  function tampered(edit: (data: Record<string, unknown>) => void, type = "BattleConditionsRolled") {
    const ended = new Set(
      input.events.filter((e) => e.type === "TurnEnded").map((e) => (e.data as { turn: number }).turn),
    );
    const index = input.events.findIndex((e) => e.type === type && ended.has((e.data as { turn: number }).turn));
    expect(index, `a ${type} in an ended turn`).toBeGreaterThanOrEqual(0);
    const events = structuredClone(input.events);
    edit(events[index]!.data as Record<string, unknown>);
    return { seq: events[index]!.seq, report: auditCampaign({ ...input, events }) };
  }

  it("D1 K3 every kit roll of the demo recomputes from the seeds and is listed with its battle", () => {
    const report = auditCampaign(input);
    expect(report.findings, renderAudit(report).join("\n")).toEqual([]);
    const kit = report.turns.flatMap((turn) => turn.rolls).filter((roll): roll is KitRollAudit => roll.kind === "kit");
    expect(kit.length).toBeGreaterThan(0);
    for (const roll of kit) expect(roll).toMatchObject({ status: "ok", battle: expect.stringMatching(/^t\db\d$/) });
    expect(renderAudit(report).join("\n")).toMatch(/battle t\db\d: conditions \(K3\), dice \d+-\d+: d6 \d, d6 \d/);
  });

  it("D1 K3 a kit die changed to another face is found: it does not recompute from the seeds", () => {
    const { seq, report } = tampered((data) => {
      const dice = data["dice"] as Array<{ face: number }>;
      dice[0]!.face = (dice[0]!.face % 6) + 1;
    });
    const findings = report.findings.filter((f) => f.seqs.includes(seq));
    expect(findings.map((f) => [f.rule, f.verdict])).toContainEqual(["D1", VERDICTS.rollMismatch]);
  });

  it("K3 a conditions roll whose band does not follow from its dice is found: the rules read the dice again", () => {
    const { seq, report } = tampered((data) => {
      const conditions = data["conditions"] as { light: { band: string } };
      conditions.light.band = conditions.light.band === "darkestNight" ? "hopeFades" : "darkestNight";
    });
    const findings = report.findings.filter((f) => f.seqs.includes(seq));
    // And the host's signed roll, decided again, gives the band its dice read to (D2).
    expect(findings.map((f) => f.verdict)).toEqual([VERDICTS.derivedMismatch, VERDICTS.notDecided]);
  });

  it("K5 saves that do not follow from their dice are found: the rules allocate and roll the volley again", () => {
    const { seq, report } = tampered((data) => {
      const saves = data["saves"] as Array<{ unit: string; saved: boolean }>;
      saves[0]!.unit = saves[0]!.unit === "nobody" ? "somebody" : "nobody";
    }, "SavesRolled");
    const findings = report.findings.filter((f) => f.seqs.includes(seq));
    // And the host's signed roll, decided again, gives the saves its dice and volley give (D2).
    expect(findings.map((f) => f.verdict)).toEqual([VERDICTS.derivedMismatch, VERDICTS.notDecided]);
  });

  it("K5 a volley of HitsAllocated version 1 is audited as it was played: allocated before its dice", () => {
    const asVersion1 = (allocation: (units: TargetUnit[], hits: HitKind[]) => AllocatedHit[]) => {
      const events = structuredClone(input.events);
      const index = events.findIndex((e) => e.type === "HitsAllocated");
      expect(index, "a volley in the log").toBeGreaterThanOrEqual(0);
      const data = events[index]!.data as { units: TargetUnit[]; hits: HitKind[]; allocation?: AllocatedHit[] };
      // The audit reads events at their current version: a v1 volley is one that kept its allocation.
      data.allocation = allocation(data.units, data.hits);
      // A v1 volley was written before commands were signed: the allocation is checked, not what the demo's signed
      // command (played now, so deciding a version 2 volley) decides to (D2).
      const report = auditCampaign({ ...input, events });
      const findings = report.findings.filter((f) => f.verdict !== VERDICTS.notDecided);
      return { seq: events[index]!.seq, report: { ...report, findings } };
    };
    // The demo's volleys hold no TK hit on a war engine, so both ways of allocating give the same saves.
    expect(asVersion1(allocateBeforeDice).report.findings).toEqual([]);
    const { seq, report } = asVersion1((units, hits) =>
      allocateBeforeDice(units, hits).map((a) => ({ ...a, unit: units.at(-1)!.id })),
    );
    expect(report.findings.filter((f) => f.seqs.includes(seq)).map((f) => f.verdict)).toEqual([
      VERDICTS.derivedMismatch,
    ]);
  });

  it("D1 K3 a kit roll rewritten whole, its band made to fit its new dice, is still found by the seeds", () => {
    const { seq, report } = tampered((data) => {
      const faces = (data["dice"] as Array<{ face: number }>).map((die) => (die.face % 6) + 1);
      let i = 0;
      data["dice"] = faces.map((face) => ({ sides: 6, face }));
      data["conditions"] = conditionsFromDice({ light: true, rain: true }, () => faces[i++]!);
    });
    const findings = report.findings.filter((f) => f.seqs.includes(seq));
    // The host signed other faces than these (D2): its command, decided again, gives the roll it signed.
    expect(findings.map((f) => [f.rule, f.verdict])).toEqual([
      ["D1", VERDICTS.rollMismatch],
      [undefined, VERDICTS.notDecided],
    ]);
  });
});

describe("K2 K3 a log from before the battle kit", () => {
  it("K2 K3 a CampaignCreated of version 2 is read at version 3 with no battle kit and no allies", () => {
    const stored = { type: "CampaignCreated", version: 2, data: { options: { armySize: 2000 } } } as StoredEvent;
    const current = toCurrent(stored);
    expect(current.version).toBe(3);
    expect((current.data as CampaignCreated).options).toEqual({ armySize: 2000 });
  });
});

describe("A3 a scouting of version 1: the order it made public was revealed separately", () => {
  it.each(["ScoutingDeclared", "ScoutingAnswered"])("A3 %s v1 is read with separateReveal", (type) => {
    const data = { turn: 1, scouting: "t1s1", army: "b1", player: "blue", bonus: 0 };
    expect(toCurrent({ type, version: 1, data } as StoredEvent)).toMatchObject({
      version: 2,
      data: { ...data, separateReveal: true },
    });
  });
});

describe("K5 a volley allocated before its dice (HitsAllocated version 1)", () => {
  const units: TargetUnit[] = [
    { id: "engine", kind: "warEngine", distanceCm: 10, save: 4, eligible: true },
    { id: "tank", kind: "armouredVehicle", distanceCm: 20, save: 4, eligible: true },
  ];
  const hits: HitKind[] = ["TK", "AT", "AT"];
  const played: AllocatedHit[] = [
    { hit: 0, kind: "TK", unit: "engine" },
    { hit: 1, kind: "AT", unit: "tank" },
    { hit: 2, kind: "AT", unit: "engine" },
  ];
  const dice = (faces: number[]) => (sides: number) => {
    const face = faces.shift()!;
    expect(face).toBeLessThanOrEqual(sides);
    return face;
  };

  it("K5 is read at version 2 with the allocation it was played with", () => {
    const data = {
      turn: 1,
      battle: "t1b1",
      player: "blue",
      volley: "t1b1v1",
      units,
      hits,
      allocation: played,
      unallocated: [],
    };
    const current = toCurrent({ type: "HitsAllocated", version: 1, data } as StoredEvent);
    expect(current.version).toBe(2);
    expect(current.data).toEqual(data);
  });

  it("K5 its saves are rolled on that allocation; a volley given now counts the TK damage as hits", () => {
    expect(rollVolley(units, hits, dice([2, 5, 1]), played).saves.map((s) => s.unit)).toEqual([
      "engine",
      "tank",
      "engine",
    ]);
    expect(rollVolley(units, hits, dice([2, 5, 1])).saves.map((s) => s.unit)).toEqual(["engine", "tank", "tank"]);
  });
});

describe("K1 K2 K3 K5 epicwar battle", () => {
  let db: string;
  beforeAll(async () => {
    db = await playedFolder(3);
  });
  afterAll(() => removePlayed(db));

  it("K1 K2 K3 K5 prints the whole sheet of a battle: terrain guide, scenario, conditions turn by turn, the assistant", async () => {
    const run = await runInProcess(["battle", "t2b1", "--db", db]);
    expect(run.code, show(run)).toBe(0);
    expect(run.stdout).toMatch(/^Battle t2b1, turn 2, at \(\d+,\d+\): /);
    expect(run.stdout).toMatch(/ {2}Terrain \(K1\): \w+\n {4}\w+ \(\w+\): /);
    expect(run.stdout).toMatch(/ {2}Scenario \(K2\): [A-Z][\w/ ]+ \((rolled|proposed by \w+, accepted by \w+)\)/);
    expect(run.stdout).toMatch(/ {4}Light: .+ \(d6 \d\): Turn/);
    expect(run.stdout).toMatch(/ {4}Rain: .+ \(d6 \d\): Turn/);
    expect(run.stdout).toMatch(/ {2}Volley t2b1v1 on \w+'s formation \(K5\)/);
  });

  it("K1 K2 K3 --json prints the sheet's data, the same the server's sheet route gives", async () => {
    const run = await runInProcess(["battle", "t2b1", "--db", db, "--json"]);
    expect(run.code, show(run)).toBe(0);
    const sheet = JSON.parse(run.stdout) as {
      battle: string;
      terrain: { guide: string[] };
      conditions: { rows: unknown[] };
    };
    expect(sheet.battle).toBe("t2b1");
    expect(sheet.terrain.guide.length).toBeGreaterThan(0);
    expect(sheet.conditions.rows.length).toBeGreaterThanOrEqual(2);
  });

  it("K1 an unknown battle is refused with the battles there are", async () => {
    const run = await runInProcess(["battle", "t9b9", "--db", db]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/battle: no battle "t9b9" in this campaign \(its battles: t\db\d/);
  });
});

describe("K4 allies where a formation joins an army in the End phase", () => {
  const catalogue: Catalogue = {
    name: "allies",
    unitTypes: { stand: { name: "Stand", moveCm: 10, abilities: ["infantry"] } },
    formations: {
      own: { name: "Own company", kind: "company", points: 3000, faction: "marines", units: { stand: 6 } },
      guard: { name: "Guard company", kind: "company", points: 1000, faction: "guard", units: { stand: 6 } },
      guardPlus: { name: "Guard company", kind: "company", points: 1001, faction: "guard", units: { stand: 6 } },
    },
  };
  const setup = { catalogue, force: { maxArmyPoints: 5000, armies: 2, total: 10000 }, options: { allies: true } };
  const roster = (...formations: string[]): RosterFormation[] =>
    formations.map((formation, i) => ({ id: `f${i}`, formation, units: { stand: 6 } }));
  const army = { id: "r1" } as Parameters<typeof requireWithinCeiling>[1];
  const check = (formations: RosterFormation[]) => () =>
    requireWithinCeiling(setup as unknown as CampaignSetup, army, formations, 'replacing "f1"');

  it("K4 E6 a replacement that leaves allies at exactly 25% is accepted", () => {
    expect(check(roster("own", "guard"))).not.toThrow();
  });

  it("K4 E6 A8 a replacement or purchase that takes allies one point over 25% is refused with K4", () => {
    expect(check(roster("own", "guardPlus"))).toThrow(Refused);
    try {
      check(roster("own", "guardPlus"))();
    } catch (error) {
      expect((error as Refused).refusal).toMatchObject({ kind: "rule", rule: "K4" });
      expect((error as Refused).refusal.message).toContain("at most 25%");
    }
  });
});

describe("K2 K5 epicwar kit", () => {
  let dir: string;
  let db: string;
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const kit = (...args: string[]) => runInProcess(["kit", "t1b1", "--db", db, ...args]);
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "epicwar-kit-cli-"));
    db = join(dir, "db");
    const setup = JSON.parse(await readFile(join(FIXTURES, "battle-ready.json"), "utf8")) as Record<string, unknown>;
    const file = join(dir, "setup.json");
    await writeFile(
      file,
      JSON.stringify({
        ...setup,
        catalogue: join(FIXTURES, "catalogue.json"),
        options: { battleKit: { scenario: "attackerProposes", light: true } },
      }),
    );
    expect((await runInProcess(["new", "--db", db, "--setup", file])).code).toBe(0);
    const waiting = JSON.parse((await runInProcess(["waiting", "--db", db, "--json"])).stdout) as {
      parties: Record<string, Array<{ command: string }>>;
    };
    const chooser = Object.keys(waiting.parties).find(
      (party) => waiting.parties[party]![0]?.command === "ChooseFirst",
    )!;
    const lines = [
      { actor: chooser, type: "ChooseFirst", first: "red" },
      {
        actor: "red",
        type: "ActivateArmy",
        army: "r1",
        order: "advance",
        path: [
          [1, 1],
          [1, 2],
          [1, 3],
        ],
      },
    ];
    const attack = await runInProcess(["apply", "--db", db, "-"], lines.map((line) => JSON.stringify(line)).join("\n"));
    expect(attack.code, show(attack)).toBe(0);
  });

  it("K2 the defender may not propose: refused with K2, nothing written", async () => {
    const run = await kit("--player", "blue", "--propose", "pincer");
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/refused: K2: the attacker, red, proposes the scenario/);
  });

  it("K2 D1 the attacker proposes, the defender declines, the host's chore rolls it; the sheet shows each step", async () => {
    const proposed = await kit("--player", "red", "--propose", "pincer");
    expect(proposed.code, show(proposed)).toBe(0);
    expect(proposed.stdout).toContain("Scenario (K2): not settled yet: red proposes Pincer: blue to accept or decline");
    const declined = await kit("--player", "blue", "--decline");
    expect(declined.code, show(declined)).toBe(0);
    expect(declined.stdout).toMatch(/battle t1b1: the scenario rolled is [\w/ ]+ \(d7: d7 [1-7]\)/);
    expect(declined.stdout).toMatch(/Scenario \(K2\): [\w/ ]+ \(rolled\)/);
  });

  it("K5 D1 the defender has hits allocated and its saves are rolled", async () => {
    const units = [
      { id: "rifles", kind: "infantry", distanceCm: 12, save: 6, eligible: true },
      { id: "tanks", kind: "armouredVehicle", distanceCm: 20, save: 4, eligible: true },
    ];
    const run = await runInProcess(
      ["kit", "t1b1", "--db", db, "--player", "blue", "--hits", "AT,AP", "--units", "-"],
      JSON.stringify(units),
    );
    expect(run.code, show(run)).toBe(0);
    expect(run.stdout).toMatch(/Volley t1b1v1 on blue's formation \(K5\): 1 AT, 1 AP/);
    expect(run.stdout).toMatch(/ {4}rifles \(infantry, 12 cm\): AP; saves [1-6] against 6\+: (saved|failed)/);
    expect(run.stdout).toMatch(/ {4}tanks \(armouredVehicle, 20 cm\): AT; saves [1-6] against 4\+: (saved|failed)/);
  });

  it("K5 one action at a time: no action, or two, is refused before anything is written", async () => {
    const run = await kit("--player", "blue", "--accept", "--decline");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("give exactly one of --propose");
  });
});

describe("K2 K3 K5 the demo's commanders at the battle kit", () => {
  it("K2 K3 K5 every decision the demo makes is one the campaign waits on from its actor, so a seat playing from its own view makes it too", async () => {
    const db = await tempDir("epicwar-kit-seat-");
    const engine = await Engine.open(db, { sync: false, clock: CLOCK });
    try {
      const setup = await loadSetupFile(ASHFALL);
      const created = await engine.create(setupCommands(setup).map((step) => step.command));
      expect(created.ok).toBe(true);
      const table = new Table(engine, CAMPAIGN, {
        secrets: new MemorySecrets(),
        random: sequenceRandomHex("kit-seat"),
      });
      await table.takeChores();
      const kinds = new Set<string>();
      for (let state = await table.state(); state.status === "active"; state = await table.state()) {
        const decision = nextDecision(state);
        if (!decision) throw new Error(`stuck: waiting for ${JSON.stringify(waitingOn(state).parties)}`);
        expect(waitingOn(state).parties[decision.actor], `${decision.type} by ${decision.actor}`).not.toEqual([]);
        kinds.add(decision.type);
        expect((await table.submit(decision)).ok, decision.type).toBe(true);
      }
      expect([...kinds]).toEqual(expect.arrayContaining(["ProposeScenario", "AnswerScenario", "AllocateHits"]));
    } finally {
      await engine.close();
    }
  });
});
