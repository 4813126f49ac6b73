/**
 * Player views (src/views/view.ts): what one player may see. Unit tests of S8 on scenarios decided by the real rules, then
 * a property over random campaigns played by the demo's scripted players on a real LevelDB: no view for one player
 * ever holds the other's secrets, every view a player gets is the same whatever the other side's secrets are
 * (non-interference), and the filter is not over-eager.
 */
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  catalogue,
  EVENT_DEFINITIONS,
  GENESIS_HASH,
  toCurrent,
  type CurrentEvent,
  type DomainEvent,
  type StoredEvent,
} from "../events/index.js";
import { initialState, type CampaignState } from "../projections/state.js";
import { eventFeed } from "../src/words/events.js";
import { logOutput, stateOutput } from "../src/cli/commands/show.js";
import { sequenceRandomHex } from "../src/client/prepare.js";
import { MemorySecrets, type HeldOrder } from "../src/client/secrets.js";
import { Table } from "../src/client/table.js";
import { nextDecision } from "../src/demo/play.js";
import type { PlainCommand } from "../src/demo/plain-command.js";
import { orderCommitment } from "../src/crypto/commitments.js";
import { Engine } from "../src/engine/engine.js";
import { sha256Hex } from "../src/log/hash.js";
import { canonicalJson } from "../src/crypto/commitments.js";
import { setupCommands } from "../src/setup/setup-file.js";
import { loadSetupFile } from "../src/setup/setup-loader.js";
import {
  commanderKilled,
  EVENT_SECRETS,
  HIDDEN,
  isPlayerEvent,
  ownHeldOrders,
  viewEvent,
  viewState,
  type ViewContext,
} from "../src/views/view.js";
import { GrowingViewContext, logViewContext } from "../src/views/log.js";
import { Scenario, side } from "./battle-support.js";
import { goldenSetup } from "./support/fixtures.js";
import {
  commanderFates,
  commanderTokens,
  PUBLIC_POINTS_EVENTS,
  RecordingSecrets,
  shownPointsFields,
  statePointsShown,
  uniqueCommander,
} from "./support/secret-search.js";
import { tempDir } from "./support/tmp.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

// ---------------------------------------------------------------------------------------------------------------
// Helpers

type Logged = DomainEvent & { seq: number };

/** Events as the log stores them: an envelope, hash-chained (canonical JSON, SHA-256) as src/log/store.ts does. */
function chain(events: ReadonlyArray<Logged & Partial<StoredEvent>>, stream = "golden"): StoredEvent[] {
  let prev = GENESIS_HASH;
  return events.map((event) => {
    const body = {
      stream,
      seq: event.seq,
      type: event.type,
      version: catalogue.definition(event.type)!.version,
      at: event.at ?? "2030-01-01T00:00:00.000Z",
      actor: event.actor ?? "host",
      data: event.data,
      prev,
    };
    const text = canonicalJson(body);
    const hash = sha256Hex(text);
    prev = hash;
    // As the store reads it back: the canonical body (keys sorted), then its hash.
    return { ...(JSON.parse(text) as typeof body), hash };
  });
}

const registration = (events: readonly StoredEvent[], army: string) =>
  events.find(
    (e) => (e.type === "ArmyRegistered" || e.type === "ArmyRaised") && (e.data as { army: string }).army === army,
  )!;

/** Scenario with battle-ready.json: r1 (commander line/command-stand) attacks b1 (commander line/command-stand) at (1,3). */
function oneBattle(): Scenario {
  return new Scenario()
    .startTurn()
    .activate("b1", "firstFire")
    .attack("r1", "advance", [
      [1, 1],
      [1, 2],
      [1, 3],
    ])
    .activate("b2", "firstFire")
    .activate("r2", "firstFire")
    .endActionPhase();
}

/** Activates an army where it stands with the commitment to `held` (as the player's side computes it, T5). */
function activateWith(s: Scenario, army: string, held: HeldOrder): void {
  const { campaign, turn } = s.state;
  const current = s.state.armies[army]!;
  const commitment = orderCommitment({ campaign: campaign!, turn, army, ...held });
  s.emit({
    type: "ArmyActivated",
    data: { turn, army, player: current.player, commitment, rate: current.moveRate, engaged: false, stacked: false },
  });
}

const B1_COMMANDER = { formation: "line", unitType: "command-stand" };

// ---------------------------------------------------------------------------------------------------------------
// S8 on scenarios

describe("S8 views: commanders known to their owner only until killed", () => {
  it("S8 the enemy's commanders are hidden in the state and in the ArmyRegistered events; a player's own are shown", () => {
    const s = new Scenario();
    const log = chain(s.events);
    const context = logViewContext(s.events);
    for (const [viewer, own, enemy] of [
      ["red", ["r1", "r2"], ["b1", "b2"]],
      ["blue", ["b1", "b2"], ["r1", "r2"]],
    ] as const) {
      const view = viewState(s.state, viewer, context);
      for (const army of own) expect(view.armies[army]!.commander).toEqual(s.state.armies[army]!.commander);
      for (const army of enemy) expect(view.armies[army]!.commander).toBe(HIDDEN);
      for (const army of own) {
        const seen = viewEvent(registration(log, army), viewer, context);
        expect((seen.data as { commander: unknown }).commander).toEqual(s.state.armies[army]!.commander);
        expect(seen).not.toHaveProperty("redacted");
      }
      for (const army of enemy) {
        const seen = viewEvent(registration(log, army), viewer, context);
        expect(seen.data).toMatchObject({ army, commander: HIDDEN });
        expect(seen).toMatchObject({ redacted: ["data.commander"] });
        // Everything else of the event is as logged: the roster is public (A2 is not in play).
        expect((seen.data as { formations: unknown }).formations).toEqual(
          (registration(log, army).data as { formations: unknown }).formations,
        );
      }
      // The rest of the state is the state itself.
      expect({ ...view, armies: null }).toEqual({ ...s.state, armies: null });
    }
  });

  it("S8 a player's view of an event keeps its envelope but no chain hashes: a hash would give a hidden commander away", () => {
    const s = new Scenario();
    const log = chain(s.events);
    const context = logViewContext(s.events);
    const event = registration(log, "b1");
    const seen = viewEvent(event, "red", context);
    expect(isPlayerEvent(seen)).toBe(true);
    expect(Object.keys(seen).sort()).toEqual(["actor", "at", "data", "redacted", "seq", "stream", "type", "version"]);
    // Why: the candidates are few (a unit type of a formation of the public roster); hashing each finds the commander.
    const { hash, ...body } = event;
    const formations = (event.data as { formations: Array<{ id: string; units: Record<string, number> }> }).formations;
    const candidates = formations.flatMap((f) =>
      Object.keys(f.units).map((unitType) => ({ formation: f.id, unitType })),
    );
    const found = candidates.filter(
      (commander) => sha256Hex(canonicalJson({ ...body, data: { ...(seen.data as object), commander } })) === hash,
    );
    expect(found).toEqual([B1_COMMANDER]);
    // Later hashes too: the next event's prev is this hash, and so on down the chain.
    expect(log[event.seq]!.prev).toBe(hash);
    for (const later of log.slice(event.seq)) expect(viewEvent(later, "red", context)).not.toHaveProperty("prev");
  });

  it("S8 the host and a view with no viewer see the log and the state as stored", () => {
    const s = new Scenario();
    const log = chain(s.events);
    const context = logViewContext(s.events);
    for (const viewer of ["host", undefined]) {
      expect(viewState(s.state, viewer, context)).toBe(s.state);
      for (const event of log) expect(viewEvent(event, viewer, context)).toBe(event);
    }
  });

  it("S8 a commander killed in battle (no unit of its type left in its formation) is revealed, in the state and in its ArmyRegistered", () => {
    const s = oneBattle();
    const before = logViewContext(s.events);
    expect(viewEvent(registration(chain(s.events), "b1"), "red", before).data).toMatchObject({ commander: HIDDEN });
    // b1 holds its square and wins, but its line company lost its only command stand: the commander.
    s.fight("t1b1", {
      outcome: "defender",
      attacker: side(5, { armour: { "battle-tank": 4 } }),
      defender: side(30, { line: { "command-stand": 1 } }),
    });
    expect(s.state.armies["b1"]).toMatchObject({ status: "active" });
    const log = chain(s.events);
    for (const context of [logViewContext(s.events), { state: s.state }]) {
      expect(commanderKilled(context.state, "b1", context.killed)).toBe(true);
      expect(viewState(s.state, "red", context).armies["b1"]!.commander).toEqual(B1_COMMANDER);
      // The view judges with the campaign now: the event of turn 0 shows what the battle of turn 1 revealed.
      const seen = viewEvent(registration(log, "b1"), "red", context);
      expect(seen.data).toMatchObject({ commander: B1_COMMANDER });
      expect(seen).not.toHaveProperty("redacted");
      // Only that one: b2's commander, and red's own for blue, are as they were.
      expect(viewState(s.state, "red", context).armies["b2"]!.commander).toBe(HIDDEN);
      expect(viewState(s.state, "blue", context).armies["r1"]!.commander).toBe(HIDDEN);
    }
    const text = stateOutput(logViewContext(s.events), "red", {}, false);
    expect(text).toContain("commander (killed): command-stand of line");
    expect(text).toContain("commander: command-stand of line"); // r1's own
  });

  it("S8 killing a unit of the commander's type in another formation, or some of several, reveals nothing", () => {
    const s = oneBattle();
    // b1's armour company has a command stand too; the commander is the one in its line company.
    s.fight("t1b1", {
      outcome: "defender",
      attacker: side(5),
      defender: side(30, { armour: { "command-stand": 1 }, line: { "rifle-stand": 6 } }),
    });
    const context = logViewContext(s.events);
    expect(context.killed?.has("b1")).toBe(false);
    expect(viewState(s.state, "red", context).armies["b1"]!.commander).toBe(HIDDEN);
  });

  it("S8 a commander killed in the battle that routed its army is revealed from the log; one that survived the rout stays hidden", () => {
    const killed = oneBattle();
    killed.fight("t1b1", {
      outcome: "attacker",
      attacker: side(30),
      defender: side(5, { line: { "command-stand": 1, "rifle-stand": 3 } }),
    });
    expect(killed.state.armies["b1"]).toMatchObject({ status: "routed" });
    const context = logViewContext(killed.events);
    expect(viewState(killed.state, "red", context).armies["b1"]!.commander).toEqual(B1_COMMANDER);
    expect(viewEvent(registration(chain(killed.events), "b1"), "red", context).data).toMatchObject({
      commander: B1_COMMANDER,
    });
    // From the state alone (the routed army's units are no longer counted by formation) the view cannot tell: it hides.
    expect(viewState(killed.state, "red").armies["b1"]!.commander).toBe(HIDDEN);

    const survived = oneBattle();
    survived.fight("t1b1", {
      outcome: "attacker",
      attacker: side(30),
      defender: side(5, { armour: { "battle-tank": 9, "command-stand": 1 } }),
    });
    expect(survived.state.armies["b1"]).toMatchObject({ status: "routed" });
    const after = logViewContext(survived.events);
    expect(after.killed?.has("b1")).toBe(false);
    expect(viewState(survived.state, "red", after).armies["b1"]!.commander).toBe(HIDDEN);
    expect(viewEvent(registration(chain(survived.events), "b1"), "red", after).data).toMatchObject({
      commander: HIDDEN,
    });
  });

  /** b1's commander killed in battle (its line company's only command stand), then the company reinforced (E6b). */
  const killedThenReinforced = () => {
    const s = oneBattle();
    s.fight("t1b1", { outcome: "defender", attacker: side(5), defender: side(30, { line: { "command-stand": 1 } }) });
    s.emit({
      type: "FormationReinforced",
      data: { turn: 1, army: "b1", player: "blue", formation: "line", units: { "command-stand": 1 } },
    });
    return s;
  };

  it("S8 a killed commander stays known after its formation is brought back to strength (E6b)", () => {
    const s = killedThenReinforced();
    expect(s.state.armies["b1"]!.formations.find((f) => f.id === "line")!.units["command-stand"]).toBe(1);
    expect(viewState(s.state, "red", logViewContext(s.events)).armies["b1"]!.commander).toEqual(B1_COMMANDER);
  });

  it("S8 a context advanced batch by batch, as the live feed keeps it, is the one logViewContext gives for the whole log", () => {
    const s = killedThenReinforced();
    const whole = logViewContext(s.events);
    expect(whole.killed?.has("b1")).toBe(true);
    // Every cut into two batches, the battle's events split every way, and one event per batch.
    const splits = s.events.map((_, cut) => [s.events.slice(0, cut), s.events.slice(cut)]);
    splits.push(s.events.map((event) => [event]));
    for (const batches of splits) {
      const growing = new GrowingViewContext();
      const contexts = batches.map((batch) => growing.advance(batch));
      expect(contexts.at(-1)).toEqual(whole);
      // A context handed out earlier keeps the killed commanders as they were when it was given.
      expect(contexts[0]!.killed).toEqual(logViewContext(batches[0]!).killed);
    }
  });

  it("S8 a player's held orders are its own, from its own secrets; the host and no viewer get none", async () => {
    const s = new Scenario().startTurn();
    const secrets = new MemorySecrets();
    const red: HeldOrder = { order: "charge", salt: "ab".repeat(16) };
    const blue: HeldOrder = { order: "fortify", salt: "cd".repeat(16) };
    await secrets.keepOrder("red", s.state.turn, "r2", red);
    await secrets.keepOrder("blue", s.state.turn, "b2", blue);
    activateWith(s, "r2", red);
    activateWith(s, "b2", blue);
    expect(await ownHeldOrders(s.state, "red", secrets)).toEqual({ r2: "charge" });
    expect(await ownHeldOrders(s.state, "blue", secrets)).toEqual({ b2: "fortify" });
    expect(await ownHeldOrders(s.state, "host", secrets)).toEqual({});
    expect(await ownHeldOrders(s.state, undefined, secrets)).toEqual({});
    const json = JSON.parse(
      stateOutput(logViewContext(s.events), "red", await ownHeldOrders(s.state, "red", secrets), true),
    ) as { heldOrders: unknown };
    expect(json.heldOrders).toEqual({ r2: "charge" });
  });

  it("T5 a held order shows only while its army stands activated with the commitment it opens, not yet revealed", async () => {
    // The secrets file is today's: a look at an earlier moment must not show an order given after it.
    const s = new Scenario().startTurn();
    const secrets = new MemorySecrets();
    const r1: HeldOrder = { order: "charge", salt: "ab".repeat(16) };
    const r2: HeldOrder = { order: "advance", salt: "cd".repeat(16) };
    await secrets.keepOrder("red", s.state.turn, "r1", r1);
    await secrets.keepOrder("red", s.state.turn, "r2", r2);
    const beforeAny = s.state;
    activateWith(s, "r1", r1);
    // r2's activation carries another order's commitment: the kept order is not the one it committed to.
    activateWith(s, "r2", { order: "fortify", salt: r2.salt });
    expect(await ownHeldOrders(beforeAny, "red", secrets), "before any activation").toEqual({});
    expect(await ownHeldOrders(s.state, "red", secrets)).toEqual({ r1: "charge" });
    s.emit({ type: "OrderRevealed", data: { turn: s.state.turn, army: "r1", order: r1.order, salt: r1.salt } });
    expect(await ownHeldOrders(s.state, "red", secrets), "once revealed, the order is in the state, not held").toEqual(
      {},
    );
  });

  it("S8 an army raised in the End phase (E6a) has its commander hidden from the enemy, in the event, the feed and the state", () => {
    const s = new Scenario();
    const raised = {
      turn: 1,
      army: "b3",
      player: "blue",
      name: "Blue Reborn",
      formations: [
        { id: "guard", formation: "line-company", units: { "command-stand": 1, "rifle-stand": 6, carrier: 4 } },
      ],
      commander: { formation: "guard", unitType: "command-stand" },
      at: [15, 2] as [number, number],
      units: { "command-stand": 1, "rifle-stand": 6, carrier: 4 },
    };
    s.emit({ type: "ArmyRaised", data: raised });
    const log = chain(s.events);
    const context = logViewContext(s.events);
    expect(viewEvent(log.at(-1)!, "red", context).data).toMatchObject({ army: "b3", commander: HIDDEN });
    expect(viewEvent(log.at(-1)!, "blue", context).data).toMatchObject({ army: "b3", commander: raised.commander });
    expect(viewState(s.state, "red", context).armies["b3"]!.commander).toBe(HIDDEN);
    const lines: string[] = [];
    eventFeed((line) => lines.push(line), "red", logViewContext(s.events.slice(0, -1)).state)(log.slice(-1));
    expect(lines).toEqual([`#${log.length} blue raises a new army b3 "Blue Reborn" from the Reserves at (15,2)`]);
    const [token] = commanderTokens(raised.commander);
    expect(stateOutput(context, "red", {}, true)).not.toMatch(token!);
    expect(stateOutput(context, "blue", {}, true)).toMatch(token!);
  });

  it("S8 the event feed prints each event written as the viewer's view, and goes on over events it did not see written", () => {
    const s = new Scenario();
    const log = chain(s.events);
    const lines: string[] = [];
    eventFeed((line) => lines.push(line), "red")(log);
    expect(lines).toHaveLength(log.length);
    expect(lines[0]).toMatch(/^#1 campaign "Golden battle set-up" created/);
    // Events that do not follow on from what the feed has folded: judged with an empty state, which hides. Without a
    // set-up the feed cannot know that fog of war (A2) is off, so the enemy's rosters are hidden too; nothing else changes.
    const after: string[] = [];
    const gap = eventFeed((line) => after.push(line), "red", initialState);
    gap(log.slice(3));
    gap([]);
    const enemyRosterHidden = (line: string) =>
      line.replace(/^(#\d+ blue registered army .*) \(\d+ formations\)$/, "$1 (formations hidden)");
    expect(after.some((line, i) => line !== lines[3 + i])).toBe(true);
    expect(after).toEqual(lines.slice(3).map(enemyRosterHidden));
  });
});

describe("S8 the table of secrets covers every commander in the log, and refusals never read one", () => {
  it("S8 every event type whose data carries a commander is in EVENT_SECRETS", () => {
    const carrying = EVENT_DEFINITIONS.filter(
      (d) => "commander" in ((d.schema as { properties?: object }).properties ?? {}),
    ).map((d) => d.type);
    expect(carrying.sort()).toEqual(Object.keys(EVENT_SECRETS).sort());
  });

  it("S8 the rules read no army's commander but the one in the command they decide: no refusal can quote the enemy's", () => {
    const dir = join(ROOT, "src", "rules");
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
      const source = readFileSync(join(dir, file), "utf8");
      const reads = [...source.matchAll(/([\w.\])!?]+)\.commander\b/g)].map((m) => m[1]);
      expect(
        reads.filter((owner) => owner !== "command"),
        `${file} reads a commander`,
      ).toEqual([]);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The property: random campaigns

interface Outputs {
  stateJson: string;
  stateText: string;
  logJson: string;
  logText: string;
  feed: string;
}

/** Everything a player is shown, built by the functions the CLI uses (state, log, the apply feed). */
async function outputsFor(log: readonly StoredEvent[], viewer: string, secrets: MemorySecrets): Promise<Outputs> {
  const context: ViewContext = logViewContext(log.map(toCurrent));
  const held = await ownHeldOrders(context.state, viewer, secrets);
  const feed: string[] = [];
  eventFeed((line) => feed.push(line), viewer)([...log]);
  return {
    stateJson: stateOutput(context, viewer, held, true),
    stateText: stateOutput(context, viewer, held, false),
    logJson: logOutput(log, viewer, true, context).join("\n"),
    logText: logOutput(log, viewer, false, context).join("\n"),
    feed: feed.join("\n"),
  };
}

/**
 * The same log had `enemy`'s living commanders been others (another unit type or formation of the same army, one
 * that is also never killed), re-chained as the log would have chained it. Undefined when no commander can be swapped.
 */
function swapCommanders(log: readonly StoredEvent[], enemy: string): StoredEvent[] | undefined {
  const events = log.map(toCurrent);
  const fates = commanderFates(events);
  let swapped: CurrentEvent[] = events;
  let changed = false;
  for (const [army, fate] of fates) {
    if (fate.player !== enemy || fate.killed) continue;
    const index = swapped.findIndex(
      (e) => (e.type === "ArmyRegistered" || e.type === "ArmyRaised") && e.data.army === army,
    );
    const event = swapped[index] as Extract<CurrentEvent, { type: "ArmyRegistered" | "ArmyRaised" }>;
    const candidates = event.data.formations.flatMap((f) =>
      Object.keys(f.units).map((unitType) => ({ formation: f.id, unitType })),
    );
    for (const commander of candidates) {
      if (commander.formation === fate.commander.formation && commander.unitType === fate.commander.unitType) continue;
      const trial = swapped.map((e, i) =>
        i === index ? ({ ...event, data: { ...event.data, commander } } as CurrentEvent) : e,
      );
      if (commanderFates(trial).get(army)!.killed) continue;
      swapped = trial;
      changed = true;
      break;
    }
  }
  return changed ? chain(swapped, log[0]!.stream) : undefined;
}

/**
 * A2: under fog of war, no points field of the viewer's state view or log shows a number that is not its own or public
 * (so no enemy army's points, nor a sum they could be worked out from); the state's text shows each enemy army as "?".
 */
function expectNoEnemyPoints(
  state: CampaignState,
  viewer: string,
  out: Pick<Outputs, "stateJson" | "stateText" | "logJson">,
): void {
  const view = JSON.parse(out.stateJson) as { battles?: Record<string, { turn?: unknown }> };
  const leaks = shownPointsFields(view).filter((path) => !statePointsShown(state, viewer, path, view));
  expect(
    leaks.map((path) => path.join(".")),
    `${viewer}'s state view shows enemy points`,
  ).toEqual([]);
  for (const line of out.logJson.split("\n").filter((text) => text.startsWith("{"))) {
    const event = JSON.parse(line) as { seq: number; type: string; data: { player?: string } };
    if (event.data.player === viewer || PUBLIC_POINTS_EVENTS.has(event.type)) continue;
    const shown = shownPointsFields(event.data).map((path) => path.join("."));
    expect(shown, `${viewer} sees the points of ${event.type} #${event.seq}`).toEqual([]);
  }
  for (const army of Object.values(state.armies).filter((a) => a.player !== viewer)) {
    const row = out.stateText.split("\n").find((text) => text.startsWith(`  ${army.id.padEnd(12)} `));
    expect(row, `${viewer}'s state page shows ${army.id}'s points`).toMatch(/ \? pts /);
  }
}

/** Checks every view of the campaign as it stands, for both players. */
async function checkViews(engine: Engine, campaign: string, secrets: RecordingSecrets, probes: boolean): Promise<void> {
  const log = await engine.store.readAll(campaign);
  const events = log.map(toCurrent);
  const state = logViewContext(events).state;
  const fates = commanderFates(events);
  const revealed = new Set(
    events.flatMap((e) => (e.type === "OrderRevealed" ? [`${e.data.turn}/${e.data.army}/${e.data.salt}`] : [])),
  );
  const ended = new Set(events.flatMap((e) => (e.type === "TurnEnded" ? [e.data.turn] : [])));
  for (const [viewer, enemy] of [
    ["red", "blue"],
    ["blue", "red"],
  ] as const) {
    const out = await outputsFor(log, viewer, secrets);
    const all = Object.values(out).join("\n");

    // Never: the enemy's unrevealed salts, the host's seed before its turn ended, the enemy's living commanders.
    for (const o of secrets.orders.filter(
      (o) => o.player === enemy && !revealed.has(`${o.turn}/${o.army}/${o.salt}`),
    )) {
      expect(all, `${viewer} sees ${enemy}'s hidden salt of ${o.army} turn ${o.turn}`).not.toContain(o.salt);
    }
    for (const h of secrets.hostSeeds.filter((h) => !ended.has(h.turn)))
      expect(all, `${viewer} sees the host seed of turn ${h.turn}`).not.toContain(h.seed);
    for (const [army, fate] of fates) {
      if (fate.player !== enemy || fate.killed) continue;
      for (const token of commanderTokens(fate.commander))
        expect(all, `${viewer} sees ${army}'s commander`).not.toMatch(token);
      expect(all).not.toContain(`${fate.commander.unitType} of ${fate.commander.formation}`);
      expect(JSON.parse(out.stateJson).armies[army].commander).toBe(HIDDEN);
    }

    // Not over-eager: own commanders, own held orders, the enemy's killed commanders and revealed salts, ended seeds.
    for (const [army, fate] of fates) {
      const shown = fate.player === viewer || fate.killed;
      if (!shown) continue;
      expect(JSON.parse(out.stateJson).armies[army].commander, `${viewer}'s view of ${army}'s commander`).toEqual(
        fate.commander,
      );
      expect(out.logJson).toMatch(commanderTokens(fate.commander)[0]!);
      expect(out.stateJson).toMatch(commanderTokens(fate.commander)[0]!);
      expect(out.stateText).toContain(`${fate.commander.unitType} of ${fate.commander.formation}`);
    }
    // Held: given this turn, committed to by its army's activation, and not yet revealed (T5).
    const activations = state.turnState?.activations ?? {};
    const heldNow = secrets.orders.filter(
      (o) =>
        o.player === viewer &&
        o.turn === state.turn &&
        activations[o.army]?.order === null &&
        activations[o.army]!.commitment ===
          orderCommitment({ campaign: state.campaign!, turn: o.turn, army: o.army, order: o.order, salt: o.salt }),
    );
    const heldOrders = (JSON.parse(out.stateJson) as { heldOrders: Record<string, string> }).heldOrders;
    expect(heldOrders).toEqual(Object.fromEntries(heldNow.map((o) => [o.army, o.order])));
    for (const key of revealed) expect(out.logJson).toContain(key.split("/")[2]!);
    for (const h of secrets.hostSeeds.filter((h) => ended.has(h.turn))) expect(out.logJson).toContain(h.seed);

    // A2: under fog of war the enemy's points, roster and Reserves are never shown, in the state or the log; without
    // it they are. Move rates stay in view either way.
    const fog = state.setup!.options.advanced?.fogOfWar === true;
    const shownState = JSON.parse(out.stateJson) as {
      armies: Record<string, { points: unknown; formations: unknown; moveRate: unknown }>;
      ledgers: Record<string, { reserves: unknown }>;
    };
    for (const army of Object.values(state.armies).filter((a) => a.player === enemy)) {
      const shown = shownState.armies[army.id]!;
      expect(shown.moveRate).toBe(army.moveRate);
      expect(shown.points, `${viewer} sees ${army.id}'s points`).toEqual(fog ? HIDDEN : army.points);
      expect(shown.formations, `${viewer} sees ${army.id}'s roster`).toEqual(fog ? HIDDEN : army.formations);
    }
    if (state.ledgers[enemy])
      expect(shownState.ledgers[enemy]!.reserves).toEqual(fog ? HIDDEN : state.ledgers[enemy]!.reserves);
    if (fog) expectNoEnemyPoints(state, viewer, out);
    for (const line of out.logJson.split("\n").filter((text) => text.startsWith("{"))) {
      const event = JSON.parse(line) as {
        type: string;
        data: { player?: string; formations?: unknown; units?: unknown };
      };
      if (!fog || event.data.player !== enemy) continue;
      if ("formations" in event.data)
        expect(event.data.formations, `${viewer} sees ${event.type}.formations`).toBe(HIDDEN);
      if ("units" in event.data) expect(event.data.units, `${viewer} sees ${event.type}.units`).toBe(HIDDEN);
    }

    const heldShown = JSON.parse(out.stateJson).heldOrders as Record<string, string>;
    for (const army of Object.keys(heldShown))
      expect(state.armies[army]?.player, `${viewer} is shown the held order of ${army}`).toBe(viewer);

    // Non-interference: had the enemy other living commanders, other hidden orders and salts, and the host other
    // seeds for turns not ended, the viewer would be shown exactly the same.
    const otherSecrets = new MemorySecrets();
    const flip = { firstFire: "charge", advance: "fortify", charge: "firstFire", fortify: "advance" } as const;
    for (const o of secrets.orders) {
      const mine = o.player === viewer || revealed.has(`${o.turn}/${o.army}/${o.salt}`);
      await otherSecrets.keepOrder(
        o.player,
        o.turn,
        o.army,
        mine ? o : { order: flip[o.order], salt: sha256Hex(o.salt).slice(0, 32) },
      );
    }
    for (const h of secrets.hostSeeds)
      await otherSecrets.keepHostSeed(h.turn, ended.has(h.turn) ? h.seed : sha256Hex(h.seed));
    const theirs = await outputsFor(swapCommanders(log, enemy) ?? log, viewer, otherSecrets);
    for (const key of Object.keys(out) as Array<keyof Outputs>) {
      const mine = out[key].split("\n");
      const other = theirs[key].split("\n");
      const line = mine.findIndex((text, i) => text !== other[i]);
      expect(other[line], `${viewer}'s ${key}, line ${line}, depends on ${enemy}'s secrets`).toBe(mine[line]);
      expect(other).toHaveLength(mine.length);
    }

    // Refusals of the viewer's commands that poke at the enemy's armies quote none of the enemy's secrets.
    if (probes) {
      for (const army of Object.values(state.armies).filter((a) => a.player === enemy)) {
        const fate = fates.get(army.id)!;
        for (const probe of [
          { type: "RevealOrder", actor: viewer, army: army.id, order: "advance", salt: "0".repeat(32) },
          { type: "ActivateArmy", actor: viewer, army: army.id, commitment: "0".repeat(64), path: [] },
          { type: "ReinforceFormation", actor: viewer, army: army.id, formation: fate.commander.formation },
          { type: "BreakDown", actor: viewer, army: army.id, formations: [fate.commander.formation] },
          {
            type: "ReplaceFormation",
            actor: viewer,
            army: army.id,
            formation: fate.commander.formation,
            with: { id: "x1", formation: "line-company" },
          },
          { type: "DisbandArmy", actor: viewer, army: army.id },
        ]) {
          const outcome = await engine.execute(campaign, [probe]);
          expect(outcome.ok, JSON.stringify(probe)).toBe(false);
          if (outcome.ok || fate.killed) continue;
          const message = JSON.stringify(outcome.refusal);
          for (const token of commanderTokens(fate.commander)) expect(message).not.toMatch(token);
          expect(message).not.toContain(fate.commander.unitType);
        }
      }
    }
  }
}

/** Plays a campaign from a fixture (battle-ready.json) or the Ashfall example with the demo's players, checking every view at the given steps and at the end. */
async function playAndCheck(run: {
  fixture: string;
  campaign: string;
  seed: number;
  turns: number;
  stops: number[];
  fog?: boolean;
}): Promise<number> {
  const setup =
    run.fixture === "ashfall"
      ? await loadSetupFile(join(ROOT, "examples", "ashfall.setup.json"))
      : goldenSetup(run.fixture);
  setup.campaign = run.campaign;
  if (run.fog) setup.options = { ...setup.options, advanced: { ...setup.options?.advanced, fogOfWar: true } };
  setup.armies = (setup.armies ?? []).map((army) => uniqueCommander(army.id, army));
  const dir = await tempDir("epicwar-views-");
  const engine = await Engine.open(join(dir, "db"));
  try {
    const created = await engine.create(setupCommands(setup).map((step) => step.command));
    expect(created.ok, JSON.stringify(!created.ok && created.refusal)).toBe(true);
    const secrets = new RecordingSecrets();
    let counter = 0;
    const random = (bytes: number) =>
      createHash("sha256")
        .update(`${run.seed}/${counter++}`)
        .digest("hex")
        .repeat(Math.ceil(bytes / 32))
        .slice(0, bytes * 2);
    const table = new Table(engine, run.campaign, { secrets, random });
    await table.takeChores();
    const stops = new Set(run.stops);
    let step = 0;
    for (; ; step++) {
      if (stops.has(step)) await checkViews(engine, run.campaign, secrets, true);
      const state = await table.state();
      if (state.status === "finished" || state.turn > run.turns) break;
      let command: PlainCommand | undefined = nextDecision(state);
      if (!command) throw new Error(`stuck at step ${step}`);
      if (command.type === "RaiseArmy")
        command = uniqueCommander(
          String(command["army"]),
          command as PlainCommand & Parameters<typeof uniqueCommander>[1],
        );
      const outcome = await table.submit(command);
      expect(outcome.ok, `${command.type} by ${command.actor}: ${JSON.stringify(!outcome.ok && outcome.refusal)}`).toBe(
        true,
      );
    }
    await checkViews(engine, run.campaign, secrets, false);
    // VIEWS_STATS=1 prints what each random campaign went through (battles, routs, kills, raised armies).
    if (process.env["VIEWS_STATS"]) {
      const events = (await engine.store.readAll(run.campaign)).map(toCurrent);
      const fates = [...commanderFates(events).values()];
      const count = (type: string) => events.filter((e) => e.type === type).length;
      console.log(
        JSON.stringify({
          run,
          step,
          events: events.length,
          battles: count("BattleResolved"),
          routed: count("ArmyRouted"),
          raised: count("ArmyRaised"),
          killed: fates.filter((f) => f.killed).length,
          armies: fates.length,
        }),
      );
    }
    return step;
  } finally {
    await engine.close();
  }
}

describe("S8 D1 T5 no view for one player ever holds the other's secrets (random campaigns)", () => {
  it("S8 D1 T5 views of state, log, feed and refusals hold none of the enemy's secrets, show the viewer's own, and do not depend on the enemy's commanders", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          fixture: fc.constantFrom("battle-ready.json", "ashfall"),
          campaign: fc.stringMatching(/^[a-z][a-z0-9]{2,8}$/),
          seed: fc.integer(),
          turns: fc.integer({ min: 1, max: 6 }),
          stops: fc.uniqueArray(fc.nat(80), { maxLength: 3 }),
          fog: fc.boolean(),
        }),
        async (run) => {
          await playAndCheck(run);
        },
      ),
      { numRuns: 25 },
    );
  }, 240_000);
});

describe("A2 under fog of war with every advanced rule on, no view shows the enemy's points (Emberfall)", () => {
  it("A2 A3 A6 A7 A8 in Emberfall played by the demo's players, at every phase neither player's state, state page or log shows the other's points", async () => {
    const setup = await loadSetupFile(join(ROOT, "examples", "emberfall.setup.json"));
    expect(setup.options?.advanced?.fogOfWar).toBe(true);
    const engine = await Engine.open(join(await tempDir("epicwar-views-fog-"), "db"));
    try {
      const created = await engine.create(setupCommands(setup).map((step) => step.command));
      expect(created.ok, JSON.stringify(!created.ok && created.refusal)).toBe(true);
      const secrets = new MemorySecrets();
      const table = new Table(engine, setup.campaign, { secrets, random: sequenceRandomHex("emberfall-fog") });
      await table.takeChores();
      const players = setup.players.map((p) => p.id);
      const seen = new Set<string>();
      let checked = 0;
      for (
        let state = await table.state();
        state.status !== "finished" && state.turn <= 4;
        state = await table.state()
      ) {
        // Once in every phase of every turn, and with the battles of the turn started but not yet on the table.
        const moment = `${state.turn}/${state.phase}/${Object.values(state.battles).some((b) => b.turn === state.turn)}`;
        if (!seen.has(moment)) {
          seen.add(moment);
          checked++;
          const log = await engine.store.readAll(setup.campaign);
          for (const viewer of players) {
            const out = await outputsFor(log, viewer, secrets);
            expectNoEnemyPoints(state, viewer, out);
            // Not over-eager: a player's own war chest and armies' points are shown.
            const own = JSON.parse(out.stateJson) as CampaignState;
            expect(own.ledgers[viewer]!.warChest).toBe(state.ledgers[viewer]!.warChest);
            for (const army of Object.values(state.armies).filter((a) => a.player === viewer))
              expect(own.armies[army.id]!.points).toBe(army.points);
          }
        }
        const command = nextDecision(state);
        if (!command) throw new Error(`stuck in turn ${state.turn}, ${state.phase} phase`);
        const outcome = await table.submit(command);
        expect(
          outcome.ok,
          `${command.type} by ${command.actor}: ${JSON.stringify(!outcome.ok && outcome.refusal)}`,
        ).toBe(true);
      }
      expect(checked).toBeGreaterThan(8);
    } finally {
      await engine.close();
    }
  }, 240_000);
});
