/**
 * The fast paths the replay and benchmark work put into the log's write and read paths give the same bytes and the
 * same events as the plain ways they replace.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { NewEvent } from "../events/index.js";
import { canonicalJson, EventStore, sealEvent } from "../src/log/index.js";
import { canonicalPlainJson, NotPlainDataError } from "../src/log/hash.js";
import { tempDir } from "./support/tmp.js";

describe("canonicalPlainJson", () => {
  it("writes any JSON value exactly as canonicalJson (RFC 8785) does", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalPlainJson(value)).toBe(canonicalJson(value));
      }),
      { numRuns: 500 },
    );
    for (const text of ["\ud800", "a\udc00b", "é\u0301", "\u2028\u2029", '"\\/\b\f\n\r\t', "😀", "__proto__"]) {
      expect(canonicalPlainJson({ [text]: text, b: [text] })).toBe(canonicalJson({ [text]: text, b: [text] }));
    }
    expect(canonicalPlainJson({ b: 1, a: undefined, c: [undefined, -0, 1e21, 0.1] })).toBe(
      canonicalJson({ b: 1, a: undefined, c: [undefined, -0, 1e21, 0.1] }),
    );
  });

  it("refuses what JSON cannot hold exactly", () => {
    class Point {
      x = 1;
    }
    for (const bad of [NaN, Infinity, -Infinity, 1n, Symbol("s"), () => 1, new Date(0), new Map(), new Point()]) {
      expect(() => canonicalPlainJson({ a: [bad] })).toThrow(NotPlainDataError);
    }
    expect(() => canonicalPlainJson(undefined)).toThrow(NotPlainDataError);
    expect(canonicalPlainJson(Object.assign(Object.create(null) as object, { z: 1, a: 2 }))).toBe('{"a":2,"z":1}');
  });
});

describe("the append path", () => {
  it("stores for any valid events the bytes sealEvent gives, and returns the events it stores", async () => {
    const id = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,11}$/);
    const text = fc.string({ unit: "binary", minLength: 1, maxLength: 20 });
    const event: fc.Arbitrary<NewEvent> = fc
      .record({ army: id, player: id, name: text, formation: id, x: fc.integer({ min: 0, max: 999 }), actor: id })
      .map(({ army, player, name, formation, x, actor }) => ({
        type: "ArmyRegistered",
        version: 1,
        at: "2026-01-01T00:00:00.000+05:30",
        actor,
        data: {
          player,
          army,
          name,
          formations: [{ units: { [formation]: x }, id: formation, formation }],
          commander: { unitType: formation, formation },
        },
      }));
    const dir = await tempDir();
    const store = await EventStore.open(dir, { sync: false });
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(event, { minLength: 1, maxLength: 5 }), async (batch) => {
          const head = await store.head("c1");
          const stored = await store.append("c1", head.seq, batch);
          let prev = head.hash;
          for (const [i, original] of batch.entries()) {
            const sealed = sealEvent("c1", head.seq + i + 1, prev, original);
            expect(stored[i]).toEqual(sealed.stored);
            // What append returns is what a read gives back, key order included: the stored canonical order.
            expect(Object.keys(stored[i]!.data as object)).toEqual(Object.keys(original.data as object).sort());
            expect(await store.valueAt("c1", head.seq + i + 1)).toBe(sealed.value);
            prev = sealed.stored.hash;
          }
          expect(await store.readAll("c1", head.seq + 1)).toEqual(stored.map((e) => JSON.parse(JSON.stringify(e))));
        }),
        { numRuns: 40 },
      );
    } finally {
      await store.close();
    }
  });
});
