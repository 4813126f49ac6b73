import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { NewEvent, StoredEvent } from "../../events/index.js";
import { EventStore, verifyStream, type ChainProblem } from "../../src/log/index.js";
import { tempDir } from "../support/tmp.js";
import { canonical, deployedBatch, GENESIS, openRaw, rawKey, sha256 } from "./helpers.js";

// ---------------------------------------------------------------------------------------------------------------
// Arbitraries: valid events of every type that has no cross-references, with random ids, squares, times and text.

const id = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,11}$/);
const square = fc.tuple(fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 999 }));
const at = fc
  .tuple(
    fc.date({
      min: new Date("1970-01-01T00:00:00.000Z"),
      max: new Date("2199-12-31T23:59:59.999Z"),
      noInvalidDate: true,
    }),
    fc.constantFrom("Z", "+00:00", "+05:30", "-11:00"),
    fc.boolean(),
  )
  .map(([date, zone, millis]) => {
    const iso = date.toISOString();
    return (millis ? iso.slice(0, -1) : iso.slice(0, 19)) + zone;
  });
// Text with any code point, and a few that canonical JSON must escape or keep exactly (lone surrogates, U+2028).
const text = fc.oneof(
  fc.string({ unit: "binary", minLength: 1, maxLength: 20 }),
  fc.constantFrom("\ud800", "a\udc00b", "é\u0301", "\u2028\u2029", '"\\/\b\f\n\r\t', "😀"),
);

const payload = fc.oneof(
  fc.record({ type: fc.constant("ArmyDeployed"), data: fc.record({ army: id, at: square }) }),
  fc.record({ type: fc.constant("HomeBasePlaced"), data: fc.record({ player: id, at: square }) }),
  fc.record({ type: fc.constant("ObjectivePlaced"), data: fc.record({ objective: id, placedBy: id, at: square }) }),
  fc.record({ type: fc.constant("CampaignStarted"), data: fc.constant({ turn: 1 }) }),
  fc.record({
    type: fc.constant("ArmyRegistered"),
    data: fc.record({
      army: id,
      player: id,
      name: text,
      formations: fc.array(
        fc.record({ id, formation: id, units: fc.dictionary(id, fc.integer({ min: 0, max: 1000 }), { maxKeys: 3 }) }),
        {
          minLength: 1,
          maxLength: 3,
        },
      ),
      commander: fc.record({ formation: id, unitType: id }),
    }),
  }),
);

const event: fc.Arbitrary<NewEvent> = fc
  .record({ payload, at, actor: id })
  .map(({ payload, at, actor }) => ({ ...payload, version: 1, at, actor }));

const STREAM = "c1";
/** A second stream in the same folder whose name extends the first: tampering with one must not touch the other. */
const OTHER = "c10";

async function appendAll(store: EventStore, stream: string, batches: NewEvent[][]): Promise<StoredEvent[]> {
  const returned: StoredEvent[] = [];
  for (const batch of batches) returned.push(...(await store.append(stream, returned.length, batch)));
  return returned;
}

describe("verify of an untouched log", () => {
  it("re-reads every sequence of valid appends exactly as append returned it, and verifies it", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(event, { maxLength: 5 }), { minLength: 1, maxLength: 6 }), async (batches) => {
        const dir = await tempDir();
        const store = await EventStore.open(dir);
        let returned: StoredEvent[];
        try {
          returned = await appendAll(store, STREAM, batches);
          expect(returned.map(({ type, version, at, actor, data }) => ({ type, version, at, actor, data }))).toEqual(
            batches.flat(),
          );
          expect(returned.map((e) => e.seq)).toEqual(returned.map((_, i) => i + 1));
          expect(await store.readAll(STREAM)).toEqual(returned);
          const headHash = returned.at(-1)?.hash ?? GENESIS;
          expect(await verifyStream(store, STREAM)).toEqual({
            ok: true,
            stream: STREAM,
            events: returned.length,
            headHash,
          });
        } finally {
          await store.close();
        }
        const reopened = await EventStore.open(dir);
        try {
          expect(await reopened.readAll(STREAM)).toEqual(returned);
          expect(await verifyStream(reopened, STREAM)).toMatchObject({ ok: true, events: returned.length });
        } finally {
          await reopened.close();
        }
      }),
      { numRuns: 40 },
    );
  });

  it("verifies a stream with no events as empty, at the genesis hash", async () => {
    const store = await EventStore.open(await tempDir());
    try {
      expect(await verifyStream(store, STREAM)).toEqual({ ok: true, stream: STREAM, events: 0, headHash: GENESIS });
    } finally {
      await store.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Tampering: the log is written by the store, closed, edited through LevelDB directly, then verified.

type Raw = Awaited<ReturnType<typeof openRaw>>;
interface Case {
  n: number;
  stored: StoredEvent[];
  other: StoredEvent[];
  raw: Raw;
}
interface Expected {
  seq: number;
  problem: ChainProblem;
}

/** Which event (1..n) a random natural number picks. */
const pick = (r: number, n: number) => 1 + (r % n);

function editedBody(event: StoredEvent): string {
  const { hash: _hash, ...envelope } = event;
  return canonical({ ...envelope, data: { tampered: envelope.data } });
}

const tamperings: Record<string, (c: Case, r: number, s: number) => Promise<Expected>> = {
  "a value whose data was edited without re-hashing is found at that event": async ({ n, stored, raw }, r) => {
    const k = pick(r, n);
    await raw.events.put(rawKey(STREAM, k), stored[k - 1]!.hash + editedBody(stored[k - 1]!));
    return { seq: k, problem: "hash" };
  },
  "a stored hash with one digit changed is found at that event": async ({ n, stored, raw }, r, s) => {
    const k = pick(r, n);
    const { hash } = stored[k - 1]!;
    const at = s % 64;
    const digit = hash[at] === "0" ? "1" : "0";
    await raw.events.put(
      rawKey(STREAM, k),
      hash.slice(0, at) + digit + hash.slice(at + 1) + (await raw.events.get(rawKey(STREAM, k)))!.slice(64),
    );
    return { seq: k, problem: "hash" };
  },
  "an edit re-hashed on its own breaks the link at the next event, or at the head for the last": async (
    { n, stored, raw },
    r,
  ) => {
    const k = pick(r, n);
    const body = editedBody(stored[k - 1]!);
    await raw.events.put(rawKey(STREAM, k), sha256(body) + body);
    return k < n ? { seq: k + 1, problem: "link" } : { seq: n, problem: "head" };
  },
  "a re-hashed value that is not JSON is found at that event": async ({ n, raw }, r) => {
    const k = pick(r, n);
    const body = '{"seq":' + String(k);
    await raw.events.put(rawKey(STREAM, k), sha256(body) + body);
    return { seq: k, problem: "unreadable" };
  },
  "a deleted event is found missing at its seq, or as truncation when it was the last": async ({ n, raw }, r) => {
    const k = pick(r, n);
    await raw.events.del(rawKey(STREAM, k));
    return k < n ? { seq: k, problem: "missing" } : { seq: n, problem: "truncated" };
  },
  "two events whose values were swapped are found at the first of them": async ({ n, raw }, r, s) => {
    fc.pre(n >= 2);
    const a = pick(r, n);
    const b = pick(s, n - 1);
    const [i, j] = b >= a ? [a, b + 1] : [b, a];
    const [vi, vj] = [await raw.events.get(rawKey(STREAM, i)), await raw.events.get(rawKey(STREAM, j))];
    await raw.events.batch([
      { type: "put", key: rawKey(STREAM, i), value: vj! },
      { type: "put", key: rawKey(STREAM, j), value: vi! },
    ]);
    return { seq: i, problem: "order" };
  },
  "an event copied from another stream to the same seq is found at that seq": async ({ n, other, raw }, r) => {
    const k = pick(r, n);
    const { hash, ...envelope } = other[k - 1]!;
    await raw.events.put(rawKey(STREAM, k), hash + canonical(envelope));
    return { seq: k, problem: "order" };
  },
  "a tail cut off while the head stays is found as truncation at the first missing seq": async ({ n, raw }, r) => {
    const cut = pick(r, n);
    for (let seq = n - cut + 1; seq <= n; seq++) await raw.events.del(rawKey(STREAM, seq));
    return { seq: n - cut + 1, problem: "truncated" };
  },
  "an event added after the head, correctly chained, is found at the seq after the head": async ({
    n,
    stored,
    raw,
  }) => {
    const envelope = { ...stored[n - 1]!, seq: n + 1, prev: stored[n - 1]!.hash } as Partial<StoredEvent>;
    delete envelope.hash;
    const body = canonical(envelope);
    await raw.events.put(rawKey(STREAM, n + 1), sha256(body) + body);
    return { seq: n + 1, problem: "head" };
  },
  "a head set back is found at the first event after it": async ({ n, stored, raw }, r) => {
    const back = pick(r, n);
    const seq = n - back;
    await raw.heads.put(STREAM, JSON.stringify({ seq, hash: seq === 0 ? GENESIS : stored[seq - 1]!.hash }));
    return { seq: seq + 1, problem: "head" };
  },
  "a head set forward is found as truncation after the last event": async ({ n, stored, raw }, r) => {
    await raw.heads.put(STREAM, JSON.stringify({ seq: n + 1 + (r % 3), hash: stored[n - 1]!.hash }));
    return { seq: n + 1, problem: "truncated" };
  },
  "a head with another hash is found at the last event": async ({ n, stored, raw }, r) => {
    const hash = n > 1 ? stored[r % (n - 1)]!.hash : "e".repeat(64);
    await raw.heads.put(STREAM, JSON.stringify({ seq: n, hash }));
    return { seq: n, problem: "head" };
  },
};

/** Verify cut into as many ranges as the line allows, however short. */
const inRanges = (ranges: number) => ({ ranges, minRangeEvents: 1 });

describe("verify finds any single tampering at the first bad seq, and reports the same read in any number of key ranges", () => {
  for (const [name, tamper] of Object.entries(tamperings)) {
    it(name, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.array(event, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 }),
          fc.nat(),
          fc.nat(),
          fc.integer({ min: 2, max: 6 }),
          async (batches, r, s, ranges) => {
            const dir = await tempDir();
            const store = await EventStore.open(dir, { sync: false });
            let stored: StoredEvent[];
            let other: StoredEvent[];
            try {
              stored = await appendAll(store, STREAM, batches);
              other = await appendAll(store, OTHER, [deployedBatch(1, stored.length, "p2")]);
              expect(await verifyStream(store, STREAM)).toMatchObject({ ok: true });
              expect(await verifyStream(store, STREAM, inRanges(ranges))).toEqual(await verifyStream(store, STREAM));
            } finally {
              await store.close();
            }
            const raw = await openRaw(dir);
            let expected: Expected;
            try {
              expected = await tamper({ n: stored.length, stored, other, raw }, r, s);
            } finally {
              await raw.db.close();
            }
            const reopened = await EventStore.open(dir);
            try {
              const result = await verifyStream(reopened, STREAM, inRanges(1));
              expect(result).toMatchObject({ ok: false, stream: STREAM, ...expected });
              expect(await verifyStream(reopened, STREAM, inRanges(ranges))).toEqual(result);
              expect(await verifyStream(reopened, OTHER)).toMatchObject({ ok: true, events: other.length });
            } finally {
              await reopened.close();
            }
          },
        ),
        { numRuns: 25 },
      );
    });
  }
});

describe("the limit of the chain alone", () => {
  it("does not catch a rewrite of an event together with every later event and the head; only the head hash differs", async () => {
    const dir = await tempDir();
    const store = await EventStore.open(dir);
    const stored = await appendAll(store, STREAM, [deployedBatch(1, 3), deployedBatch(4, 2)]);
    const kept = await store.storedHead(STREAM);
    await store.close();

    // Rewrite event 2 and re-seal 2..5 and the head, as someone with the files and the code could.
    const raw = await openRaw(dir);
    try {
      let prev = stored[0]!.hash;
      for (const original of stored.slice(1)) {
        const { hash: _hash, ...envelope } = original;
        const body = canonical({
          ...envelope,
          prev,
          data: original.seq === 2 ? { army: "a2", at: [0, 0] } : envelope.data,
        });
        prev = sha256(body);
        await raw.events.put(rawKey(STREAM, original.seq), prev + body);
      }
      await raw.heads.put(STREAM, JSON.stringify({ seq: 5, hash: prev }));
    } finally {
      await raw.db.close();
    }

    const reopened = await EventStore.open(dir);
    try {
      const result = await verifyStream(reopened, STREAM);
      expect(result).toMatchObject({ ok: true, events: 5 });
      expect(result.ok && result.headHash).not.toBe(kept.hash);
      expect((await reopened.readAll(STREAM))[1]!.data).toEqual({ army: "a2", at: [0, 0] });
    } finally {
      await reopened.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Verify reads a line in several key ranges at once: whatever the cuts, it reports what one walk from seq 1 reports.

describe("verify in concurrent ranges reports what one walk from seq 1 reports", () => {
  it("a branch of a branch, with one event of its line deleted or edited anywhere, is reported the same in any number of ranges", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }),
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 6 }),
        fc.nat(),
        fc.constantFrom("delete", "edit", "none"),
        fc.integer({ min: 2, max: 7 }),
        async (mainLength, firstFork, secondFork, firstOwn, secondOwn, victim, change, ranges) => {
          const dir = await tempDir();
          const store = await EventStore.open(dir, { sync: false });
          const forkA = 1 + (firstFork % mainLength);
          let line: StoredEvent[];
          try {
            const main = await appendAll(store, STREAM, [deployedBatch(1, mainLength)]);
            await store.createBranch("b1", STREAM, forkA);
            const ownA = firstOwn > 0 ? await store.append("b1", forkA, deployedBatch(100, firstOwn, "p2")) : [];
            const lineA = [...main.slice(0, forkA), ...ownA];
            const forkB = 1 + (secondFork % lineA.length);
            await store.createBranch("b2", "b1", forkB);
            const ownB = secondOwn > 0 ? await store.append("b2", forkB, deployedBatch(200, secondOwn, "p3")) : [];
            line = [...lineA.slice(0, forkB), ...ownB];
            expect(await verifyStream(store, "b2", inRanges(ranges))).toEqual({
              ok: true,
              stream: "b2",
              events: line.length,
              headHash: line.at(-1)!.hash,
            });
          } finally {
            await store.close();
          }
          const target = line[victim % line.length]!;
          const raw = await openRaw(dir);
          try {
            if (change === "delete") await raw.events.del(rawKey(target.stream, target.seq));
            if (change === "edit")
              await raw.events.put(rawKey(target.stream, target.seq), target.hash + editedBody(target));
          } finally {
            await raw.db.close();
          }
          const reopened = await EventStore.open(dir);
          try {
            const single = await verifyStream(reopened, "b2", inRanges(1));
            expect(single.ok).toBe(change === "none");
            expect(await verifyStream(reopened, "b2", inRanges(ranges))).toEqual(single);
            expect(await verifyStream(reopened, "b2")).toEqual(single);
          } finally {
            await reopened.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
