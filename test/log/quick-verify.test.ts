import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { StoredEvent } from "../../events/index.js";
import { auditStream } from "../../replays/audit-load.js";
import { checkChainBatch } from "../../src/log/chain-batch.js";
import { EventStore, StoreOpenError, verifyStream } from "../../src/log/index.js";
import { splitLine } from "../../src/log/line-ranges.js";
import { chainHolds } from "../../src/log/verify-parallel.js";
import { tempDir } from "../support/tmp.js";
import { bodyOf, canonical, deployedBatch, fill, GENESIS, openRaw, rawKey, sha256 } from "./helpers.js";

// The quick check (chainHolds, checkChainBatch) reads each body's link, seq and stream from the canonical ending of its
// envelope instead of parsing it. These tests pin what it must never do: call a line intact that the exact walk
// (verify with quick: false) finds wrong, when every body is JSON.

const STREAM = "c1";

async function entriesOf(store: EventStore, stream: string): Promise<Array<[string, string]>> {
  const all: Array<[string, string]> = [];
  for await (const batch of store.rawEntries(stream)) all.push(...batch);
  return all;
}

/** STREAM's whole line (a campaign, no branch) up to `head`, cut into `count` ranges of `size` events. */
const lineRanges = (head: number, count: number, size: number) =>
  splitLine([{ stream: STREAM, from: 1, to: Infinity }], head, count, size);

/** The stored value of an event whose envelope is `envelope` (without its hash). */
const sealed = (envelope: Omit<StoredEvent, "hash">) => {
  const body = canonical(envelope);
  return sha256(body) + body;
};

describe("checkChainBatch: one batch of stored entries, without parsing a body", () => {
  it("holds for an untouched batch, giving its first link and its last hash", async () => {
    const store = await EventStore.open(await tempDir(), { sync: false });
    try {
      const stored = await fill(store, STREAM, 20, 7);
      const entries = await entriesOf(store, STREAM);
      const batch = { stream: STREAM, keyPrefix: store.storedKeyPrefix(STREAM), from: 1, entries };
      expect(checkChainBatch(batch)).toEqual({ firstPrev: GENESIS, lastHash: stored[19]!.hash });
      expect(checkChainBatch({ ...batch, from: 6, entries: entries.slice(5) })).toEqual({
        firstPrev: stored[4]!.hash,
        lastHash: stored[19]!.hash,
      });
    } finally {
      await store.close();
    }
  });

  it("does not hold for a changed key, value, hash, link, seq, stream or ending, nor for an empty batch", async () => {
    const store = await EventStore.open(await tempDir(), { sync: false });
    try {
      const stored = await fill(store, STREAM, 12, 5);
      const entries = await entriesOf(store, STREAM);
      const prefix = store.storedKeyPrefix(STREAM);
      const check = (changed: Array<[string, string]>, from = 1) =>
        checkChainBatch({ stream: STREAM, keyPrefix: prefix, from, entries: changed });
      const at = (index: number, entry: [string, string]) =>
        entries.map((original, i) => (i === index ? entry : original));
      const envelope = (index: number): Omit<StoredEvent, "hash"> => {
        const { hash: _hash, ...rest } = stored[index]!;
        return rest;
      };
      const [key5, value5] = entries[4]!;
      const cases: Record<string, Array<[string, string]>> = {
        "a key that is not digits, in its place": at(4, [`${prefix}00000000000x`, value5]),
        "a missing key": entries.filter((_, i) => i !== 4),
        "a hash digit": at(4, [key5, (value5[0] === "0" ? "1" : "0") + value5.slice(1)]),
        "an edit re-hashed on its own": at(4, [key5, sealed({ ...envelope(4), data: { army: "x", at: [0, 0] } })]),
        "another seq in the body": at(4, [key5, sealed({ ...envelope(4), seq: 6 })]),
        "another stream in the body": at(4, [key5, sealed({ ...envelope(4), stream: "c2" })]),
        "another link in the body": at(4, [key5, sealed({ ...envelope(4), prev: stored[2]!.hash })]),
        "a space after the envelope": at(4, [key5, sha256(`${bodyOf(stored[4]!)} `) + `${bodyOf(stored[4]!)} `]),
      };
      for (const [name, changed] of Object.entries(cases)) expect(check(changed), name).toBeUndefined();
      expect(check(entries, 2), "a batch said to start at another seq").toBeUndefined();
      expect(check([]), "an empty batch").toBeUndefined();
    } finally {
      await store.close();
    }
  });
});

/**
 * Rewrites of one body that keep it JSON, each re-sealed with every later event and the head, so that only what the
 * body says decides: the exact walk then passes or fails on that body alone, and the quick check must never pass
 * where the exact walk fails.
 */
const rewrites: Record<string, (envelope: Omit<StoredEvent, "hash">, body: string) => string> = {
  "the canonical body again": (_, body) => body,
  "the seq written as a decimal": (envelope, body) =>
    body.replace(`"seq":${envelope.seq},`, `"seq":${envelope.seq}.0,`),
  "white space around the envelope": (_, body) => ` ${body}\n`,
  "a wrong link, with the right ending copied into the data": (envelope) =>
    canonical({
      ...envelope,
      prev: "f".repeat(64),
      data: {
        copy: {
          prev: envelope.prev,
          seq: envelope.seq,
          stream: envelope.stream,
          type: envelope.type,
          version: envelope.version,
        },
      },
    }),
  "a wrong link written first, then the right one": (envelope, body) =>
    body.replace(`"prev":`, `"prev":"${"e".repeat(64)}","prev":`),
  "the right link written first, then a wrong one after the stream": (envelope, body) =>
    body.replace(`,"type":`, `,"prev":"${"e".repeat(64)}","type":`),
  "another stream after the ending's stream": (_, body) => body.replace(`,"type":`, `,"stream":"c2","type":`),
  "a type the catalogue does not spell": (envelope, body) =>
    body.replace(`"type":"${envelope.type}"`, `"type":"${envelope.type}2"`),
};

describe("the quick check never passes a line the exact walk fails, when every body is JSON", () => {
  for (const [name, rewrite] of Object.entries(rewrites)) {
    it(name, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 30 }),
          fc.nat(),
          fc.integer({ min: 1, max: 8 }),
          async (length, pick, rangeEvents) => {
            const dir = await tempDir();
            const store = await EventStore.open(dir, { sync: false });
            let stored: StoredEvent[];
            try {
              stored = await fill(store, STREAM, length, 4);
            } finally {
              await store.close();
            }
            const victim = pick % length;
            const raw = await openRaw(dir);
            try {
              let prev = victim === 0 ? GENESIS : stored[victim - 1]!.hash;
              for (const original of stored.slice(victim)) {
                const { hash: _hash, ...envelope } = original;
                const moved = { ...envelope, prev };
                const body = original === stored[victim] ? rewrite(moved, canonical(moved)) : canonical(moved);
                prev = sha256(body);
                await raw.events.put(rawKey(STREAM, original.seq), prev + body);
              }
              await raw.heads.put(STREAM, JSON.stringify({ seq: length, hash: prev }));
            } finally {
              await raw.db.close();
            }
            const reopened = await EventStore.open(dir);
            try {
              const exact = await verifyStream(reopened, STREAM, { quick: false });
              const head = await reopened.storedHead(STREAM);
              const ranges = lineRanges(head.seq, Math.ceil(head.seq / rangeEvents), rangeEvents);
              const quick = await chainHolds(reopened, ranges, [undefined], head, { checkers: 0, thisThread: true });
              if (quick.holds) expect(exact).toMatchObject({ ok: true });
              expect(await verifyStream(reopened, STREAM, { quickRangeEvents: rangeEvents })).toEqual(exact);
            } finally {
              await reopened.close();
            }
          },
        ),
        { numRuns: 20 },
      );
    });
  }
});

describe("checker threads", () => {
  it("check the ranges of a line in worker threads through the store's handle, and find a tampering there", async () => {
    const dir = await tempDir();
    const store = await EventStore.open(dir, { sync: false });
    let stored: StoredEvent[];
    try {
      stored = await fill(store, STREAM, 300, 50);
      const head = await store.storedHead(STREAM);
      const ranges = lineRanges(head.seq, 6, 50);
      expect(await chainHolds(store, ranges, [undefined], head, { checkers: 2, thisThread: false })).toEqual({
        holds: true,
        rangesByCheckers: 6,
      });
    } finally {
      await store.close();
    }
    const raw = await openRaw(dir);
    try {
      const { hash: _hash, ...envelope } = stored[199]!;
      await raw.events.put(rawKey(STREAM, 200), sealed({ ...envelope, data: { army: "x", at: [1, 1] } }));
    } finally {
      await raw.db.close();
    }
    const reopened = await EventStore.open(dir);
    try {
      const head = await reopened.storedHead(STREAM);
      const ranges = lineRanges(head.seq, 6, 50);
      expect((await chainHolds(reopened, ranges, [undefined], head, { checkers: 2, thisThread: false })).holds).toBe(
        false,
      );
      const threaded = { checkers: 2, minCheckerEvents: 0, thisThread: false, quickRangeEvents: 50 };
      expect(await verifyStream(reopened, STREAM, threaded)).toEqual(
        await verifyStream(reopened, STREAM, { quick: false }),
      );
      expect(await verifyStream(reopened, STREAM, threaded)).toMatchObject({ ok: false, seq: 201, problem: "link" });
    } finally {
      await reopened.close();
    }
  });

  it("check a branch's line, parent's part and fork included", async () => {
    const store = await EventStore.open(await tempDir(), { sync: false });
    try {
      await fill(store, STREAM, 120, 40);
      await store.createBranch("b1", STREAM, 70);
      const own = await store.append("b1", 70, deployedBatch(500, 40, "p2"));
      const segments = await store.line("b1");
      const head = await store.storedHead("b1");
      const forkHashes = [undefined, (await store.branch("b1"))!.forkHash];
      const ranges = splitLine(segments, head.seq, 5, 25);
      const threads = { checkers: 1, thisThread: false };
      expect(await chainHolds(store, ranges, forkHashes, head, threads)).toEqual({
        holds: true,
        rangesByCheckers: ranges.length,
      });
      expect(
        (await chainHolds(store, ranges, [undefined, "0".repeat(64)], head, threads)).holds,
        "another fork hash",
      ).toBe(false);
      const threaded = { checkers: 1, minCheckerEvents: 0, thisThread: false, quickRangeEvents: 25 };
      expect(await verifyStream(store, "b1", threaded)).toEqual({
        ok: true,
        stream: "b1",
        events: 110,
        headHash: own.at(-1)!.hash,
      });
    } finally {
      await store.close();
    }
  });
});

describe("what verify proves, and what it leaves to the audit", () => {
  it("passes a body that is not JSON but hashes and links, which only a forger re-sealing the rest could write; the audit reports it unreadable", async () => {
    const dir = await tempDir();
    const store = await EventStore.open(dir, { sync: false });
    let stored: StoredEvent[];
    try {
      stored = await fill(store, STREAM, 4, 4);
    } finally {
      await store.close();
    }
    const raw = await openRaw(dir);
    try {
      // Event 4, the last: its body keeps the envelope's ending after something that is not JSON.
      const { hash: _hash, ...envelope } = stored[3]!;
      const body = canonical(envelope).replace(/^\{"actor"/, '{"actor" oops');
      await raw.events.put(rawKey(STREAM, 4), sha256(body) + body);
      await raw.heads.put(STREAM, JSON.stringify({ seq: 4, hash: sha256(body) }));
    } finally {
      await raw.db.close();
    }
    const reopened = await EventStore.open(dir);
    try {
      expect(await verifyStream(reopened, STREAM)).toMatchObject({ ok: true, events: 4 });
      expect(await verifyStream(reopened, STREAM, { quick: false })).toMatchObject({
        ok: false,
        seq: 4,
        problem: "unreadable",
      });
      // The signature check (epicwar verify) parses every body: it names the same event, as the exact walk does.
      expect(await verifyStream(reopened, STREAM, { signatures: true })).toMatchObject({
        ok: false,
        seq: 4,
        problem: "unreadable",
      });
      const report = await auditStream(reopened, STREAM);
      expect(report.findings.map((finding) => finding.verdict)).toContain("event cannot be read");
    } finally {
      await reopened.close();
    }
  });
});

describe("verify while appends go on in the same process", () => {
  it("reports the chain as it was when verify began, never the events appended meanwhile as events after the head", async () => {
    const store = await EventStore.open(await tempDir(), { sync: false });
    try {
      const stored = await fill(store, STREAM, 3_000, 500);
      for (const options of [{}, { quick: false }, { checkers: 1, minCheckerEvents: 0, quickRangeEvents: 500 }]) {
        const before = (await store.storedHead(STREAM)).seq;
        const appending = (async () => {
          for (let i = 0; i < 20; i++)
            stored.push(...(await store.append(STREAM, stored.length, deployedBatch(stored.length + 1, 25))));
        })();
        const result = await verifyStream(store, STREAM, options);
        await appending;
        expect(result, JSON.stringify(options)).toMatchObject({ ok: true });
        if (result.ok) {
          expect(result.events).toBeGreaterThanOrEqual(before);
          expect(result.headHash).toBe(stored[result.events - 1]!.hash);
        }
      }
      expect(await verifyStream(store, STREAM)).toEqual({
        ok: true,
        stream: STREAM,
        events: stored.length,
        headHash: stored.at(-1)!.hash,
      });
    } finally {
      await store.close();
    }
  });
});

describe("one store per folder in a process", () => {
  it("refuses to open a folder this process already has open, and opens it again once closed", async () => {
    const dir = await tempDir();
    const store = await EventStore.open(dir);
    await expect(EventStore.open(dir)).rejects.toThrow(StoreOpenError);
    await expect(EventStore.open(`${dir}/.`)).rejects.toThrow(/already open in this process/);
    await store.close();
    const again = await EventStore.open(dir);
    await again.close();
  });
});
