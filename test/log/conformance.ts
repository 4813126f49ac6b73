/**
 * What every EventStore must do, whatever holds the log (LevelDB in a folder, PostgreSQL): appends and their
 * conflicts, atomic batches, branches and their lines, range reads and followers, verify of every kind of tampering,
 * the snapshot cache, and the golden corpus and the demo campaign played through the engine. Run against LevelDB in
 * the fast tier (test/log/conformance-leveldb.test.ts) and against PostgreSQL in the slow tier.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { firstValueFrom, take, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { HOST } from "../../events/common.js";
import { toCurrent, type StoredEvent } from "../../events/index.js";
import { evolveAll } from "../../projections/campaign.js";
import { initialState } from "../../projections/state.js";
import { auditStream } from "../../replays/audit-load.js";
import { exportPlan } from "../../replays/export-plan.js";
import { Replays } from "../../replays/replayer.js";
import { splitSnapshot } from "../../replays/snapshots.js";
import { sequenceRandomHex } from "../../src/client/prepare.js";
import { sequenceSeatKeys } from "../../src/client/seat-keys.js";
import { MemorySecrets } from "../../src/client/secrets.js";
import { Table } from "../../src/client/table.js";
import { readExportFile } from "../../src/cli/commands/import.js";
import { playCampaign } from "../../src/demo/play.js";
import { Engine, type CommandHandler } from "../../src/engine/engine.js";
import {
  AppendConflictError,
  BranchError,
  CorruptEventError,
  EventExistsError,
  EventStore,
  InvalidEventError,
  verifyStream,
  type ChainProblem,
  type Head,
} from "../../src/log/index.js";
import { exportLines } from "../../src/log/export-file.js";
import { MemoryEngine } from "../../src/engine/memory-engine.js";
import { setupCommands } from "../../src/setup/setup-file.js";
import { loadSetupFile } from "../../src/setup/setup-loader.js";
import { goldenCases, goldenSample } from "../golden/cases.js";
import { playCase, type CasePath } from "../golden/spec.js";
import { tempDir } from "../support/tmp.js";
import { bodyOf, canonical, deployed, deployedBatch, fill, GENESIS, sha256 } from "./helpers.js";

/** The log's stored rows, edited as someone with the files or the database would, while no store has it open. */
export interface RawLog {
  get(stream: string, seq: number): Promise<string | undefined>;
  put(stream: string, seq: number, value: string): Promise<void>;
  del(stream: string, seq: number): Promise<void>;
  /** Sets the stream's head record, or deletes it (undefined). */
  setHead(stream: string, head: Head | undefined): Promise<void>;
  /** Points a branch record at another parent. */
  setParent(stream: string, parent: string): Promise<void>;
  close(): Promise<void>;
}

export interface StoreKind {
  name: string;
  /** The location of a new, empty log. */
  fresh(): Promise<string>;
  /** The location of an empty log for one golden case, where emptying one is cheaper than making one (default fresh). */
  emptied?(): Promise<string>;
  raw(location: string): Promise<RawLog>;
  /** Which golden cases run through the engine here: all of them, or the golden test's sample of every kind. */
  golden: "all" | "sample";
}

const CLOCK = () => new Date("2026-01-01T00:00:00.000Z");
const ASHFALL = fileURLToPath(new URL("../../examples/ashfall.setup.json", import.meta.url));

export function conformance(kind: StoreKind): void {
  const opened: EventStore[] = [];
  const open = async (location: string): Promise<EventStore> => {
    const store = await EventStore.open(location, { sync: false });
    opened.push(store);
    return store;
  };
  const closeAll = () => Promise.all(opened.splice(0).map((store) => store.close()));
  /** A log written by `write`, then closed, edited raw, and opened again. */
  const edited = async (
    write: (store: EventStore) => Promise<void>,
    edit: (raw: RawLog) => Promise<void>,
  ): Promise<EventStore> => {
    const location = await kind.fresh();
    await write(await open(location));
    await closeAll();
    const raw = await kind.raw(location);
    try {
      await edit(raw);
    } finally {
      await raw.close();
    }
    return open(location);
  };
  const ownSeqs = async (store: EventStore, stream: string) => {
    const seqs: number[] = [];
    for await (const batch of store.rawBatches(stream)) seqs.push(...batch.map(([seq]) => seq));
    return seqs;
  };

  describe(`EventStore on ${kind.name}: appends`, () => {
    it("appends batch after batch, each event sealed with its seq, its link and the hash of its exact body", async () => {
      const store = await open(await kind.fresh());
      try {
        const first = await store.append("c1", 0, deployedBatch(1, 3));
        const second = await store.append("c1", 3, deployedBatch(4, 2));
        const all = [...first, ...second];
        expect(all.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
        expect(all.map((e) => e.prev)).toEqual([GENESIS, ...all.slice(0, -1).map((e) => e.hash)]);
        for (const event of all) {
          expect(event.hash).toBe(sha256(bodyOf(event)));
          expect(await store.valueAt("c1", event.seq)).toBe(event.hash + bodyOf(event));
        }
        expect(await store.head("c1")).toEqual({ seq: 5, hash: all[4]!.hash });
        expect(await store.readAll("c1")).toEqual(all);
        expect(await store.streams()).toEqual(["c1"]);
      } finally {
        await closeAll();
      }
    });

    it("keeps the stored body byte for byte: key order, escapes and code points as canonical JSON wrote them", async () => {
      const store = await open(await kind.fresh());
      try {
        const name = 'é\u0301 "quoted" \\ \u2028 😀 \ud800';
        const [event] = await store.append("c1", 0, [
          {
            type: "ArmyRegistered",
            version: 1,
            at: "2026-01-01T00:00:00+05:30",
            actor: "p1",
            data: {
              player: "p1",
              army: "a1",
              name,
              formations: [{ id: "f1", formation: "f", units: { "10": 1, "9": 2, b: 3, a: 4 } }],
              commander: { unitType: "u", formation: "f1" },
            },
          },
        ]);
        const value = await store.valueAt("c1", 1);
        expect(value!.slice(64)).toBe(bodyOf(event!));
        expect(sha256(value!.slice(64))).toBe(event!.hash);
        expect(await verifyStream(store, "c1")).toMatchObject({ ok: true, events: 1 });
      } finally {
        await closeAll();
      }
    });

    it("refuses a stale expected seq with AppendConflictError and writes nothing", async () => {
      const store = await open(await kind.fresh());
      try {
        await store.append("c1", 0, deployedBatch(1, 2));
        const conflict = await store.append("c1", 1, deployedBatch(3, 1)).catch((error: unknown) => error);
        expect(conflict).toBeInstanceOf(AppendConflictError);
        expect(conflict).toMatchObject({ stream: "c1", expectedSeq: 1, actualSeq: 2 });
        expect((await store.head("c1")).seq).toBe(2);
        expect(await ownSeqs(store, "c1")).toEqual([1, 2]);
      } finally {
        await closeAll();
      }
    });

    it("lets one of two appends racing on one seq win; the other is a conflict", async () => {
      const store = await open(await kind.fresh());
      try {
        await store.append("c1", 0, deployedBatch(1, 1));
        const results = await Promise.allSettled([
          store.append("c1", 1, deployedBatch(10, 2)),
          store.append("c1", 1, deployedBatch(20, 3)),
        ]);
        expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
        const lost = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
        expect(lost.reason).toBeInstanceOf(AppendConflictError);
        expect((await store.head("c1")).seq).toBe(3);
        expect(await verifyStream(store, "c1")).toMatchObject({ ok: true, events: 3 });
      } finally {
        await closeAll();
      }
    });

    it("writes a batch atomically: an invalid event anywhere in it leaves the log as it was", async () => {
      const store = await open(await kind.fresh());
      try {
        await store.append("c1", 0, deployedBatch(1, 2));
        const before = await store.head("c1");
        const bad = { ...deployed(4), data: { army: "a4" } };
        const refused = await store.append("c1", 2, [deployed(3), bad, deployed(5)]).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(InvalidEventError);
        expect(refused).toMatchObject({ index: 1 });
        expect(await store.head("c1")).toEqual(before);
        expect(await store.firstStoredFrom("c1", 3)).toBeUndefined();
        await expect(store.append("c1 x", 0, [deployed(1)])).rejects.toThrow(RangeError);
      } finally {
        await closeAll();
      }
    });

    it("never writes over a stored event: a head set back outside epicwar makes the next append an EventExistsError", async () => {
      const store = await edited(
        async (s) => void (await s.append("c1", 0, deployedBatch(1, 4))),
        async (raw) => raw.setHead("c1", undefined),
      );
      try {
        const refused = await store.append("c1", 0, deployedBatch(10, 1)).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(EventExistsError);
        expect(refused).toMatchObject({ seq: 1 });
        expect(await store.streams()).toEqual(["c1"]);
        expect(await ownSeqs(store, "c1")).toEqual([1, 2, 3, 4]);
      } finally {
        await closeAll();
      }
    });
  });

  describe(`EventStore on ${kind.name}: branches and range reads`, () => {
    it("reads a branch as its line: the parent's events up to the fork, then its own; the parent's later ones not", async () => {
      const store = await open(await kind.fresh());
      try {
        const main = await fill(store, "c1", 6, 2);
        const meta = await store.createBranch("c1.b", "c1", 4, { name: "b", created: CLOCK().toISOString() });
        expect(meta).toMatchObject({ stream: "c1.b", parent: "c1", root: "c1", forkSeq: 4, forkHash: main[3]!.hash });
        expect(await store.head("c1.b")).toEqual({ seq: 4, hash: main[3]!.hash });
        const own = await store.append("c1.b", 4, deployedBatch(50, 3, "p2"));
        expect(own[0]!.prev).toBe(main[3]!.hash);
        const deeper = await store.createBranch("c1.b.d", "c1.b", 5);
        expect(deeper.root).toBe("c1");
        const deepOwn = await store.append("c1.b.d", 5, deployedBatch(80, 1, "p3"));
        expect(await store.line("c1.b.d")).toEqual([
          { stream: "c1", from: 1, to: 4 },
          { stream: "c1.b", from: 5, to: 5 },
          { stream: "c1.b.d", from: 6, to: Infinity },
        ]);
        expect(await store.readAll("c1.b")).toEqual([...main.slice(0, 4), ...own]);
        expect(await store.readAll("c1.b.d")).toEqual([...main.slice(0, 4), own[0], ...deepOwn]);
        expect(await store.readAll("c1.b", 3, 5)).toEqual([main[2], main[3], own[0]]);
        expect(await store.eventAt("c1.b", 2)).toEqual(main[1]);
        expect(await store.eventAt("c1.b", 6)).toEqual(own[1]);
        expect(await store.hashAt("c1.b", 0)).toBe(GENESIS);
        expect(await store.eventAt("c1.b", 9)).toBeUndefined();
        expect(await ownSeqs(store, "c1.b")).toEqual([5, 6, 7]);
        expect((await store.branches()).map((b) => b.stream)).toEqual(["c1.b", "c1.b.d"]);
        expect(await store.branch("c1")).toBeUndefined();
        for (const stream of ["c1", "c1.b", "c1.b.d"])
          expect(await verifyStream(store, stream), stream).toMatchObject({ ok: true });
      } finally {
        await closeAll();
      }
    });

    it("refuses a branch on a stream id in use or at a fork the parent does not have (BranchError)", async () => {
      const store = await open(await kind.fresh());
      try {
        await fill(store, "c1", 3);
        await fill(store, "c2", 1);
        await store.createBranch("c1.b", "c1", 2);
        await expect(store.createBranch("c1.b", "c1", 1)).rejects.toThrow(BranchError);
        await expect(store.createBranch("c2", "c1", 1)).rejects.toThrow(BranchError);
        await expect(store.createBranch("c1.x", "c1", 4)).rejects.toThrow(BranchError);
        await expect(store.createBranch("c1.y", "nothing", 1)).rejects.toThrow(BranchError);
        // A campaign cannot be created on a branch's id: its head is at the fork.
        await expect(store.append("c1.b", 0, [deployed(1)])).rejects.toThrow(AppendConflictError);
      } finally {
        await closeAll();
      }
    });

    it("reads long ranges in pages, from any seq to any seq, and follows appends live without a gap or a repeat", async () => {
      const store = await open(await kind.fresh());
      try {
        const all = await fill(store, "c1", 2_345, 500);
        expect((await store.readAll("c1")).map((e) => e.seq)).toEqual(all.map((e) => e.seq));
        expect(await store.readAll("c1", 999, 2_001)).toEqual(all.slice(998, 2_001));
        let batches = 0;
        for await (const batch of store.readBatches("c1", 2)) batches += batch.length;
        expect(batches).toBe(2_344);
        const followed = firstValueFrom(store.events$("c1", 2_340).pipe(take(10), toArray()));
        await store.append("c1", 2_345, deployedBatch(3_000, 5));
        expect((await followed).map((e) => e.seq)).toEqual([
          2_340, 2_341, 2_342, 2_343, 2_344, 2_345, 2_346, 2_347, 2_348, 2_349,
        ]);
      } finally {
        await closeAll();
      }
    });
  });

  describe(`EventStore on ${kind.name}: import`, () => {
    it("imports an export of a campaign with its branches as stored: same lines, same heads, verified; never over a stream in use", async () => {
      const source = await open(await kind.fresh());
      const main = await fill(source, "c1", 7, 3);
      await source.createBranch("c1.b", "c1", 4, { name: "b", created: CLOCK().toISOString() });
      await source.append("c1.b", 4, deployedBatch(40, 2, "p2"));
      const file = join(await tempDir("epicwar-export-"), "c1.jsonl");
      await writeFile(file, (await collect(exportLines(source, await exportPlan(source, "c1")))).join("\n") + "\n");
      const checked = await readExportFile(file);
      const target = await open(await kind.fresh());
      try {
        await target.importStreams(checked.streams);
        for (const stream of ["c1", "c1.b"]) {
          expect(await target.head(stream), stream).toEqual(await source.head(stream));
          expect(await target.readAll(stream), stream).toEqual(await source.readAll(stream));
          expect(await verifyStream(target, stream), stream).toMatchObject({ ok: true });
        }
        expect((await target.branches()).map((b) => b.name)).toEqual(["b"]);
        expect(await target.readAll("c1")).toEqual(main);
        await expect(target.importStreams(checked.streams)).rejects.toThrow(BranchError);
        expect(await target.head("c1")).toEqual(await source.head("c1"));
      } finally {
        await closeAll();
      }
    });
  });

  describe(`EventStore on ${kind.name}: verify finds every kind of tampering at its first bad seq`, () => {
    const N = 8;
    let events: StoredEvent[] = [];
    const write = async (store: EventStore) => {
      events = await fill(store, "c1", N, 3);
      // A stream whose id extends the first: an edit of one must not show in the other.
      await fill(store, "c10", 2);
    };
    const rehashed = (envelope: object) => {
      const body = canonical(envelope);
      return sha256(body) + body;
    };
    const envelopeOf = (event: StoredEvent) => {
      const { hash: _hash, ...envelope } = event;
      return envelope;
    };
    const cases: Array<[string, (raw: RawLog) => Promise<void>, number, ChainProblem]> = [
      [
        "hash: data edited without re-hashing",
        async (raw) => raw.put("c1", 4, events[3]!.hash + canonical({ ...envelopeOf(events[3]!), data: { x: 1 } })),
        4,
        "hash",
      ],
      [
        "unreadable: a body that hashes but is not JSON",
        async (raw) => raw.put("c1", 5, sha256("{") + "{"),
        5,
        "unreadable",
      ],
      ["missing: an event deleted", async (raw) => raw.del("c1", 3), 3, "missing"],
      [
        "order: two events swapped",
        async (raw) => {
          const [a, b] = [await raw.get("c1", 2), await raw.get("c1", 6)];
          await raw.put("c1", 2, b!);
          await raw.put("c1", 6, a!);
        },
        2,
        "order",
      ],
      [
        "link: an event edited and re-hashed alone",
        async (raw) => raw.put("c1", 5, rehashed({ ...envelopeOf(events[4]!), data: { army: "zz", at: [1, 1] } })),
        6,
        "link",
      ],
      [
        "truncated: the tail cut off while the head stays",
        async (raw) => {
          await raw.del("c1", 8);
          await raw.del("c1", 7);
        },
        7,
        "truncated",
      ],
      ["head: the head set back", async (raw) => raw.setHead("c1", { seq: 5, hash: events[4]!.hash }), 6, "head"],
      ["head: the head deleted", async (raw) => raw.setHead("c1", undefined), 1, "head"],
      [
        "head: a head with another hash",
        async (raw) => raw.setHead("c1", { seq: N, hash: events[0]!.hash }),
        N,
        "head",
      ],
      [
        "head: an event added after the head, chained",
        async (raw) =>
          raw.put("c1", N + 1, rehashed({ ...envelopeOf(events[0]!), seq: N + 1, prev: events[N - 1]!.hash })),
        N + 1,
        "head",
      ],
    ];
    for (const [name, edit, seq, problem] of cases) {
      it(name, async () => {
        const store = await edited(write, edit);
        try {
          expect(await verifyStream(store, "c1")).toMatchObject({ ok: false, seq, problem });
          expect(await verifyStream(store, "c10")).toMatchObject({ ok: true, events: 2 });
          if (problem === "missing" || problem === "order")
            await expect(store.readAll("c1")).rejects.toThrow(CorruptEventError);
        } finally {
          await closeAll();
        }
      });
    }

    it("fork: the parent's event at the fork rewritten consistently, or branch records that loop", async () => {
      let branchOwn: StoredEvent[] = [];
      const store = await edited(
        async (s) => {
          await write(s);
          await s.createBranch("c1.b", "c1", 4);
          branchOwn = await s.append("c1.b", 4, deployedBatch(40, 2));
          await s.createBranch("c1.b.d", "c1.b", 5);
        },
        async (raw) => {
          // The parent's events 1..4 re-chained consistently (and its head), so the parent itself still verifies.
          let prev = GENESIS;
          for (const event of events.slice(0, N)) {
            const envelope = {
              ...envelopeOf(event),
              prev,
              ...(event.seq === 2 ? { data: { army: "zz", at: [2, 2] } } : {}),
            };
            const value = rehashed(envelope);
            await raw.put("c1", event.seq, value);
            prev = value.slice(0, 64);
          }
          await raw.setHead("c1", { seq: N, hash: prev });
        },
      );
      try {
        expect(await verifyStream(store, "c1")).toMatchObject({ ok: true });
        expect(await verifyStream(store, "c1.b")).toMatchObject({ ok: false, seq: 4, problem: "fork", inStream: "c1" });
        expect(branchOwn).toHaveLength(2);
      } finally {
        await closeAll();
      }
      const looped = await edited(
        async (s) => {
          await write(s);
          await s.createBranch("c1.b", "c1", 4);
          await s.createBranch("c1.b.d", "c1.b", 4);
        },
        async (raw) => raw.setParent("c1.b", "c1.b.d"),
      );
      try {
        expect(await verifyStream(looped, "c1.b.d")).toMatchObject({ ok: false, problem: "fork" });
      } finally {
        await closeAll();
      }
    });
  });

  describe(`EventStore on ${kind.name}: snapshots, the golden corpus and the demo through the engine`, () => {
    it("plays the demo campaign to its end as the pure path does, same head hash; replays from the snapshot cache give the same states; audit is clean", async () => {
      const setup = await loadSetupFile(ASHFALL);
      const play = async (handler: CommandHandler) => {
        const created = await handler.execute(
          setup.campaign,
          setupCommands(setup).map((step) => step.command),
        );
        if (!created.ok) throw new Error(created.refusal.message);
        const table = new Table(handler, setup.campaign, {
          parties: new Set([HOST, ...setup.players.map((p) => p.id)]),
          secrets: new MemorySecrets(),
          random: sequenceRandomHex("conformance"),
          newKey: sequenceSeatKeys("conformance"),
        });
        return playCampaign(table, () => {}, 30);
      };
      const pure = new MemoryEngine(CLOCK);
      const pureEnd = await play(pure);
      expect(pureEnd.result, "the demo ends").not.toBeNull();
      const engine = await Engine.open(await kind.fresh(), { clock: CLOCK, sync: false });
      try {
        const end = await play(engine);
        expect(end).toEqual(pureEnd);
        expect(await engine.store.head(setup.campaign)).toEqual(await pure.head(setup.campaign));
        expect(await verifyStream(engine.store, setup.campaign)).toMatchObject({ ok: true, events: end.seq });
        expect(await auditStream(engine.store, setup.campaign)).toMatchObject({ ok: true, findings: [], pending: 0 });

        const replays = new Replays(engine.store);
        const events = await engine.store.readAll(setup.campaign);
        const turnStarts = events.filter((e) => e.type === "TurnStarted");
        expect(turnStarts.length).toBeGreaterThan(2);
        const fresh = new Replays(engine.store);
        for (const turn of [2, turnStarts.length]) {
          const at = await replays.stateAt(setup.campaign, { turn });
          // A second Replays reads what the first left in the cache; both agree with a fold from seq 1.
          const again = await fresh.stateAt(setup.campaign, { turn });
          expect(again.state).toEqual(at.state);
          expect(at.state).toEqual(
            evolveAll(initialState, structuredClone(events.slice(0, at.state.seq)).map(toCurrent)),
          );
          expect(at.state.turn).toBe(turn);
        }
        const seqs = await replays.snapshots.seqs(setup.campaign);
        expect(seqs.length).toBeGreaterThan(0);
        // A snapshot whose stamp is not the hash of its event is forged: skipped, and the state folded without it.
        const { header, body } = splitSnapshot((await replays.snapshots.raw(setup.campaign, seqs[0]!))!);
        await engine.store.snapshots.put([
          {
            key: `${setup.campaign}#${String(seqs[0]).padStart(12, "0")}`,
            value: `${JSON.stringify({ ...header, hash: GENESIS })}\n${body}`,
          },
        ]);
        const checking = new Replays(engine.store);
        const after = await checking.stateAtSeq(setup.campaign, seqs[0]! + 1);
        expect(after.state).toEqual(
          evolveAll(initialState, structuredClone(events.slice(0, seqs[0]! + 1)).map(toCurrent)),
        );
        expect(checking.snapshots.rejected.forged).toBeGreaterThanOrEqual(1);
        await replays.snapshots.clear(setup.campaign);
        expect(await replays.snapshots.seqs(setup.campaign)).toEqual([]);
      } finally {
        await engine.close();
      }
    });

    const path: CasePath = {
      name: kind.name,
      open: async () => {
        const engine = await Engine.open(await (kind.emptied ?? kind.fresh)(), { clock: CLOCK, sync: false });
        return { handler: engine, head: (campaign) => engine.store.head(campaign), close: () => engine.close() };
      },
    };
    const pure: CasePath = {
      name: "pure",
      open: async () => {
        const engine = new MemoryEngine(CLOCK);
        return { handler: engine, head: (campaign) => engine.head(campaign), close: async () => {} };
      },
    };
    const cases = kind.golden === "all" ? goldenCases() : goldenSample();
    it(`plays ${kind.golden === "all" ? "every golden case" : "a golden case of every kind"} (${cases.length}) through the engine as the pure path does`, async () => {
      for (const { path: file, golden } of cases) {
        expect(await playCase(path, golden), file).toEqual(await playCase(pure, golden));
      }
    });
  });
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** A temporary folder for a LevelDB log, removed after the test. */
export async function freshFolder(): Promise<string> {
  return join(await tempDir("epicwar-conformance-"), "db");
}
