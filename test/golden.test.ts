import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Catalogue } from "../events/common.js";
import { HOST } from "../events/common.js";
import { sequenceRandomHex } from "../src/client/prepare.js";
import { MemorySecrets } from "../src/client/secrets.js";
import { Table } from "../src/client/table.js";
import { Engine, type Outcome } from "../src/engine.js";
import type { Refusal } from "../src/rules/refusal.js";
import { checkSetupFile, setupCommands, type SetupFile } from "../src/setup-file.js";
import { viewState } from "../src/views.js";
import { mergePatch, type GoldenCase } from "./golden/format.js";
import { tempDir } from "./support/tmp.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "golden");
const FIXED_CLOCK = () => new Date("2026-01-01T00:00:00.000Z");

function caseFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "fixtures" ? [] : caseFiles(path);
    return entry.name.endsWith(".json") ? [path] : [];
  });
}

/** The set-up file after its patch, checked as `epicwar new` checks it: a schema problem is a refusal of the set-up. */
function loadSetup(file: string, patch: unknown): { setup: SetupFile & { catalogue: Catalogue } } | { refusal: Refusal } {
  const path = resolve(root, file);
  const raw = mergePatch(JSON.parse(readFileSync(path, "utf8")), patch ?? {}) as Record<string, unknown>;
  if (typeof raw["catalogue"] === "string") {
    raw["catalogue"] = JSON.parse(readFileSync(resolve(dirname(path), raw["catalogue"]), "utf8"));
  }
  const checked = checkSetupFile(raw);
  if (!checked.ok) return { refusal: { kind: "field", field: checked.field, message: checked.message } };
  return { setup: checked.setup as SetupFile & { catalogue: Catalogue } };
}

function expectRefusal(outcome: Outcome, expected: { rule?: string; field?: string; message?: string }): void {
  expect(outcome.ok, "the last step should have been refused").toBe(false);
  if (outcome.ok) return;
  const { refusal } = outcome;
  if (expected.rule) expect(refusal).toMatchObject({ kind: "rule", rule: expected.rule });
  if (expected.field) expect(refusal).toMatchObject({ kind: "field", field: expected.field });
  if (expected.message) expect(refusal.message).toContain(expected.message);
}


async function runCase(golden: GoldenCase): Promise<void> {
  const engine = await Engine.open(await tempDir("epicwar-golden-"), { clock: FIXED_CLOCK });
  try {
    const commands = [...(golden.commands ?? [])];
    const loaded = golden.setup ? loadSetup(golden.setup, golden.patch) : undefined;
    if (loaded && "refusal" in loaded) {
      expect("refused" in golden.expect && commands.length === 0, `set-up refused: ${JSON.stringify(loaded.refusal)}`).toBe(true);
      return expectRefusal({ ok: false, index: 0, refusal: loaded.refusal }, (golden.expect as { refused: object }).refused);
    }
    const setup = loaded?.setup;
    const campaign = setup?.campaign ?? String((commands[0] as { campaign?: unknown } | undefined)?.campaign ?? "golden");
    const parties = new Set([HOST, ...(setup?.players.map((p) => p.id) ?? [])]);
    const table = new Table(engine, campaign, { parties, secrets: new MemorySecrets(), random: sequenceRandomHex(golden.dice ?? "golden"), chores: golden.auto ?? false });
    let last: Outcome | undefined;
    if (setup) {
      last = await engine.create(setupCommands(setup).map((step) => step.command));
      if (!last.ok && commands.length > 0) throw new Error(`set-up refused: ${JSON.stringify(last.refusal)}`);
      if (last.ok) await table.takeChores();
    }
    for (const [index, command] of commands.entries()) {
      const before = await engine.store.head(campaign);
      last = await table.submit(command);
      if (!last.ok && !(index === commands.length - 1 && "refused" in golden.expect)) {
        throw new Error(`command ${index} was refused: ${JSON.stringify(last.refusal)}`);
      }
      if (!last.ok) expect(await engine.store.head(campaign), "a refused command leaves the log as it was").toEqual(before);
    }
    if ("refused" in golden.expect) {
      expectRefusal(last!, golden.expect.refused);
    } else {
      if (last && !last.ok) throw new Error(`refused: ${JSON.stringify(last.refusal)}`);
      const state = await engine.state(campaign);
      expect(golden.expect.as ? viewState(state, golden.expect.as) : state).toMatchObject(golden.expect.state as object);
    }
  } finally {
    await engine.close();
  }
}

describe("golden rule cases", () => {
  for (const file of caseFiles(root).sort()) {
    const golden = JSON.parse(readFileSync(file, "utf8")) as GoldenCase;
    it(`${golden.rule} ${golden.case} [${relative(root, file)}]`, () => runCase(golden));
  }
});
