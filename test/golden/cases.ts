import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { GoldenCase } from "./format.js";

const root = dirname(fileURLToPath(import.meta.url));

function caseFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "fixtures" ? [] : caseFiles(path);
    return entry.name.endsWith(".json") ? [path] : [];
  });
}

/**
 * The kind of a case, for the sample that also runs on a store: its folder (rule family), what it expects (a rule's
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

/** Every golden case, its path relative to test/golden, in path order. */
export function goldenCases(): Array<{ path: string; golden: GoldenCase }> {
  return caseFiles(root)
    .sort()
    .map((file) => ({ path: relative(root, file), golden: JSON.parse(readFileSync(file, "utf8")) as GoldenCase }));
}

/** The first case of each kind: what runs on LevelDB besides the pure path in the fast tier. */
export function goldenSample(): Array<{ path: string; golden: GoldenCase }> {
  const kinds = new Set<string>();
  return goldenCases().filter(
    ({ path, golden }) => !kinds.has(kindOf(path, golden)) && kinds.add(kindOf(path, golden)),
  );
}
