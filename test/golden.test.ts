import { sep } from "node:path";
import { describe, expect, it } from "vitest";
import { goldenCases, goldenSample } from "./golden/cases.js";
import { leveldb, playCase, pure } from "./golden/spec.js";

const cases = goldenCases();
const sample = new Set(goldenSample().map(({ path }) => path));

describe("golden rule cases", () => {
  it("the sample run on LevelDB too has every rule family, refusals and states", () => {
    const sampled = cases.filter(({ path }) => sample.has(path));
    expect(new Set(sampled.map(({ path }) => path.split(sep)[0]))).toEqual(
      new Set(cases.map(({ path }) => path.split(sep)[0])),
    );
    expect(sampled.some(({ golden }) => "refused" in golden.expect)).toBe(true);
    expect(sampled.some(({ golden }) => "state" in golden.expect)).toBe(true);
  });

  for (const { path, golden } of cases) {
    const onLevelDb = sample.has(path);
    // Every case runs pure (decided and folded in memory); a case of the sample runs on LevelDB too, and both must agree.
    it(`${golden.rule} ${golden.case} [${path}]${onLevelDb ? " (pure and on LevelDB)" : ""}`, async () => {
      const run = await playCase(pure, golden);
      if (onLevelDb)
        expect(await playCase(leveldb, golden), "the whole engine on LevelDB gives what the pure path gives").toEqual(
          run,
        );
    });
  }
});
