/**
 * The public API (src/api: what `import ... from "epic-war-engine"` gives): a folder of campaigns played by seats and
 * read as seats, through the entry modules only. test/slow/package.test.ts runs the example against the packed package.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  BranchError,
  CampaignFolder,
  campaignTotals,
  CommandRefusedError,
  examplePath,
  ImportError,
  loadSetupFile,
  scriptedDecision,
  type CampaignState,
} from "../src/api/index.js";
import { MemorySecrets, takeChoresInTurn, type Table } from "../src/api/client.js";
import { runInProcess, show } from "./support/cli.js";
import { tempDir } from "./support/tmp.js";

const CLOCK = () => new Date("2026-05-01T10:00:00.000Z");

/** Each seat's chores in turn until none has any left, then the scripted commanders' decisions until `until`. */
async function play(
  folder: CampaignFolder,
  campaign: string,
  seats: Map<string, Table>,
  until: (s: CampaignState) => boolean,
) {
  const chores = () => takeChoresInTurn(seats.values());
  await chores();
  for (;;) {
    const state = (await folder.state(campaign)) as CampaignState;
    if (until(state)) return state;
    const command = scriptedDecision(state)!;
    const outcome = await seats.get(command.actor)!.submit(command);
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    await chores();
  }
}

async function ashfall() {
  const dir = await tempDir("epicwar-api-");
  const folder = await CampaignFolder.open(join(dir, "db"), { clock: CLOCK, sync: false });
  const campaign = await folder.create(examplePath("ashfall.setup.json"));
  const seats = new Map<string, Table>();
  for (const party of ["host", "concord", "horde"])
    seats.set(party, await folder.seat(campaign, { parties: [party], secrets: join(dir, `${party}-secrets`) }));
  return { dir, folder, campaign, seats };
}

describe("the public API", () => {
  it("creates Ashfall, plays a turn as three seats with their own secrets, and reads it as each seat may see it", async () => {
    const { dir, folder, campaign, seats } = await ashfall();
    try {
      expect(await folder.campaigns()).toEqual(["ashfall"]);
      // Mid-turn: an order committed and not yet revealed, which only its own player may see.
      const hidden = (s: CampaignState) => Object.values(s.turnState?.activations ?? {}).find((a) => a.order === null);
      const mid = await play(folder, campaign, seats, (s) => hidden(s) !== undefined);
      const activated = hidden(mid)!;
      const own = await folder.state(campaign, {
        as: activated.player,
        secrets: join(dir, `${activated.player}-secrets`),
      });
      const other = await folder.state(campaign, { as: activated.player === "concord" ? "horde" : "concord" });
      expect((own as { heldOrders?: Record<string, unknown> }).heldOrders?.[activated.army]).toBeDefined();
      // A player's view holds only its own held orders, from its own secrets: none without them.
      expect((other as { heldOrders?: object }).heldOrders).toEqual({});
      const after = await play(folder, campaign, seats, (s) => s.turn > 1);
      expect(Object.keys(campaignTotals(after))).toEqual(["concord", "horde"]);
      expect((await folder.audit(campaign)).findings).toEqual([]);
      expect(await folder.verify(campaign)).toMatchObject({ ok: true, events: after.seq });
      const log = await folder.log(campaign, { as: "horde" });
      expect(log).toHaveLength(after.seq);
      expect(log.every((event) => !("hash" in event))).toBe(true);
      const timeline = await folder.timeline(campaign, { fromTurn: 1 });
      expect(timeline[0]).toMatchObject({ turn: 1, phase: "action", type: "TurnStarted" });
    } finally {
      await folder.close();
    }
  });

  it("reads the state with what it implies: each side's CVPs by source against the target, each battle's engagement", async () => {
    const { dir, folder, campaign, seats } = await ashfall();
    let read: Awaited<ReturnType<CampaignFolder["state"]>>;
    try {
      const fought = (s: CampaignState) =>
        Object.values(s.battles).some((b) => b.attacker.order && b.defender.order) || s.status === "finished";
      const state = await play(folder, campaign, seats, fought);
      read = await folder.state(campaign);
      const battles = Object.values(read.battles).filter((b) => b.attacker.order && b.defender.order);
      expect(battles.length).toBeGreaterThan(0);
      for (const { derived } of [read, await folder.state(campaign, { as: "concord" })]) {
        for (const { id } of state.setup!.players) {
          const held = Object.values(state.objectives).filter((o) => o.heldBy === id).length;
          const { battles: fromBattles, objectives, homeBase, total, target, reached } = derived.cvps[id]!;
          expect(fromBattles).toBe(state.ledgers[id]!.battleCvps);
          expect(objectives).toBe(held * state.setup!.awards.objective);
          expect(total).toBe(fromBattles + objectives + homeBase);
          expect([target, reached]).toEqual([state.setup!.cvpTarget, total >= state.setup!.cvpTarget]);
        }
        for (const battle of battles)
          expect(derived.engagements[battle.id]?.effect, battle.id).toMatch(/initiative|deploys|standard battle/);
      }
    } finally {
      await folder.close();
    }
    // `state --json` prints the same read, derived view included.
    const printed = await runInProcess(["state", "--json", "--db", join(dir, "db")]);
    expect(printed.code, show(printed)).toBe(0);
    expect((JSON.parse(printed.stdout) as { derived: unknown }).derived).toEqual(read.derived);
  });

  it("branches a line, compares it, exports the campaign and imports it elsewhere", async () => {
    const { dir, folder, campaign, seats } = await ashfall();
    try {
      await play(folder, campaign, seats, (s) => s.turn > 1);
      // Forked inside turn 1: the host's secrets sign the branch's first event, which voids the turn's seeds there.
      const meta = await folder.branch(campaign, {
        name: "charge",
        from: { turn: 1, phase: "battle" },
        secrets: join(dir, "host-secrets"),
      });
      expect(meta).toMatchObject({ stream: "ashfall.charge", name: "charge", root: "ashfall" });
      const lines = await folder.lines(campaign);
      expect(lines.branches.map((b) => b.name)).toEqual(["charge"]);
      const diff = await folder.diff(campaign, "main", "charge");
      expect(diff.differences.length).toBeGreaterThan(0);
      const exported: string[] = [];
      for await (const line of folder.export(campaign)) exported.push(line);
      const elsewhere = await CampaignFolder.open(join(dir, "elsewhere"));
      try {
        expect(await elsewhere.import(exported)).toMatchObject({ campaign, streams: ["ashfall", "ashfall.charge"] });
        expect(await elsewhere.verify(campaign, { branch: "charge" })).toMatchObject({ ok: true });
        await expect(elsewhere.import(exported)).rejects.toThrow(BranchError);
        await expect(elsewhere.import(["{}"])).rejects.toThrow(ImportError);
      } finally {
        await elsewhere.close();
      }
    } finally {
      await folder.close();
    }
  });

  it("a refused set-up throws CommandRefusedError naming its rule, and leaves no campaign", async () => {
    const dir = await tempDir("epicwar-api-");
    const folder = await CampaignFolder.open(join(dir, "db"));
    try {
      const setup = await loadSetupFile(examplePath("ashfall.setup.json"));
      const armies = setup.armies ?? [];
      const crowded = { ...setup, armies: armies.map((army) => ({ ...army, at: armies[0]!.at })) };
      const error = await folder.create(crowded).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(CommandRefusedError);
      expect((error as CommandRefusedError).refusal).toMatchObject({ kind: "rule" });
      expect(await folder.campaigns()).toEqual([]);
      await expect(folder.state("ashfall")).rejects.toThrow(/no campaign "ashfall"/);
    } finally {
      await folder.close();
    }
  });

  it("a seat can keep its secrets in memory, and the client module gives the commitments the log records", async () => {
    const { folder, campaign } = await ashfall();
    try {
      const secrets = new MemorySecrets();
      const seat = await folder.seat(campaign, { parties: ["concord"], secrets });
      await seat.takeChores();
      const state = (await folder.state(campaign)) as CampaignState;
      expect(await secrets.playerSeed("concord", state.turn)).toMatch(/^[0-9a-f]+$/);
    } finally {
      await folder.close();
    }
  });
});
