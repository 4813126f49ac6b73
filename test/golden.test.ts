import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { GoldenCase } from "./golden/format.js";
import { leveldb, playCase, pure } from "./golden/spec.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "golden");

function caseFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "fixtures" ? [] : caseFiles(path);
    return entry.name.endsWith(".json") ? [path] : [];
  });
}

/**
 * The kind of a case, for the sample that also runs on LevelDB: its folder (rule family), what it expects (a rule's
 * refusal, a field's, a state, a state as one player sees it), whether the chores are taken, and whether it has
 * commands or only a set-up. The first case of each kind, in path order, is in the sample: a new folder brings its own.
 */
function kindOf(path: string, golden: GoldenCase): string {
  const { expect: expected } = golden;
  const outcome =
    "refused" in expected ? (expected.refused.rule ? "rule" : "field") : expected.as ? "state as a player" : "state";
  return [
    path.split(sep)[0],
    outcome,
    golden.auto ? "auto" : "manual",
    golden.commands?.length ? "commands" : "set-up",
  ].join(" ");
}

const cases = caseFiles(root)
  .sort()
  .map((file) => ({ path: relative(root, file), golden: JSON.parse(readFileSync(file, "utf8")) as GoldenCase }));
const kinds = new Set<string>();
const sample = new Set(
  cases
    .filter(({ path, golden }) => !kinds.has(kindOf(path, golden)) && kinds.add(kindOf(path, golden)))
    .map(({ path }) => path),
);

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
