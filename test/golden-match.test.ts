import { describe, expect, it } from "vitest";
import type { GoldenCase } from "./golden/format.js";
import { match } from "./golden/match.js";
import { playCase, pure } from "./golden/spec.js";

/** The golden runner's expectations (test/golden/README.md, "Expectations"): for each kind, one that must pass, one that must fail. */

const state = {
  turn: 1,
  phase: "action",
  reserves: {},
  inTransit: [],
  ledger: { warChest: 0, reserves: { rhino: 2 } },
  formations: [
    { id: "line", units: { "rifle-stand": 6, carrier: 4 } },
    { id: "tanks", units: {} },
  ],
  at: [1, 0],
  hidden: null,
};

const kinds: { kind: string; passes: unknown; fails: unknown; path: string }[] = [
  {
    kind: "subset object",
    passes: { turn: 1, ledger: { reserves: { rhino: 2 } } },
    fails: { turn: 1, ledger: { warChest: 100 } },
    path: "ledger.warChest",
  },
  {
    kind: "subset object, a key missing",
    passes: { ledger: { warChest: 0 } },
    fails: { ledger: { supportFund: 0 } },
    path: "ledger.supportFund",
  },
  { kind: "empty object", passes: { reserves: {} }, fails: { ledger: { reserves: {} } }, path: "ledger.reserves" },
  { kind: "empty array", passes: { inTransit: [] }, fails: { formations: [] }, path: "formations" },
  {
    kind: "array by position",
    passes: { formations: [{ id: "line" }, { id: "tanks", units: {} }] },
    fails: { formations: [{ id: "tanks" }, { id: "line" }] },
    path: "formations[0].id",
  },
  {
    kind: "array by position, length",
    passes: { at: [1, 0] },
    fails: { formations: [{ id: "line" }] },
    path: "formations",
  },
  {
    kind: "$contains",
    passes: { formations: { $contains: [{ id: "tanks", units: {} }] } },
    fails: { formations: { $contains: [{ id: "tanks", units: { "battle-tank": 3 } }] } },
    path: "formations",
  },
  {
    kind: "$contains, each its own element",
    passes: { formations: { $contains: [{ id: "tanks" }, { id: "line" }] } },
    fails: { formations: { $contains: [{ id: "line" }, { units: { carrier: 4 } }] } },
    path: "formations",
  },
  {
    kind: "$exact",
    passes: { formations: [{ $exact: { id: "line", units: { carrier: 4, "rifle-stand": 6 } } }, { id: "tanks" }] },
    fails: { formations: [{ $exact: { id: "line", units: { carrier: 4 } } }, { id: "tanks" }] },
    path: "formations[0].units",
  },
  {
    kind: "$exact, a key more",
    passes: { formations: [{ id: "line" }, { $exact: { id: "tanks", units: {} } }] },
    fails: { formations: [{ $exact: { id: "line" } }, { id: "tanks" }] },
    path: "formations[0]",
  },
  {
    kind: "$exact, deep",
    passes: { ledger: { $exact: { warChest: 0, reserves: { rhino: 2 } } } },
    fails: { ledger: { $exact: { warChest: 0, reserves: {} } } },
    path: "ledger.reserves",
  },
  { kind: "scalar", passes: { phase: "action", hidden: null }, fails: { phase: "end" }, path: "phase" },
  { kind: "scalar null", passes: { hidden: null }, fails: { turn: null }, path: "turn" },
];

describe("golden expectation matcher", () => {
  for (const { kind, passes, fails, path } of kinds) {
    it(`${kind}: a matching expectation passes, a wrong one fails at ${path}`, () => {
      expect(match(state, passes)).toBeUndefined();
      expect(match(state, fails)?.path).toBe(path);
    });
  }

  it("an unknown $ operator is an error in the case", () => {
    expect(() => match(state, { formations: { $has: [] } })).toThrow(/unknown expectation operator \$has/);
  });
});

/** A runner check on the ready set-up (test/golden/fixtures/ready.json): nothing bought, no one in transit. */
const runnerCheck = (expected: GoldenCase["expect"]) =>
  playCase(pure, { rule: "T1", case: "runner check", setup: "fixtures/ready.json", expect: expected });

/** The runner itself, on the ready set-up. */
describe("golden runner uses the matcher", () => {
  const run = (expected: unknown) => runnerCheck({ state: expected });

  const runnerKinds: { kind: string; passes: unknown; fails: unknown; path: string }[] = [
    {
      kind: "subset object",
      passes: { turn: 1, armies: { r1: { at: [1, 0] } } },
      fails: { armies: { r1: { at: [1, 1] } } },
      path: "armies.r1.at[1]",
    },
    {
      kind: "empty object",
      passes: { ledgers: { red: { reserves: {} } } },
      fails: { armies: { r1: {} } },
      path: "armies.r1",
    },
    {
      kind: "empty array",
      passes: { ledgers: { red: { inTransit: [] } } },
      fails: { armies: { r1: { formations: [] } } },
      path: "armies.r1.formations",
    },
    {
      kind: "array by position",
      passes: { armies: { r1: { formations: [{ id: "line" }, { id: "armour" }, { id: "engine" }, { id: "tanks" }] } } },
      fails: { armies: { r1: { formations: [{ id: "line" }, { id: "armour" }, { id: "tanks" }, { id: "engine" }] } } },
      path: "armies.r1.formations[2].id",
    },
    {
      kind: "$contains",
      passes: { armies: { r1: { formations: { $contains: [{ id: "tanks", units: { "battle-tank": 3 } }] } } } },
      fails: { armies: { r1: { formations: { $contains: [{ id: "tanks", units: { "battle-tank": 4 } }] } } } },
      path: "armies.r1.formations",
    },
    {
      kind: "$exact",
      passes: { ledgers: { red: { reserves: { $exact: {} }, inTransit: { $exact: [] } } } },
      fails: { armies: { r1: { formations: [{ $exact: { id: "line" } }, {}, {}, {}] } } },
      path: "armies.r1.formations[0]",
    },
    { kind: "scalar", passes: { phase: "action", turnState: null }, fails: { phase: "end" }, path: "phase" },
  ];

  for (const { kind, passes, fails, path } of runnerKinds) {
    it(`${kind}: a case whose state matches passes, one whose state does not fails at ${path}`, async () => {
      await expect(run(passes)).resolves.toBeDefined();
      await expect(run(fails)).rejects.toThrow(`state does not match at ${path}:`);
    });
  }
});

/** The runner's `derived` expectation (projections/derived.ts): each side's CVP totals, each battle's engagement. */
describe("golden runner matches the derived view", () => {
  const run = (derived: unknown) => runnerCheck({ derived });

  it("a case whose derived view matches passes, one whose derived view does not fails at its path", async () => {
    await expect(run({ cvps: { red: { battles: 0, homeBase: 0 } }, engagements: {} })).resolves.toBeDefined();
    await expect(run({ cvps: { red: { total: 1 } } })).rejects.toThrow(
      "derived view does not match at cvps.red.total:",
    );
  });

  it("a state case that expects neither state nor derived is an error", async () => {
    await expect(run(undefined)).rejects.toThrow("expects `state`, `derived` or both");
  });
});
