/**
 * Every command that prints a campaign shows a player only what it may see (docs/views.md), in process on the two
 * demo campaigns, played once into temp folders: `state --turn/--seq --as` (what the seat held at that moment, not
 * its secrets file of today), `timeline --as`, `audit --as`, `diff --as` and `demo --as`.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toCurrent, type CurrentEvent } from "../events/index.js";
import type { AuditReport, Finding } from "../replays/audit.js";
import { loadAuditInput } from "../replays/audit-load.js";
import { runAudit } from "../src/cli/commands/audit.js";
import { runBranch } from "../src/cli/commands/branch.js";
import { ADVANCED_DEMO, BASIC_DEMO } from "../src/cli/commands/demo-campaigns.js";
import { runDemo } from "../src/cli/commands/demo.js";
import { runDiff } from "../src/cli/commands/diff.js";
import { showStateAt } from "../src/cli/commands/replay.js";
import { runTimeline } from "../src/cli/commands/timeline.js";
import { defaultSecretsDir, Seat } from "../src/cli/seat.js";
import { withEngine } from "../src/cli/session.js";
import type { PartySecrets } from "../src/client/secrets.js";
import { viewAudit } from "../src/views/audit.js";
import { logViewContext } from "../src/views/log.js";

let dir: string;
let ashfall: string;
let emberfall: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "epicwar-views-commands-"));
  ashfall = join(dir, "ashfall");
  emberfall = join(dir, "emberfall");
  await withEngine({ db: ashfall }, {}, (engine) => runDemo(engine, ashfall, () => {}, BASIC_DEMO));
  await withEngine({ db: emberfall }, {}, (engine) => runDemo(engine, emberfall, () => {}, ADVANCED_DEMO));
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Runs a printing command, collecting its lines. */
async function lines(run: (print: (line: string) => void) => Promise<void>): Promise<string[]> {
  const out: string[] = [];
  await run((line) => out.push(line));
  return out;
}

const events = (db: string, campaign: string): Promise<CurrentEvent[]> =>
  withEngine({ db: db }, { createIfMissing: false }, async (engine) =>
    (await engine.store.readAll(campaign)).map(toCurrent),
  );

describe("T5 a player's view of a past moment holds only what it held then", () => {
  const heldAt = (seq: number) =>
    withEngine({ db: ashfall }, { createIfMissing: false }, async (engine) => {
      const json = await showStateAt(new Seat(engine, { db: ashfall, as: "horde" }), { seq }, true);
      return (JSON.parse(json) as { heldOrders: Record<string, string> }).heldOrders;
    });

  it("T5 state --turn 1 --phase action --as horde shows no order of h1 before h1 was activated; after, its own; revealed, none", async () => {
    const log = await events(ashfall, "ashfall");
    const kept = JSON.parse(
      await readFile(join(defaultSecretsDir(ashfall), "ashfall", "horde.json"), "utf8"),
    ) as PartySecrets;
    const order = kept.orders?.["1/h1"]?.order;
    expect(order, "the demo's secrets file holds h1's order of turn 1").toBeDefined();

    const text = await withEngine({ db: ashfall }, { createIfMissing: false }, (engine) =>
      showStateAt(new Seat(engine, { db: ashfall, as: "horde" }), { turn: 1, phase: "action" }, false),
    );
    expect(text).not.toContain("hidden from your opponent");
    const start = await withEngine({ db: ashfall }, { createIfMissing: false }, (engine) =>
      showStateAt(new Seat(engine, { db: ashfall, as: "horde" }), { turn: 1, phase: "action" }, true),
    );
    expect((JSON.parse(start) as { heldOrders: object }).heldOrders).toEqual({});

    const activated = log.find((e) => e.type === "ArmyActivated" && e.data.turn === 1 && e.data.army === "h1")!;
    const revealed = log.find((e) => e.type === "OrderRevealed" && e.data.turn === 1 && e.data.army === "h1")!;
    expect(await heldAt(activated.seq - 1)).not.toHaveProperty("h1");
    expect((await heldAt(activated.seq))["h1"]).toBe(order);
    expect(await heldAt(revealed.seq)).not.toHaveProperty("h1");
  });
});

describe("S8 A6 timeline --as shows a player only what it may see", () => {
  /** "ruin of horde gets a commander (...)": the army, its player, and what follows. */
  const appointed = (text: string[]) =>
    text.flatMap((line) => {
      const match = /: (\S+) of (\S+) gets a commander(.*)$/.exec(line);
      return match ? [{ army: match[1]!, player: match[2]!, named: match[3]! }] : [];
    });

  it("A6 timeline names every commander appointed; timeline --as concord names its own only, --as horde the mirror image", async () => {
    const all = appointed(await lines((print) => runTimeline({ db: emberfall }, print)));
    const concord = appointed(await lines((print) => runTimeline({ db: emberfall, as: "concord" }, print)));
    const horde = appointed(await lines((print) => runTimeline({ db: emberfall, as: "horde" }, print)));
    expect(all.filter((a) => a.player === "horde").length).toBeGreaterThan(0);
    expect(all.filter((a) => a.player === "concord").length).toBeGreaterThan(0);
    for (const a of all)
      expect(a.named, `${a.army}'s commander in the timeline as stored`).toMatch(/^ \(.+ of .+\), Commander level \d$/);
    expect(concord.map((a) => a.army)).toEqual(all.map((a) => a.army));
    concord.forEach((a, i) =>
      expect(a.named, `concord's view of ${a.army}`).toBe(a.player === "concord" ? all[i]!.named : ""),
    );
    horde.forEach((a, i) =>
      expect(a.named, `horde's view of ${a.army}`).toBe(a.player === "horde" ? all[i]!.named : ""),
    );
  });

  it("A6 timeline --json --as horde names no concord commander nor its level, but those killed; an unknown viewer is refused", async () => {
    const log = await events(emberfall, "emberfall");
    const state = logViewContext(log).state;
    const entries = (await lines((print) => runTimeline({ db: emberfall, as: "horde", json: true }, print))).map(
      (line) => JSON.parse(line) as { type: string; text: string },
    );
    const secret = entries.filter((e) =>
      ["CommanderAppointed", "CommanderPromoted", "CommanderStoodDown"].includes(e.type),
    );
    const concords = secret.filter((e) =>
      Object.values(state.armies).some((a) => a.player === "concord" && new RegExp(`\\b${a.id}\\b`).test(e.text)),
    );
    expect(concords.length).toBeGreaterThan(0);
    for (const e of concords) expect(e.text).not.toMatch(/\(.+ of .+\)|level \d/);
    // A killed commander is public (CommanderKilled names it to both players).
    const killed = entries.filter(
      (e) => e.type === "CommanderKilled" && /the commander of \S+ \(.+ of .+\)/.test(e.text),
    );
    expect(killed.length).toBe(log.filter((e) => e.type === "CommanderKilled").length);
    await expect(runTimeline({ db: emberfall, as: "green" }, () => {})).rejects.toThrow(
      /"green" is not a player of emberfall/,
    );
  });
});

describe("audit --as: the findings of the shared log, without the other side's secrets or the log's hashes", () => {
  it("audit --as horde hides the head hash that audit (and --as host) prints; the rest is the same report", async () => {
    const asStored = await lines((print) => runAudit({ db: emberfall, json: true }, print));
    const asHost = await lines((print) => runAudit({ db: emberfall, json: true, as: "host" }, print));
    const asHorde = await lines((print) => runAudit({ db: emberfall, json: true, as: "horde" }, print));
    expect(asHost).toEqual(asStored);
    const stored = JSON.parse(asStored[0]!) as AuditReport;
    const horde = JSON.parse(asHorde[0]!) as AuditReport;
    expect(stored.chain).toMatchObject({ ok: true, headHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(horde).toEqual({ ...stored, chain: { ...stored.chain, headHash: "hidden" } });
    const text = (await lines((print) => runAudit({ db: emberfall, as: "horde" }, print))).join("\n");
    expect(text).toContain("head hidden");
    expect(text).not.toContain((stored.chain as { headHash: string }).headHash.slice(0, 12));
    await expect(runAudit({ db: emberfall, as: "green" }, () => {})).rejects.toThrow(
      /^"green" is not a player of emberfall \(--as takes a player or host\)$/,
    );
  });

  it("A2 A6 a finding about the other side keeps its verdict and seqs; its detail goes where it is worked out from that side's secrets", async () => {
    const input = await withEngine({ db: emberfall }, { createIfMissing: false }, (engine) =>
      loadAuditInput(engine.store, "emberfall"),
    );
    const context = logViewContext(input.events);
    const registered = input.events.find((e) => e.type === "ArmyRegistered" && e.data.player === "horde")!;
    const moved = input.events.find(
      (e): e is Extract<typeof e, { type: "ArmyMoved" }> =>
        e.type === "ArmyMoved" && context.state.armies[e.data.army]?.player === "horde",
    )!;
    const hash = input.events[9]!.hash!;
    const finding = (f: Partial<Finding>): Finding =>
      ({ verdict: "ok", turn: null, seqs: [moved.seq], detail: "the detail", ...f }) as Finding;
    const findings = {
      commanders: finding({ rule: "A6", player: "horde", detail: "its level 3 commander leads armies of up to 6,000" }),
      warChest: finding({ rule: "A8", player: "horde", detail: "cost 900 but horde's war chest held 400" }),
      scouting: finding({ rule: "A3", player: "horde", detail: "a scouting bluff" }),
      move: finding({ army: moved.data.army, player: "horde", detail: "moved too far" }),
      redacted: finding({ player: "horde", seqs: [registered.seq], detail: "names the roster" }),
      own: finding({ rule: "A6", player: "concord", detail: "concord's own commander" }),
      log: finding({ detail: `event 10 has hash ${hash.slice(0, 12)}..., not the recorded one` }),
    };
    const report = {
      turns: [],
      findings: Object.values(findings),
      chain: { ok: true, events: 1, headHash: hash, verdict: "ok" },
    } as unknown as AuditReport;
    const viewed = Object.fromEntries(
      Object.keys(findings).map((key, i) => [key, viewAudit(report, "concord", context, input.events).findings[i]!]),
    );
    for (const key of ["commanders", "warChest", "redacted"]) {
      const f = viewed[key]!;
      expect(f.detail, key).toMatch(/^hidden: it would give away .*horde/);
      expect(f, key).toMatchObject({
        verdict: "ok",
        player: "horde",
        seqs: findings[key as keyof typeof findings].seqs,
        redacted: ["detail"],
      });
    }
    for (const key of ["scouting", "move", "own"])
      expect(viewed[key], key).toEqual(findings[key as keyof typeof findings]);
    expect(viewed["log"]!.detail).toBe("event 10 has hash hidden..., not the recorded one");
    expect(viewAudit(report, "host", context, input.events)).toBe(report);
    expect(viewAudit(report, "horde", context, input.events).findings[0]).toEqual(findings.commanders);
  });
});

describe("A2 diff --as: the other side's strength and reserves stay hidden under fog of war", () => {
  it("A2 diff --as horde drops the rows of concord's strength and reserves, and keeps every other row of diff", async () => {
    await runBranch({ db: emberfall, name: "alt", fromTurn: "2" }, () => {});
    const rows = async (as?: string) =>
      JSON.parse(
        (
          await lines((print) => runDiff("main", "alt", { db: emberfall, json: true, ...(as ? { as } : {}) }, print))
        )[0]!,
      ).differences as Array<{ what: string; a: string; b: string }>;
    const state = logViewContext(await events(emberfall, "emberfall")).state;
    const concordOnly = (what: string) => {
      const army = /^army (\S+) strength$/.exec(what)?.[1];
      return (army !== undefined && state.armies[army]?.player === "concord") || what === "reserves concord";
    };
    const all = await rows();
    const horde = await rows("horde");
    expect(all.filter((d) => concordOnly(d.what)).length).toBeGreaterThan(0);
    expect(all.filter((d) => /^army \S+ strength$/.test(d.what) && !concordOnly(d.what)).length).toBeGreaterThan(0);
    expect(horde).toEqual(all.filter((d) => !concordOnly(d.what)));
    expect(await rows("host")).toEqual(all);
  });
});

describe("demo --as: the account and the final state as the player sees them", () => {
  it("A6 demo --as concord, told again from the log, names no living horde commander and prints no head hash", async () => {
    const told = await lines((print) =>
      withEngine({ db: emberfall }, {}, (engine) => runDemo(engine, emberfall, print, ADVANCED_DEMO, "concord")),
    );
    const asStored = await lines((print) =>
      withEngine({ db: emberfall }, {}, (engine) => runDemo(engine, emberfall, print, ADVANCED_DEMO)),
    );
    expect(told.length).toBeGreaterThan(100);
    expect(asStored.some((line) => /of horde gets a commander \(/.test(line))).toBe(true);
    expect(told.some((line) => /of horde gets a commander \(/.test(line))).toBe(false);
    expect(told.some((line) => /of concord gets a commander \(/.test(line))).toBe(true);
    expect(told.at(-1)).toMatch(/^Hash chain: emberfall: intact, \d+ events$/);
    expect(asStored.at(-1)).toMatch(/, head [0-9a-f]{16}$/);
    expect(told.join("\n")).toContain("(you)");
  });
});
