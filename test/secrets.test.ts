/**
 * The parties' secrets files: durable before the event that commits to them, every concurrent keep landing, never
 * replaced once committed, named only by seats, and orphans (secrets of refused commands) pruned when their turn ends.
 */
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HOST } from "../events/common.js";
import { MemorySecrets, FileSecrets, SecretsError, type HeldOrder } from "../src/client/secrets.js";
import { SeedKeptError } from "../src/client/party-secrets.js";
import { prepareCommand, sequenceRandomHex } from "../src/client/prepare.js";
import { Table } from "../src/client/table.js";
import { orderCommitment, seedCommitment } from "../src/crypto/commitments.js";
import { Engine, type CommandHandler } from "../src/engine/engine.js";
import { setupCommands } from "../src/setup/setup-file.js";
import { nextDecision } from "../src/demo/play.js";
import { goldenSetup } from "./support/fixtures.js";
import { tempDir } from "./support/tmp.js";

const salt = (i: number) => i.toString(16).padStart(2, "0").repeat(16);

describe("FileSecrets", () => {
  it("T5 ten keeps of one file at once all land, with no temporary file left", async () => {
    const dir = await tempDir("epicwar-secrets-");
    const secrets = new FileSecrets(dir, "war");
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        secrets.keepOrder("red", 1, `a${i}`, { order: "advance", salt: salt(i + 1) }),
      ),
    );
    for (let i = 0; i < 10; i++)
      expect(await secrets.order("red", 1, `a${i}`)).toEqual({ order: "advance", salt: salt(i + 1) });
    expect(readdirSync(join(dir, "war"))).toEqual(["red.json"]);
    expect(statSync(join(dir, "war", "red.json")).mode & 0o777).toBe(0o600);
  });

  it("a party name that is not a seat id names no file, and no file is touched", async () => {
    const dir = await tempDir("epicwar-secrets-");
    const secrets = new FileSecrets(join(dir, "secrets"), "war");
    await expect(secrets.order("../../leak", 1, "a1")).rejects.toThrow(SecretsError);
    await expect(secrets.keepOrder("../leak", 1, "a1", { order: "advance", salt: salt(1) })).rejects.toThrow(
      /not a seat/,
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it("a temporary file left by a killed writer is removed by the next write; the file it was for is whole", async () => {
    const dir = await tempDir("epicwar-secrets-");
    const secrets = new FileSecrets(dir, "war");
    await secrets.keepHostSeed(1, "ab".repeat(32));
    // A pid that is not running: the writer that left it was killed mid-write.
    writeFileSync(join(dir, "war", "host.json.999999999-1.tmp"), '{"hostSeeds": {"1": "torn');
    writeFileSync(join(dir, "war", "red.json.999999999-2.tmp"), "{");
    writeFileSync(join(dir, "war", ".log.json.999999999-3.tmp"), "{");
    await secrets.keepHostSeed(2, "cd".repeat(32));
    expect(readdirSync(join(dir, "war"))).toEqual(["host.json"]);
    expect(JSON.parse(readFileSync(join(dir, "war", "host.json"), "utf8"))).toEqual({
      hostSeeds: { 1: "ab".repeat(32), 2: "cd".repeat(32) },
    });
  });

  it("D1 a keep whose write fails is not kept: a later keep's file holds what was kept, and never the failed one", async () => {
    const dir = await tempDir("epicwar-secrets-");
    const secrets = new FileSecrets(dir, "war");
    await secrets.keepHostSeed(1, "ab".repeat(32));
    // A real failure: the campaign's folder moved aside and a file put in its place, so that no write there can be made.
    renameSync(join(dir, "war"), join(dir, "war.aside"));
    writeFileSync(join(dir, "war"), "not a folder\n");
    await expect(secrets.keepHostSeed(2, "cd".repeat(32))).rejects.toThrow(SecretsError);
    rmSync(join(dir, "war"));
    renameSync(join(dir, "war.aside"), join(dir, "war"));
    expect(await secrets.hostSeed(2)).toBeUndefined();
    await secrets.keepHostSeed(3, "ef".repeat(32));
    expect(JSON.parse(readFileSync(join(dir, "war", "host.json"), "utf8"))).toEqual({
      hostSeeds: { 1: "ab".repeat(32), 3: "ef".repeat(32) },
    });
  });

  it("a secrets file that is not JSON is a clear error naming it", async () => {
    const dir = await tempDir("epicwar-secrets-");
    const secrets = new FileSecrets(dir, "war");
    await secrets.keepPlayerSeed("red", 1, "ab".repeat(32));
    writeFileSync(join(dir, "war", "red.json"), "{ torn");
    await expect(secrets.playerSeed("red", 1)).rejects.toThrow(/red's secrets file .*red\.json is not valid JSON/);
  });
});

/** A keeper that records, at each keep, how many events the log held: the keep must come before the append. */
class WatchedSecrets extends MemorySecrets {
  readonly keptAt: Array<{ what: string; seq: number }> = [];
  constructor(private readonly seq: () => Promise<number>) {
    super();
  }
  override async keepOrder(player: string, turn: number, army: string, held: HeldOrder) {
    this.keptAt.push({ what: `order ${army}`, seq: await this.seq() });
    return super.keepOrder(player, turn, army, held);
  }
  override async keepHostSeed(turn: number, seed: string) {
    this.keptAt.push({ what: `host seed ${turn}`, seq: await this.seq() });
    return super.keepHostSeed(turn, seed);
  }
  override async keepPlayerSeed(player: string, turn: number, seed: string) {
    this.keptAt.push({ what: `${player} seed ${turn}`, seq: await this.seq() });
    return super.keepPlayerSeed(player, turn, seed);
  }
}

async function seatedCampaign() {
  const engine = await Engine.open(join(await tempDir("epicwar-secrets-"), "db"));
  const setup = goldenSetup("ready.json");
  const created = await engine.create(setupCommands(setup).map((step) => step.command));
  if (!created.ok) throw new Error(JSON.stringify(created.refusal));
  const head = async () => (await engine.store.head(setup.campaign)).seq;
  const secrets = new WatchedSecrets(head);
  const table = new Table(engine, setup.campaign, { secrets, random: sequenceRandomHex("secrets") });
  return { engine, table, secrets, head, campaign: setup.campaign };
}

/** Turn 1 started by the chores, and red chosen to open by whoever won initiative. */
async function redOpens(table: Table): Promise<void> {
  await table.takeChores();
  await table.submit({ actor: (await table.state()).turnState!.initiativeWinner!, type: "ChooseFirst", first: "red" });
}

describe("a secret is kept before the event that commits to it", () => {
  it("T5 D1 seeds and orders are on the keeper before their commitment is appended", async () => {
    const { engine, table, secrets } = await seatedCampaign();
    try {
      await table.takeChores();
      const state = await table.state();
      const winner = state.turnState!.initiativeWinner!;
      await table.submit({ actor: winner, type: "ChooseFirst", first: "red" });
      const activated = await table.submit({
        actor: "red",
        type: "ActivateArmy",
        army: "r1",
        order: "advance",
        path: [],
      });
      expect(activated.ok).toBe(true);
      const events = await engine.store.readAll(table.campaign);
      const seqOf = (type: string, match: (data: Record<string, unknown>) => boolean = () => true) =>
        events.find((e) => e.type === type && match(e.data as Record<string, unknown>))!.seq;
      const kept = new Map(secrets.keptAt.map((k) => [k.what, k.seq]));
      // Each secret was kept when the log still ended before the event that commits to it.
      expect(kept.get("red seed 1")).toBeLessThan(seqOf("PlayerSeedCommitted", (d) => d["player"] === "red"));
      expect(kept.get("blue seed 1")).toBeLessThan(seqOf("PlayerSeedCommitted", (d) => d["player"] === "blue"));
      expect(kept.get("host seed 1")).toBeLessThan(seqOf("TurnStarted"));
      expect(kept.get("order r1")).toBeLessThan(seqOf("ArmyActivated", (d) => d["army"] === "r1"));
    } finally {
      await engine.close();
    }
  });

  it("T3 T5 a second activation of an army is refused and does not replace the order its commitment needs", async () => {
    const { engine, table, secrets } = await seatedCampaign();
    try {
      await redOpens(table);
      expect(
        (await table.submit({ actor: "red", type: "ActivateArmy", army: "r1", order: "advance", path: [] })).ok,
      ).toBe(true);
      const held = await secrets.order("red", 1, "r1");
      const again = await table.submit({ actor: "red", type: "ActivateArmy", army: "r1", order: "charge", path: [] });
      expect(again.ok).toBe(false);
      expect(await secrets.order("red", 1, "r1")).toEqual(held);
    } finally {
      await engine.close();
    }
  });

  it("T5 an order kept for an activation the rules refused commits to nothing, and is pruned when the turn ends", async () => {
    const { engine, table, secrets } = await seatedCampaign();
    try {
      await redOpens(table);
      // Off the map: refused by the rules after its secret was kept.
      const refused = await table.submit({
        actor: "red",
        type: "ActivateArmy",
        army: "r1",
        order: "charge",
        path: [[99, 99]],
      });
      expect(refused.ok).toBe(false);
      expect(await secrets.order("red", 1, "r1")).toMatchObject({ order: "charge" });
      // The real activation of r1 replaces the orphan; an orphan of r9 is left until the turn ends.
      expect(
        (await table.submit({ actor: "red", type: "ActivateArmy", army: "r1", order: "advance", path: [] })).ok,
      ).toBe(true);
      const state = await table.state();
      const r1 = (await secrets.order("red", 1, "r1"))!;
      expect(orderCommitment({ campaign: state.campaign!, turn: 1, army: "r1", ...r1 })).toBe(
        state.turnState!.activations["r1"]!.commitment,
      );
      await secrets.keepOrder("red", 1, "r9", { order: "fortify", salt: salt(9) });
      // The demo's commanders play the turn to its end: the host's EndTurn prunes what no activation commits to.
      for (
        let next = nextDecision(await table.state());
        (await table.state()).turn === 1;
        next = nextDecision(await table.state())
      ) {
        const outcome = await table.submit(next!);
        if (!outcome.ok) throw new Error(JSON.stringify(outcome.refusal));
      }
      expect(await secrets.order("red", 1, "r9")).toBeUndefined();
      expect(await secrets.order("red", 1, "r1")).toEqual(r1);
    } finally {
      await engine.close();
    }
  });
});

describe("a seed kept for a command the log did not take", () => {
  it("D1 is committed to again, never replaced: a log that took the command after all still finds its seed", async () => {
    const { engine, campaign } = await seatedCampaign();
    try {
      const secrets = new MemorySecrets();
      const random = sequenceRandomHex("kept-seeds");
      const state = await engine.state(campaign);
      // Prepared and kept, as before a command whose answer never came (its write failed, or the server was down).
      const first = await prepareCommand(state, { actor: "red", type: "CommitSeed" }, secrets, random);
      await first.keep();
      const again = await prepareCommand(state, { actor: "red", type: "CommitSeed" }, secrets, random);
      await again.keep();
      expect(again.command).toEqual(first.command);
      const seed = (await secrets.playerSeed("red", 1))!;
      expect((again.command as { seedHash: string }).seedHash).toBe(seedCommitment(seed));
      expect((await engine.execute(campaign, [again.command])).ok).toBe(true);
      await new Table(engine, campaign, { secrets, random, parties: new Set(["blue"]) }).takeChores();

      const started = await engine.state(campaign);
      const host = await prepareCommand(started, { actor: HOST, type: "StartTurn" }, secrets, random);
      await host.keep();
      const hostAgain = await prepareCommand(started, { actor: HOST, type: "StartTurn" }, secrets, random);
      expect(hostAgain.command).toEqual(host.command);
    } finally {
      await engine.close();
    }
  });
});

describe("a player's seed", () => {
  it("D1 no host seed exists while the players commit, so none can be read to choose a seed by", async () => {
    const { engine, table, secrets } = await seatedCampaign();
    try {
      const players = new Table(engine, table.campaign, {
        secrets,
        random: sequenceRandomHex("secrets"),
        parties: new Set(["red", "blue"]),
      });
      await players.takeChores();
      expect(Object.keys((await table.state()).seedCommitments).sort()).toEqual(["blue", "red"]);
      expect(await secrets.hostSeed(1)).toBeUndefined();
      expect((await table.state()).turnState).toBeNull();
      const host = new Table(engine, table.campaign, {
        secrets,
        random: sequenceRandomHex("secrets-host"),
        parties: new Set([HOST]),
      });
      await host.takeChores();
      expect((await table.state()).turnState?.hostSeedHash).toBeDefined();
    } finally {
      await engine.close();
    }
  });
});

describe("a kept seed is never replaced", () => {
  it("D1 a second seed for a turn is refused by the keeper, in a file as in memory; the first stays", async () => {
    for (const secrets of [new MemorySecrets(), new FileSecrets(await tempDir("epicwar-secrets-"), "war")]) {
      await secrets.keepPlayerSeed("red", 2, "ab".repeat(32));
      await secrets.keepPlayerSeed("red", 2, "ab".repeat(32));
      await expect(secrets.keepPlayerSeed("red", 2, "cd".repeat(32))).rejects.toThrow(SeedKeptError);
      await expect(secrets.keepHostSeed(2, "ef".repeat(32))).resolves.toBeUndefined();
      await expect(secrets.keepHostSeed(2, "01".repeat(32))).rejects.toThrow(
        /another dice seed for turn 2.*never replaced/,
      );
      expect(await secrets.playerSeed("red", 2)).toBe("ab".repeat(32));
      expect(await secrets.hostSeed(2)).toBe("ef".repeat(32));
    }
  });

  it("D1 two seats of one player commit from the same state: the second reuses the kept seed, and the turn plays on", async () => {
    const { engine, table, secrets } = await seatedCampaign();
    try {
      const before = await table.state();
      // The first (a tab, a process) keeps its seed and commits to it.
      const first = await prepareCommand(before, { actor: "red", type: "CommitSeed" }, secrets, sequenceRandomHex("a"));
      await first.keep();
      expect((await engine.execute(table.campaign, [first.command])).ok).toBe(true);
      // The second read the state before that commitment: it must not keep a seed of its own over the committed one.
      const second = await prepareCommand(
        before,
        { actor: "red", type: "CommitSeed" },
        secrets,
        sequenceRandomHex("b"),
      );
      await second.keep();
      const refused = await engine.execute(table.campaign, [second.command]);
      expect(refused).toMatchObject({ ok: false, refusal: { rule: "D1" } });
      const committed = (await table.state()).seedCommitments["red"];
      expect(seedCommitment((await secrets.playerSeed("red", 1))!)).toBe(committed);
      // So red's GiveSeed is taken and the turn goes on to its initiative.
      await table.takeChores();
      expect((await table.state()).turnState?.initiativeWinner).toBeDefined();
    } finally {
      await engine.close();
    }
  });
});

describe("an order given again after a write whose answer was lost", () => {
  it("T5 a second order for an army is kept beside the first, in a file as in memory, and pruned once the log shows which it took", async () => {
    for (const secrets of [new MemorySecrets(), new FileSecrets(await tempDir("epicwar-secrets-"), "war")]) {
      const advance: HeldOrder = { order: "advance", salt: salt(1) };
      const charge: HeldOrder = { order: "charge", salt: salt(2) };
      await secrets.keepOrder("red", 1, "r1", advance);
      await secrets.keepOrder("red", 1, "r1", charge);
      await secrets.keepOrder("red", 1, "r1", charge);
      expect(await secrets.ordersKept("red", 1, "r1")).toEqual([charge, advance]);
      expect(await secrets.order("red", 1, "r1")).toEqual(charge);
      // The log took the first: the other is dropped, the first stays.
      await secrets.pruneOrders("red", 1, (_army, held) => held.order === "advance");
      expect(await secrets.ordersKept("red", 1, "r1")).toEqual([advance]);
    }
  });

  it("T5 the order the log took is the one revealed, though another was given for the army while its answer was lost", async () => {
    const { engine, table, secrets } = await seatedCampaign();
    try {
      await redOpens(table);
      // The player's view before the first activation: a command whose write failed (503) leaves it there, though
      // the disk may have taken the write.
      const before = await table.state();
      expect(
        (await table.submit({ actor: "red", type: "ActivateArmy", army: "r1", order: "advance", path: [] })).ok,
      ).toBe(true);
      // Given again, with another order, before the log shows the first: its secret is kept (and its command refused).
      const again = await prepareCommand(
        before,
        { actor: "red", type: "ActivateArmy", army: "r1", order: "charge", path: [] },
        secrets,
        sequenceRandomHex("again"),
      );
      await again.keep();
      expect(await secrets.order("red", 1, "r1")).toMatchObject({ order: "charge" });

      const now = await table.state();
      const reveal = await prepareCommand(now, { actor: "red", type: "RevealOrder", army: "r1" }, secrets);
      const revealed = reveal.command as HeldOrder;
      expect(revealed.order).toBe("advance");
      expect(orderCommitment({ campaign: now.campaign!, turn: 1, army: "r1", ...revealed })).toBe(
        now.turnState!.activations["r1"]!.commitment,
      );
    } finally {
      await engine.close();
    }
  });
});

describe("a chore that meets the line moved on under it", () => {
  it("is taken again on the new state, more times than a command is signed again, and is not refused", async () => {
    const { engine, campaign } = await seatedCampaign();
    try {
      // Every seat's chores (seeds, the turn's start): the first seven answers a conflict, as when other seats write
      // between each read and send, or answers are lost.
      let conflicts = 0;
      const moving: CommandHandler = {
        state: (id) => engine.state(id),
        execute: async (id, inputs) =>
          ++conflicts <= 7
            ? { ok: false, index: 0, refusal: { kind: "conflict", message: "the campaign moved on" } }
            : engine.execute(id, inputs),
      };
      const table = new Table(moving, campaign, { secrets: new MemorySecrets(), random: sequenceRandomHex("moving") });
      await table.takeChores();
      expect(conflicts).toBeGreaterThan(7);
      expect((await engine.state(campaign)).turnState?.initiativeWinner).toBeDefined();
    } finally {
      await engine.close();
    }
  });
});
