import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import type { Catalogue } from "../../events/common.js";
import { HOST } from "../../events/common.js";
import { toCurrent, type StoredEvent } from "../../events/index.js";
import { derivedView } from "../../projections/derived.js";
import { settledBattles } from "../../projections/settled-battles.js";
import type { CampaignState } from "../../projections/state.js";
import { sequenceRandomHex } from "../../src/client/prepare.js";
import { MemorySecrets } from "../../src/client/secrets.js";
import { Table } from "../../src/client/table.js";
import { Engine, type CommandHandler, type Outcome } from "../../src/engine/engine.js";
import type { Head } from "../../src/log/index.js";
import { MemoryEngine } from "../../src/engine/memory-engine.js";
import type { Refusal } from "../../src/rules/refusal.js";
import { checkSetupFile, setupCommands, type SetupFile } from "../../src/setup/setup-file.js";
import { viewState, type CampaignView } from "../../src/views/view.js";
import { battleSheet } from "../../src/sheet/battle-sheet.js";
import { tempDir } from "../support/tmp.js";
import { mergePatch, type GoldenCase } from "./format.js";
import { match } from "./match.js";

const root = dirname(fileURLToPath(import.meta.url));
const FIXED_CLOCK = () => new Date("2026-01-01T00:00:00.000Z");

/** Where a case runs: a command handler, and the head of the log (or what stands for it) to see that a refusal wrote nothing. */
interface Ground {
  handler: CommandHandler;
  head(campaign: string): Promise<Head>;
  close(): Promise<void>;
}

export interface CasePath {
  name: string;
  open(): Promise<Ground>;
}

/** The pure path: decided and folded in memory (MemoryEngine), no database. */
export const pure: CasePath = {
  name: "pure",
  open: async () => {
    const engine = new MemoryEngine(FIXED_CLOCK);
    return { handler: engine, head: (campaign) => engine.head(campaign), close: async () => {} };
  },
};

/** The whole engine on a LevelDB folder of its own. */
export const leveldb: CasePath = {
  name: "LevelDB",
  open: async () => {
    const engine = await Engine.open(await tempDir("epicwar-golden-"), { clock: FIXED_CLOCK });
    return { handler: engine, head: (campaign) => engine.store.head(campaign), close: () => engine.close() };
  },
};

type Step = { ok: true; seqs: number[] } | { ok: false; index: number; refusal: Refusal };

/** What came of a case on one path: two paths agree when their runs are equal. */
export interface GoldenRun {
  /** The set-up (when there is one), then each command: the seqs it wrote, or its refusal. */
  steps: Step[];
  /** Every event written, in order: the set-up's, the commands' and the chores'. */
  events: StoredEvent[];
  /** The state after the last step; none when the set-up file itself was refused. */
  state: CampaignState | undefined;
}

export interface Given {
  setup?: string;
  patch?: unknown;
}

export interface When {
  commands: unknown[];
  auto?: boolean;
  dice?: string;
}

/** The set-up file after its patch, checked as `epicwar new` checks it: a schema problem is a refusal of the set-up. */
function loadSetup(
  file: string,
  patch: unknown,
): { setup: SetupFile & { catalogue: Catalogue } } | { refusal: Refusal } {
  const path = resolve(root, file);
  const raw = mergePatch(JSON.parse(readFileSync(path, "utf8")), patch ?? {}) as Record<string, unknown>;
  if (typeof raw["catalogue"] === "string") {
    raw["catalogue"] = JSON.parse(readFileSync(resolve(dirname(path), raw["catalogue"]), "utf8"));
  }
  const checked = checkSetupFile(raw);
  if (!checked.ok) return { refusal: { kind: "field", field: checked.field, message: checked.message } };
  return { setup: checked.setup as SetupFile & { catalogue: Catalogue } };
}

const toStep = (outcome: Outcome): Step =>
  outcome.ok
    ? { ok: true, seqs: outcome.events.map((event) => event.seq) }
    : { ok: false, index: outcome.index, refusal: outcome.refusal };

/**
 * Plays a case on one path: the set-up as one batch, then each command as a player writes it, through a Table (so
 * prepared from secrets held in memory, kept before it is decided, the chores taken when `auto`). Every step before
 * the last must be accepted; a refused one must leave the log as it was.
 */
async function play(path: CasePath, given: Given, when: When, refusalExpected: boolean): Promise<GoldenRun> {
  const { commands } = when;
  const loaded = given.setup ? loadSetup(given.setup, given.patch) : undefined;
  if (loaded && "refusal" in loaded) {
    expect(refusalExpected && commands.length === 0, `set-up refused: ${JSON.stringify(loaded.refusal)}`).toBe(true);
    return { steps: [{ ok: false, index: 0, refusal: loaded.refusal }], events: [], state: undefined };
  }
  const setup = loaded?.setup;
  const campaign = setup?.campaign ?? String((commands[0] as { campaign?: unknown } | undefined)?.campaign ?? "golden");
  const ground = await path.open();
  try {
    const parties = new Set([HOST, ...(setup?.players.map((p) => p.id) ?? [])]);
    const table = new Table(ground.handler, campaign, {
      parties,
      secrets: new MemorySecrets(),
      random: sequenceRandomHex(when.dice ?? "golden"),
      chores: when.auto ?? false,
      // The corpus states the rules; its steps are given to the handler as written, unsigned (D2 has tests of its own).
      signing: false,
    });
    const run: GoldenRun = { steps: [], events: [], state: undefined };
    const written = (events: StoredEvent[]) => run.events.push(...events);
    if (setup) {
      const outcome = await ground.handler.execute(
        campaign,
        setupCommands(setup).map((step) => step.command),
      );
      run.steps.push(toStep(outcome));
      if (!outcome.ok && commands.length > 0) throw new Error(`set-up refused: ${JSON.stringify(outcome.refusal)}`);
      if (outcome.ok) {
        written(outcome.events);
        await table.takeChores(written);
      }
    }
    for (const [index, command] of commands.entries()) {
      const before = await ground.head(campaign);
      const outcome = await table.submit(command, written);
      run.steps.push(toStep(outcome));
      if (!outcome.ok && !(index === commands.length - 1 && refusalExpected)) {
        throw new Error(`command ${index} was refused: ${JSON.stringify(outcome.refusal)}`);
      }
      if (!outcome.ok)
        expect(await ground.head(campaign), "a refused command leaves the log as it was").toEqual(before);
    }
    run.state = await ground.handler.state(campaign);
    return run;
  } finally {
    await ground.close();
  }
}

function expectRefusal(step: Step | undefined, expected: { rule?: string; field?: string; message?: string }): void {
  expect(step?.ok, "the last step should have been refused").toBe(false);
  if (!step || step.ok) return;
  const { refusal } = step;
  if (expected.rule) expect(refusal).toMatchObject({ kind: "rule", rule: expected.rule });
  if (expected.field) expect(refusal).toMatchObject({ kind: "field", field: expected.field });
  if (expected.message) expect(refusal.message).toContain(expected.message);
}

/**
 * Given/When/Then over golden cases, in the style of emmett's DeciderSpecification:
 * `GoldenSpecification.for(pure)(given).when(when).then(expected)` plays the case on that path, checks what was
 * expected, and gives the run, for comparing paths.
 */
export const GoldenSpecification = {
  for(path: CasePath) {
    return (given: Given) => ({
      when: (when: When) => ({
        then: async (expected: GoldenCase["expect"]): Promise<GoldenRun> => {
          const run = await play(path, given, when, "refused" in expected);
          const last = run.steps.at(-1);
          if ("refused" in expected) {
            expectRefusal(last, expected.refused);
          } else {
            if (last && !last.ok) throw new Error(`refused: ${JSON.stringify(last.refusal)}`);
            if (expected.state === undefined && expected.derived === undefined)
              throw new Error("a state case expects `state`, `derived` or both");
            const seen = viewState(run.state!, expected.as, {
              state: run.state!,
              settled: settledBattles(run.events.map(toCurrent)),
            });
            if (expected.state !== undefined) {
              const mismatch = match(seen, expected.state);
              if (mismatch) throw new Error(`state does not match at ${mismatch.path || "(root)"}: ${mismatch.reason}`);
            }
            if (expected.derived !== undefined) {
              const mismatch = match(derivedWithSheets(seen), expected.derived);
              if (mismatch)
                throw new Error(`derived view does not match at ${mismatch.path || "(root)"}: ${mismatch.reason}`);
            }
          }
          return run;
        },
      }),
    });
  },
};

/** The derived view with every battle's sheet (K1-K5, src/sheet/battle-sheet.ts), as the viewer's view gives it. */
function derivedWithSheets(seen: CampaignView) {
  const sheets = Object.fromEntries(Object.keys(seen.battles).map((id) => [id, battleSheet(seen, id)]));
  return { ...derivedView(seen), sheets };
}

/** A case file played on one path, its expectation checked. */
export function playCase(path: CasePath, golden: GoldenCase): Promise<GoldenRun> {
  return GoldenSpecification.for(path)({ setup: golden.setup, patch: golden.patch })
    .when({ commands: golden.commands ?? [], auto: golden.auto, dice: golden.dice })
    .then(golden.expect);
}
