/**
 * What-if branches: a stream that starts with another stream's prefix (parent, fork seq, fork hash), copying nothing.
 * On a real LevelDB with Ashfall played to its end by the demo's commanders; branches are played by them too.
 */
import type { SeatKey } from "../src/crypto/signatures.js";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { StoredEvent } from "../events/index.js";
import { FileSecrets, type HeldOrder } from "../src/client/secrets.js";
import { playCampaign } from "../src/demo/play.js";
import { Engine } from "../src/engine/engine.js";
import { LiveCampaign } from "../src/engine/live.js";
import {
  AppendConflictError,
  BranchError,
  canonicalJson,
  sha256Hex,
  verifyStream,
  type EventStore,
} from "../src/log/index.js";
import { seedCommitment } from "../src/crypto/commitments.js";
import { branchStream, createBranch, lineStream, MAIN } from "../replays/branches.js";
import { Replays } from "../replays/replayer.js";
import { auditStream } from "../replays/audit-load.js";
import { eventsRead } from "./support/reads.js";
import { PARENT_LINE_ROLL } from "../replays/audit-report.js";
import {
  CAMPAIGN,
  cli,
  copyOf,
  foldTo,
  lines,
  openRaw,
  rawKey,
  rawStream,
  secretsDirOf,
  show,
  tableAt,
  usePlayedAshfall,
} from "./replays-support.js";

/** A stream's own stored (seq, value) pairs: what is stored under its id, not its line. */
async function ownEntries(store: EventStore, stream: string): Promise<Array<[number, string]>> {
  const entries: Array<[number, string]> = [];
  for await (const batch of store.rawBatches(stream)) entries.push(...batch);
  return entries;
}

const ashfall = usePlayedAshfall();
const { openCopy } = ashfall;

const seqOf = (type: string, turn: number) =>
  ashfall.events.find((e) => e.type === type && (e.data as { turn?: number }).turn === turn)!.seq;
const branch = (
  engine: Engine,
  replays: Replays,
  name: string,
  from: { seq: number } | { turn: number },
  parent = CAMPAIGN,
  db?: string,
) =>
  createBranch(engine, replays, {
    campaign: CAMPAIGN,
    parent,
    from,
    name,
    ...(db
      ? {
          secrets: {
            parent: new FileSecrets(secretsDirOf(db), parent),
            branch: new FileSecrets(secretsDirOf(db), `${CAMPAIGN}.${name}`),
          },
        }
      : {}),
  });

describe("a branch", () => {
  it("copies nothing: it records parent, fork seq and fork hash, and reads as the parent's prefix", async () => {
    const { engine, db, replays } = await openCopy();
    // Where nothing is open (a turn ended, no seed committed for the next): the branch has no event of its own.
    const fork = seqOf("TurnEnded", 2);
    const { meta } = await branch(engine, replays, "what-if", { seq: fork });
    expect(meta).toMatchObject({
      stream: "ashfall.what-if",
      name: "what-if",
      parent: CAMPAIGN,
      root: CAMPAIGN,
      forkSeq: fork,
      forkHash: ashfall.events[fork - 1]!.hash,
    });
    expect(await engine.store.head(meta.stream)).toEqual({ seq: fork, hash: ashfall.events[fork - 1]!.hash });
    expect(await engine.store.readAll(meta.stream)).toEqual(ashfall.events.slice(0, fork));
    expect(await engine.state(meta.stream)).toEqual(foldTo(ashfall.events, fork));
    expect(await verifyStream(engine.store, meta.stream)).toEqual({
      ok: true,
      stream: meta.stream,
      events: fork,
      headHash: ashfall.events[fork - 1]!.hash,
    });
    expect(await engine.listCampaigns()).toEqual([CAMPAIGN]);
    expect((await engine.listBranches()).map((b) => b.stream)).toEqual([meta.stream]);
    expect(await ownEntries(engine.store, meta.stream)).toEqual([]);
    // Inside a turn, commitments are open: the branch's first event voids them, which the host's secrets sign.
    await expect(branch(engine, replays, "no-host", { turn: 3 })).rejects.toThrow(/the host's secrets are needed/);
    expect((await engine.listBranches()).map((b) => b.stream)).toEqual([meta.stream]);
    void db;
  });

  it("continues the chain from the fork, and playing on it never changes the original campaign", async () => {
    const { engine, db, replays } = await openCopy();
    const before = await rawStream(ashfall.played, CAMPAIGN);
    const fork = seqOf("TurnStarted", 2);
    const { meta } = await branch(engine, replays, "rematch", { seq: fork }, CAMPAIGN, db);
    const end = await playCampaign(tableAt(engine, db, meta.stream, "rematch"), () => {}, 12);
    const line = await engine.store.readAll(meta.stream);
    const own = line.slice(fork);
    expect(own.length).toBeGreaterThan(50);
    expect(own[0]).toMatchObject({ stream: meta.stream, seq: fork + 1, prev: meta.forkHash });
    expect(line.slice(0, fork)).toEqual(ashfall.events.slice(0, fork));
    // Another game: different seeds, different dice, different ashfall.events.
    expect(own.map((e) => e.hash)).not.toEqual(ashfall.events.slice(fork, fork + own.length).map((e) => e.hash));
    expect(end.seq).toBe(line.length);
    expect(await verifyStream(engine.store, meta.stream)).toMatchObject({ ok: true, events: line.length });
    expect(await verifyStream(engine.store, CAMPAIGN)).toMatchObject({ ok: true, events: ashfall.events.length });
    expect(await engine.store.readAll(CAMPAIGN)).toEqual(ashfall.events);
    await engine.close();
    ashfall.open.splice(ashfall.open.indexOf(engine), 1);
    expect(await rawStream(db, CAMPAIGN)).toEqual(before);
    // Its own dice: each new turn on the branch has its own host seed, kept in the branch's own secrets file.
    const hostSecrets = JSON.parse(await readFile(join(secretsDirOf(db), meta.stream, "host.json"), "utf8")) as {
      hostSeeds: Record<string, string>;
    };
    const started3 = own.find((e) => e.type === "TurnStarted" && (e.data as { turn: number }).turn === 3)!;
    expect(seedCommitment(hostSecrets.hostSeeds["3"]!)).toBe((started3.data as { hostSeedHash: string }).hostSeedHash);
    expect((started3.data as { hostSeedHash: string }).hostSeedHash).not.toBe(
      (ashfall.events[seqOf("TurnStarted", 3) - 1]!.data as { hostSeedHash: string }).hostSeedHash,
    );
  });

  it("of a branch reads its parent's line up to its fork, wherever in that line the fork falls", async () => {
    const { engine, db, replays } = await openCopy();
    const f1 = seqOf("TurnStarted", 2);
    const b = (await branch(engine, replays, "b", { seq: f1 }, CAMPAIGN, db)).meta;
    await playCampaign(tableAt(engine, db, b.stream, "b"), () => {}, 3);
    const bLine = await engine.store.readAll(b.stream);
    const bBefore = await ownEntries(engine.store, b.stream);
    const bHead = await engine.store.storedHead(b.stream);
    const f2 = f1 + 30;
    const f3 = f1 - 10;
    const c = (await branch(engine, replays, "c", { seq: f2 }, b.stream, db)).meta;
    const d = (await branch(engine, replays, "d", { seq: f3 }, b.stream, db)).meta;
    expect(c).toMatchObject({ parent: b.stream, root: CAMPAIGN, forkSeq: f2, forkHash: bLine[f2 - 1]!.hash });
    expect(d).toMatchObject({ parent: b.stream, root: CAMPAIGN, forkSeq: f3, forkHash: ashfall.events[f3 - 1]!.hash });
    expect(await engine.store.line(c.stream)).toEqual([
      { stream: CAMPAIGN, from: 1, to: f1 },
      { stream: b.stream, from: f1 + 1, to: f2 },
      { stream: c.stream, from: f2 + 1, to: Infinity },
    ]);
    expect(await engine.store.line(d.stream)).toEqual([
      { stream: CAMPAIGN, from: 1, to: f3 },
      { stream: d.stream, from: f3 + 1, to: Infinity },
    ]);
    // Each forks inside a turn: its own first event (LineForked) follows its parent's prefix.
    expect((await engine.store.readAll(c.stream)).slice(0, f2)).toEqual(bLine.slice(0, f2));
    expect((await engine.store.readAll(d.stream)).slice(0, f3)).toEqual(ashfall.events.slice(0, f3));
    await playCampaign(tableAt(engine, db, c.stream, "c"), () => {}, 4);
    const cLine = await engine.store.readAll(c.stream);
    expect(cLine[f2]).toMatchObject({ stream: c.stream, seq: f2 + 1, prev: bLine[f2 - 1]!.hash });
    for (const stream of [CAMPAIGN, b.stream, c.stream, d.stream])
      expect(await verifyStream(engine.store, stream)).toMatchObject({ ok: true });
    expect((await replays.stateAtSeq(c.stream, cLine.length)).state).toEqual(foldTo(cLine, cLine.length));
    expect(await engine.store.readAll(b.stream)).toEqual(bLine);
    expect(await ownEntries(engine.store, b.stream)).toEqual(bBefore);
    expect(await engine.store.storedHead(b.stream)).toEqual(bHead);
  });

  it("can be made from a finished campaign: at its end it is finished too; from an earlier turn it plays out anew", async () => {
    const { engine, db, replays } = await openCopy();
    expect(foldTo(ashfall.events, ashfall.events.length).status).toBe("finished");
    const atEnd = (await branch(engine, replays, "epilogue", { seq: ashfall.events.length }, CAMPAIGN, db)).meta;
    expect(await engine.state(atEnd.stream)).toMatchObject({ status: "finished", seq: ashfall.events.length });
    const refused = await engine.execute(atEnd.stream, [
      { actor: "host", type: "StartTurn", hostSeedHash: "a".repeat(64) },
    ]);
    expect(refused.ok).toBe(false);
    expect((await engine.store.head(atEnd.stream)).seq).toBe(ashfall.events.length);
    const replay = (await branch(engine, replays, "replay-3", { turn: 3 }, CAMPAIGN, db)).meta;
    const end = await playCampaign(tableAt(engine, db, replay.stream, "replay-3"), () => {}, 10);
    expect(end.seq).toBeGreaterThan(replay.forkSeq);
    expect(await verifyStream(engine.store, replay.stream)).toMatchObject({ ok: true });
    expect(await engine.store.readAll(CAMPAIGN)).toEqual(ashfall.events);
  });

  it("forked in the middle of a turn takes no secret of the parent: what was open is void, and made afresh on it", async () => {
    const { engine, db, replays } = await openCopy();
    // The point of turn 2 with the most orders committed and not yet revealed.
    const activated = ashfall.events.filter(
      (e) => e.type === "ArmyActivated" && (e.data as { turn: number }).turn === 2,
    );
    const hiddenAt = (seq: number) =>
      activated.filter(
        (a) =>
          a.seq <= seq &&
          !ashfall.events.some(
            (e) =>
              e.seq > a.seq &&
              e.seq <= seq &&
              e.type === "OrderRevealed" &&
              (e.data as { army: string }).army === (a.data as { army: string }).army,
          ),
      );
    // Forked between two commands, as a what-if is: right before an activation's signed command.
    const fork = activated
      .map((a) => a.seq - 1)
      .reduce((best, seq) => (hiddenAt(seq).length > hiddenAt(best).length ? seq : best));
    const hidden = hiddenAt(fork).map((a) => a.data as { army: string; player: string });
    expect(hidden.length).toBeGreaterThan(1);
    const diceBefore = (await replays.stateAtSeq(CAMPAIGN, fork)).state.turnState!.diceUsed;
    const parentSecrets = await readSecrets(db, CAMPAIGN);
    const { meta, copied } = await branch(engine, replays, "mid-turn", { seq: fork }, CAMPAIGN, db);
    // Only the seat keys in force reach the branch's secrets (D2): no seed, no order.
    expect(copied).toEqual(["host's seat key", "concord's seat key", "horde's seat key"]);
    const own = await readSecrets(db, meta.stream);
    for (const party of Object.keys(own)) expect(Object.keys(own[party]!)).toEqual(["seatKey"]);
    // Its first own event names what is void there.
    const [first] = (await engine.store.readAll(meta.stream)).slice(fork);
    expect(first).toMatchObject({
      type: "LineForked",
      actor: "host",
      data: {
        turn: 2,
        fromDie: diceBefore,
        voidedSeeds: ["host", "concord", "horde"],
        voidedOrders: hidden.map(({ army, player }) => ({ army, player })),
      },
    });
    expect(await readSecrets(db, CAMPAIGN)).toEqual(parentSecrets);
    // Until the seeds are all in force again, each step out of D1's order is refused, naming the rule; the log stays.
    const head = await engine.store.head(meta.stream);
    const voided = hidden[0]!;
    const refusals: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ actor: "host", type: "ReseedTurn", hostSeedHash: "a".repeat(64) }, "D1", /after every player has committed/],
      [{ actor: "concord", type: "GiveSeed", seed: "b".repeat(64) }, "D1", /being made afresh on this branch/],
      [{ actor: "host", type: "ForkLine" }, "D1", /already void here/],
      [{ actor: "host", type: "RollInitiative", rounds: [{ concord: 1, horde: 2 }] }, "T2", /already been rolled/],
    ];
    const stranger = voided.player === "concord" ? "horde" : "concord";
    const notVoided = activated
      .map((a) => a.data as { army: string; player: string })
      .find((a) => !hidden.some((h) => h.army === a.army) && a.player === voided.player);
    // An army of the same player activated in turn 2 whose order was revealed before the fork: nothing of it is void.
    expect(notVoided).toBeDefined();
    refusals.push([
      { actor: voided.player, type: "RecommitOrder", army: notVoided!.army, commitment: "c".repeat(64) },
      "T5",
      /no order the fork voided/,
    ]);
    for (const [command, rule, message] of refusals) {
      const outcome = await engine.execute(meta.stream, [command as never]);
      expect(outcome.ok, JSON.stringify(command)).toBe(false);
      if (!outcome.ok)
        expect(outcome.refusal).toMatchObject({ kind: "rule", rule, message: expect.stringMatching(message) });
    }
    const foreign = await engine.execute(meta.stream, [
      { actor: stranger, type: "RecommitOrder", army: voided.army, commitment: "c".repeat(64) } as never,
    ]);
    expect(foreign).toMatchObject({ ok: false, refusal: { kind: "field", field: "actor" } });
    expect(await engine.store.head(meta.stream)).toEqual(head);
    // Played on by the demo's commanders: fresh seeds, each voided order committed again, the turn ended.
    await playCampaign(tableAt(engine, db, meta.stream, "mid-turn"), () => {}, 2);
    const line = (await engine.store.readAll(meta.stream)).slice(fork);
    expect(line.filter((e) => ["RevealRejected", "OrderViolated"].includes(e.type))).toEqual([]);
    expect(line.filter((e) => e.type === "OrderRecommitted").map((e) => (e.data as { army: string }).army)).toEqual(
      hidden.map((h) => h.army),
    );
    expect(line.find((e) => e.type === "TurnReseeded")!.data).toMatchObject({ turn: 2, fromDie: diceBefore });
    const ended = line.find((e) => e.type === "TurnEnded")!.data as { turn: number; hostSeed: string };
    expect(ended.turn).toBe(2);
    expect(ended.hostSeed).not.toBe(parentSecrets["host"]!.hostSeeds!["2"]);
    const text = JSON.stringify(line);
    for (const [turn, seed] of Object.entries(parentSecrets["host"]!.hostSeeds!))
      if (Number(turn) >= 2) expect(text).not.toContain(seed);
    for (const { army, player } of hidden) {
      const held = parentSecrets[player]!.orders![`2/${army}`]!;
      expect(text).not.toContain(held.salt);
    }
    // The branch audits clean: its own dice against its own seeds, those drawn before the fork left to the parent's.
    const report = await auditStream(engine.store, meta.stream);
    expect(report.findings).toEqual([]);
    expect(report.ok).toBe(true);
    const turn2 = report.turns.find((t) => t.turn === 2)!;
    const before = turn2.rolls.filter((r) => r.seq <= fork);
    expect(before.length).toBeGreaterThan(0);
    for (const roll of before) expect(roll).toMatchObject({ status: "pending", verdict: PARENT_LINE_ROLL });
    const after = turn2.rolls.filter((r) => r.seq > fork);
    expect(after.length).toBeGreaterThan(0);
    for (const roll of after) expect(roll).toMatchObject({ status: "ok" });
  });

  it("forked mid-turn starts its first state from the parent's last snapshot before the fork, not from seq 1", async () => {
    const { engine, db, replays } = await openCopy();
    await replays.current(CAMPAIGN);
    const parentSnapshots = await replays.snapshots.seqs(CAMPAIGN);
    // Right before turn 2's first activation: seeds committed, so the host's ForkLine is the branch's first command.
    const fork = seqOf("ArmyActivated", 2) - 1;
    const shared = parentSnapshots.filter((s) => s <= fork);
    const before = shared.at(-1)!;
    expect(before).toBeGreaterThan(1);
    // The one before it, or the line's start where there is none.
    const earlier = shared.at(-2) ?? 0;
    const stream = `${CAMPAIGN}.from-snapshot`;
    const created = await eventsRead(
      engine.store,
      () => branch(engine, replays, "from-snapshot", { seq: fork }, CAMPAIGN, db),
      stream,
    );
    expect(created.result.forked).toBeDefined();
    // Only the events from the snapshot to the fork are read: the LineForked reaches it as it is appended.
    expect(created.from).toEqual([before + 1]);
    expect(created.read).toBe(fork - before);
    const line = await engine.store.readAll(stream);
    expect(await engine.state(stream)).toEqual(foldTo(line, line.length));

    // A snapshot whose hash stamp is not the line's event at its seq is not used (and is deleted): what is before it is.
    const lie = { ...foldTo(line, before), status: "finished" as const };
    await replays.snapshots.put([{ stream: CAMPAIGN, hash: "0".repeat(64), state: lie }]);
    const restarted = await eventsRead(
      engine.store,
      async () => {
        const live = new LiveCampaign(engine.store, stream);
        try {
          return await live.at(line.length);
        } finally {
          live.close();
        }
      },
      stream,
    );
    expect(restarted.from).toEqual([earlier + 1]);
    expect(restarted.result).toEqual(foldTo(line, line.length));
    expect(await replays.snapshots.seqs(CAMPAIGN)).not.toContain(before);

    // The branch plays on from it, and audits clean.
    await playCampaign(tableAt(engine, db, stream, "from-snapshot"), () => {}, 3);
    const played = await engine.store.readAll(stream);
    expect(played.slice(fork).some((e) => e.type === "TurnEnded")).toBe(true);
    expect(await engine.state(stream)).toEqual(foldTo(played, played.length));
    const report = await auditStream(engine.store, stream);
    expect(report.findings).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it("shares its parent's snapshots up to the fork and keeps its own after it", async () => {
    const { engine, db, replays } = await openCopy();
    await replays.current(CAMPAIGN);
    const parentSnapshots = await replays.snapshots.seqs(CAMPAIGN);
    const fork = seqOf("TurnStarted", 3);
    const { meta } = await branch(engine, replays, "snap", { seq: fork }, CAMPAIGN, db);
    const before = parentSnapshots.filter((s) => s <= fork).at(-1)!;
    expect(await replays.stateAtSeq(meta.stream, fork)).toMatchObject({ from: before, folded: fork - before });
    await playCampaign(tableAt(engine, db, meta.stream, "snap"), () => {}, 5);
    const line = await engine.store.readAll(meta.stream);
    const at = await replays.stateAtSeq(meta.stream, line.length);
    expect(at.state).toEqual(foldTo(line, line.length));
    const own = await replays.snapshots.seqs(meta.stream);
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((s) => s > fork)).toBe(true);
    expect(await replays.snapshots.seqs(CAMPAIGN)).toEqual(parentSnapshots);
    // The parent's snapshots after the fork are of another history: never the branch's.
    const later = parentSnapshots.find((s) => s > fork && s < line.length)!;
    await replays.snapshots.clear(meta.stream);
    expect((await replays.stateAtSeq(meta.stream, later)).from).toBeLessThanOrEqual(fork);
  });
});

describe("names and stream ids", () => {
  it("are <campaign>.<name>; main, taken names and names that are not short ids are refused", async () => {
    const { engine, replays } = await openCopy();
    expect(branchStream(CAMPAIGN, "what-if_2")).toBe("ashfall.what-if_2");
    const quiet = { seq: seqOf("TurnEnded", 1) };
    await branch(engine, replays, "x", quiet);
    for (const name of [MAIN, "x", "a.b", "-x", "", "x".repeat(33), "a b"]) {
      await expect(branch(engine, replays, name, quiet)).rejects.toThrow(BranchError);
    }
    expect(await lineStream(engine.store, CAMPAIGN, "x")).toBe("ashfall.x");
    expect(await lineStream(engine.store, CAMPAIGN, MAIN)).toBe(CAMPAIGN);
    await expect(lineStream(engine.store, CAMPAIGN, "nope")).rejects.toThrow(/has no branch "nope" \(its branches: x/);
  });

  it("never collide with a campaign: a stream in use cannot become a branch, nor a branch's stream a campaign", async () => {
    const { engine, replays } = await openCopy();
    const deployed = {
      type: "ArmyDeployed",
      version: 1,
      at: "2026-01-01T00:00:00Z",
      actor: "p1",
      data: { army: "a1", at: [1, 1] },
    };
    await engine.store.append("ashfall.taken", 0, [deployed]);
    const quiet = { seq: seqOf("TurnEnded", 1) };
    await expect(branch(engine, replays, "taken", quiet)).rejects.toThrow(/already exists/);
    const { meta } = await branch(engine, replays, "mine", quiet);
    await expect(engine.store.append(meta.stream, 0, [deployed])).rejects.toThrow(AppendConflictError);
    await expect(engine.store.createBranch("bad#name", CAMPAIGN, 5)).rejects.toThrow(/not a valid stream name/);
    await expect(engine.store.createBranch("ashfall.far", CAMPAIGN, ashfall.events.length + 1)).rejects.toThrow(
      BranchError,
    );
    await expect(engine.store.createBranch("ashfall.none", "nowhere", 1)).rejects.toThrow(/no stream nowhere/);
  });
});

describe("verify of a branch", () => {
  async function tampered(
    edit: (raw: Awaited<ReturnType<typeof openRaw>>, ctx: { fork: number; own: StoredEvent[] }) => Promise<void>,
  ) {
    const { engine, db, replays } = await openCopy();
    const fork = seqOf("TurnStarted", 3);
    const { meta } = await branch(engine, replays, "t", { seq: fork }, CAMPAIGN, db);
    await playCampaign(tableAt(engine, db, meta.stream, "t"), () => {}, 4);
    const own = (await engine.store.readAll(meta.stream)).slice(fork);
    await engine.close();
    ashfall.open.splice(ashfall.open.indexOf(engine), 1);
    const raw = await openRaw(db);
    try {
      await edit(raw, { fork, own });
    } finally {
      await raw.level.close();
    }
    const again = await Engine.open(db, { createIfMissing: false });
    ashfall.open.push(again);
    return { store: again.store, stream: meta.stream, fork, own };
  }
  const edited = (event: StoredEvent, change: object) => {
    const { hash: _hash, ...envelope } = event;
    return canonicalJson({ ...envelope, data: { ...(envelope.data as object), ...change } });
  };

  it("finds an edit of one of its own events", async () => {
    const { store, stream, own } = await tampered(async (raw, { own }) => {
      const victim = own[5]!;
      await raw.events.put(rawKey(victim.stream, victim.seq), victim.hash + edited(victim, { army: "zz" }));
    });
    expect(await verifyStream(store, stream)).toMatchObject({ ok: false, stream, seq: own[5]!.seq, problem: "hash" });
    expect((await verifyStream(store, stream)).ok === false && "inStream" in (await verifyStream(store, stream))).toBe(
      false,
    );
    expect(await verifyStream(store, CAMPAIGN)).toMatchObject({ ok: true });
  });

  it("finds an edit of the parent's prefix, naming the parent; an edit after the fork is the parent's alone", async () => {
    const inPrefix = await tampered(async (raw) => {
      const victim = ashfall.events[40]!;
      await raw.events.put(rawKey(CAMPAIGN, victim.seq), victim.hash + edited(victim, { army: "zz" }));
      const after = ashfall.events[ashfall.events.length - 5]!;
      await raw.events.put(rawKey(CAMPAIGN, after.seq), after.hash + edited(after, { army: "zz" }));
    });
    expect(await verifyStream(inPrefix.store, inPrefix.stream)).toMatchObject({
      ok: false,
      seq: 41,
      problem: "hash",
      inStream: CAMPAIGN,
    });
    const afterFork = await tampered(async (raw) => {
      const after = ashfall.events[ashfall.events.length - 5]!;
      await raw.events.put(rawKey(CAMPAIGN, after.seq), after.hash + edited(after, { army: "zz" }));
    });
    expect(await verifyStream(afterFork.store, afterFork.stream)).toMatchObject({ ok: true });
    expect(await verifyStream(afterFork.store, CAMPAIGN)).toMatchObject({
      ok: false,
      seq: ashfall.events.length - 4,
      problem: "hash",
    });
  });

  it("finds the parent's history rewritten and re-hashed (parent verify passes), and a deleted prefix event", async () => {
    const rewritten = await tampered(async (raw) => {
      let prev = ashfall.events[19]!.hash;
      for (const original of ashfall.events.slice(20)) {
        const { hash: _hash, ...envelope } = original;
        const body = canonicalJson({
          ...envelope,
          prev,
          data: original.seq === 21 ? { ...(envelope.data as object), rewritten: true } : envelope.data,
        });
        prev = sha256Hex(body);
        await raw.events.put(rawKey(CAMPAIGN, original.seq), prev + body);
      }
      await raw.heads.put(CAMPAIGN, JSON.stringify({ seq: ashfall.events.length, hash: prev }));
    });
    expect(await verifyStream(rewritten.store, CAMPAIGN)).toMatchObject({ ok: true });
    expect(await verifyStream(rewritten.store, rewritten.stream)).toMatchObject({
      ok: false,
      seq: rewritten.fork,
      problem: "fork",
      inStream: CAMPAIGN,
    });
    const deleted = await tampered(async (raw) => raw.events.del(rawKey(CAMPAIGN, 30)));
    expect(await verifyStream(deleted.store, deleted.stream)).toMatchObject({
      ok: false,
      seq: 30,
      problem: "missing",
      inStream: CAMPAIGN,
    });
  });

  it("finds its own tail cut off, and a branch record pointing at another fork hash", async () => {
    const cut = await tampered(async (raw, { own }) => raw.events.del(rawKey(own.at(-1)!.stream, own.at(-1)!.seq)));
    expect(await verifyStream(cut.store, cut.stream)).toMatchObject({
      ok: false,
      seq: cut.own.at(-1)!.seq,
      problem: "truncated",
    });
    const moved = await tampered(async (raw) => {
      const meta = JSON.parse((await raw.branches.get("ashfall.t"))!) as { forkHash: string };
      await raw.branches.put("ashfall.t", JSON.stringify({ ...meta, forkHash: "f".repeat(64) }));
    });
    expect(await verifyStream(moved.store, moved.stream)).toMatchObject({ ok: false, problem: "fork" });
  });
});

async function readSecrets(
  db: string,
  stream: string,
): Promise<
  Record<string, { hostSeeds?: Record<string, string>; orders?: Record<string, HeldOrder>; seatKey?: SeatKey }>
> {
  const out: Record<string, never> = {};
  const { readdir } = await import("node:fs/promises");
  for (const file of await readdir(join(secretsDirOf(db), stream)).catch(() => [] as string[])) {
    if (file.endsWith(".json"))
      (out as Record<string, unknown>)[file.slice(0, -5)] = JSON.parse(
        await readFile(join(secretsDirOf(db), stream, file), "utf8"),
      );
  }
  return out;
}

describe("the CLI", () => {
  it("branch, branches, apply/log/state/verify/timeline --branch, and diff, end to end", async () => {
    const db = await copyOf(ashfall.played);
    const before = await rawStream(db, CAMPAIGN);
    // Where things are in the ashfall.played game (read from its ashfall.events, not assumed).
    const fork = seqOf("TurnStarted", 3);
    const end = foldTo(ashfall.events, ashfall.events.length);
    const [lastTurn, winner] = [end.turn, end.result!.winner!];
    const made = await cli(["branch", "--db", db, "--from-turn", "3", "--phase", "action", "--name", "what-if"]);
    expect(made.code, show(made)).toBe(0);
    expect(made.stdout).toMatch(/^Branch what-if of ashfall forks main after event \d+ \(Turn 3 Action\)/);
    // No secret of main reaches it: the turn's seeds are void there, made afresh.
    expect(made.stdout).toContain(
      "Its first event: this branch forks its parent line: void here the dice seeds of host, concord, horde for turn 3",
    );
    const deeper = await cli(["branch", "--db", db, "--branch", "what-if", "--from-seq", "100", "--name", "deeper"]);
    expect(deeper.code, show(deeper)).toBe(0);

    // Input with no line takes the steps due on the branch: fresh seeds committed, the host's reseed, seeds given.
    const applied = await cli(["apply", "--db", db, "--branch", "what-if", "-"], "");
    expect(applied.code, show(applied)).toBe(0);
    expect(applied.stdout).toContain(`#${fork + 2} concord commits to its dice seed for turn 3`);
    expect(applied.stdout).toMatch(
      new RegExp(`#${fork + 4} the host commits to a fresh dice seed \\w+ for turn 3, dice from 0 on`),
    );
    expect(applied.stdout).toContain(`#${fork + 5} concord gives its dice seed for turn 3, as committed\n`);

    // What reads the folder runs side by side, each on its own copy (LevelDB lets one process open a folder).
    const [listed, listedJson, log, state, past, timeline, verified, one, diff, diffJson, same] = await Promise.all(
      [
        ["branches"],
        ["branches", "--json"],
        ["log", "--branch", "what-if", "--json"],
        ["state", "--branch", "what-if", "--json"],
        ["state", "--branch", "deeper", "--seq", "50", "--json"],
        ["timeline", "--branch", "what-if", "--from-turn", "3"],
        ["verify"],
        ["verify", "--branch", "what-if"],
        ["diff", "main", "what-if"],
        ["diff", "what-if", "main", "--json"],
        ["diff", "main", "main"],
      ].map(async ([command, ...rest]) => cli([command!, "--db", await copyOf(db), ...rest])),
    );
    for (const run of [listed, listedJson, log, state, past, timeline, verified, one, diff, diffJson, same])
      expect(run!.code, show(run!)).toBe(0);

    const rows = lines(listed!.stdout);
    expect(rows[0]).toMatch(/^line\s+parent\s+fork\s+events\s+stream$/);
    expect(rows[1], rows.join("\n")).toMatch(new RegExp(`^main\\s+-\\s+-\\s+${ashfall.events.length}\\s+ashfall$`));
    expect(
      rows.some((row) =>
        new RegExp(
          `^what-if\\s+main\\s+after #${fork} \\(Turn 3 Action\\)\\s+${fork + 7} \\(7 own\\)\\s+ashfall\\.what-if$`,
        ).test(row),
      ),
      rows.join("\n"),
    ).toBe(true);
    expect(
      rows.some((row) => /^deeper\s+what-if\s+after #100 \(Turn \d+ (Action|Battle|End)\)/.test(row)),
      rows.join("\n"),
    ).toBe(true);
    const json = JSON.parse(listedJson!.stdout) as {
      branches: Array<{ name: string; parent: string; forkSeq: number }>;
    };
    expect(json.branches.map((b) => [b.name, b.parent, b.forkSeq])).toEqual([
      ["what-if", "main", fork],
      ["deeper", "what-if", 100],
    ]);

    const logged = lines(log!.stdout).map((line) => JSON.parse(line) as StoredEvent);
    expect(logged.at(-1)).toMatchObject({ stream: "ashfall.what-if", type: "InitiativeRolled" });
    expect(logged[fork]).toMatchObject({
      stream: "ashfall.what-if",
      seq: fork + 1,
      prev: ashfall.events[fork - 1]!.hash,
    });
    expect(JSON.parse(state!.stdout)).toMatchObject({ seq: logged.length, turn: 3 });
    const { derived, ...pastState } = JSON.parse(past!.stdout) as { derived: object };
    expect(pastState).toEqual(JSON.parse(JSON.stringify(foldTo(ashfall.events, 50))));
    expect(derived).toMatchObject({ cvps: { concord: { total: expect.any(Number) } } });
    expect(lines(timeline!.stdout).at(-1)).toMatch(/^Turn 3 Action: initiative: /);

    // Each line's chain, then its signatures, indented.
    expect(lines(verified!.stdout).map((line) => line.split(":")[0])).toEqual([
      "ashfall",
      "  signatures",
      "ashfall.deeper",
      "  signatures",
      "ashfall.what-if",
      "  signatures",
    ]);
    expect(one!.stdout).toMatch(/^ashfall\.what-if: intact, \d+ events/);

    expect(diff!.stdout).toContain(
      `main: seq ${ashfall.events.length}, turn ${lastTurn} end, finished, won by ${winner}\n`,
    );
    expect(diff!.stdout).toMatch(new RegExp(`^winner\\s+${winner}\\s+none yet$`, "m"));
    expect(diff!.stdout).toMatch(/^CVPs horde\s+\d+\s+\d+$/m);
    expect(
      (JSON.parse(diffJson!.stdout) as { differences: Array<{ what: string }> }).differences.map((d) => d.what),
    ).toContain("winner");
    expect(same!.stdout).toContain("No differences");

    const refusals = [
      [["branch", "--from-turn", "3", "--name", "main"], /"main" is the campaign's own line/],
      [["branch", "--from-turn", "3", "--name", "what-if"], /already exists/],
      [["branch", "--from-turn", "99", "--name", "later"], /turn 99 has not begun/],
      [["branch", "--name", "nowhere"], /--from-turn N .* or --from-seq N/],
      [["state", "--branch", "nope"], /has no branch "nope"/],
      [["diff", "main", "nope"], /has no branch "nope"/],
      [["new", "--setup", "x.json", "--branch", "what-if"], /new creates a campaign's own line/],
    ] as const;
    const refused = await Promise.all(
      refusals.map(async ([[command, ...rest]]) => cli([command!, "--db", await copyOf(db), ...rest])),
    );
    for (const [i, run] of refused.entries()) {
      expect(run.code, show(run)).toBe(1);
      expect(lines(run.stderr), show(run)).toHaveLength(1);
      expect(run.stderr).toMatch(refusals[i]![1]);
    }
    expect(await rawStream(db, CAMPAIGN)).toEqual(before);
  }, 120_000);

  it("audit --branch audits the branch's line, when the audit command is there", async () => {
    const db = await copyOf(ashfall.played);
    await cli(["branch", "--db", db, "--from-turn", "2", "--name", "audited"]);
    const help = await cli(["audit", "--help"]);
    if (help.code !== 0) return;
    const run = await cli(["audit", "--db", db, "--branch", "audited", "--json"]);
    expect(run.code, show(run)).toBe(0);
    expect(run.stdout).toContain("ashfall.audited");
  });
});
