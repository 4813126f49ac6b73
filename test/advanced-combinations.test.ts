/**
 * The advanced rules are chosen one by one ("cherry-picked"), so every combination must play: either bundled
 * campaign (examples/emberfall.setup.json, examples/ashfall.setup.json) with a random subset of A1-A8 on, played by
 * the demo's commanders for a few turns on a real LevelDB. Every command is accepted, nobody is found cheating, the
 * audit recomputes everything, and a replay of the log gives the live state.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AdvancedRules } from "../events/common.js";
import { toCurrent } from "../events/index.js";
import { replay } from "../projections/campaign.js";
import { auditCampaign } from "../replays/audit.js";
import { loadAuditInput } from "../replays/audit-load.js";
import { renderAudit } from "../replays/audit-text.js";
import { sequenceRandomHex } from "../src/client/prepare.js";
import { MemorySecrets } from "../src/client/secrets.js";
import { Table } from "../src/client/table.js";
import { playCampaign } from "../src/demo/play.js";
import { Engine } from "../src/engine/engine.js";
import { setupCommands } from "../src/setup/setup-file.js";
import { loadSetupFile } from "../src/setup/setup-loader.js";
import { tempDir } from "./support/tmp.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLOCK = () => new Date("2026-01-01T00:00:00.000Z");
const TURNS = 3;
const RULES: ReadonlyArray<keyof AdvancedRules> = [
  "mobilised",
  "fogOfWar",
  "scouting",
  "terrainCosts",
  "homeBase",
  "commanders",
  "offTableSupport",
  "warChest",
];

const allAs = (on: boolean): AdvancedRules => Object.fromEntries(RULES.map((rule) => [rule, on]));

async function playWith(campaign: string, advanced: AdvancedRules, seed: number): Promise<void> {
  const base = await loadSetupFile(join(ROOT, "examples", `${campaign}.setup.json`));
  const setup = { ...base, options: { ...base.options, advanced } };
  const engine = await Engine.open(await tempDir("epicwar-combinations-"), { clock: CLOCK });
  try {
    const created = await engine.create(setupCommands(setup).map((step) => step.command));
    expect(created.ok, JSON.stringify(created)).toBe(true);
    const table = new Table(engine, setup.campaign, {
      secrets: new MemorySecrets(),
      random: sequenceRandomHex(`combinations-${seed}`),
    });
    // playCampaign throws on the first refused command: every command the commanders give must be legal.
    const live = await playCampaign(table, () => {}, TURNS);
    expect(live.status === "finished" || live.turn > TURNS, `stopped in turn ${live.turn}`).toBe(true);
    expect(live.violations).toEqual([]);
    const events = await engine.store.readAll(setup.campaign);
    expect(JSON.stringify(replay(events.map(toCurrent)))).toBe(JSON.stringify(await engine.state(setup.campaign)));
    const report = auditCampaign(await loadAuditInput(engine.store, setup.campaign));
    expect(report.findings, renderAudit(report).join("\n")).toEqual([]);
  } finally {
    await engine.close();
  }
}

describe("A1-A8 cherry-picked", () => {
  it("A1 A2 A3 A4 A5 A6 A7 A8 any combination of the advanced rules plays legally, audits clean and replays to the live state", async () => {
    const rules = fc.record(
      Object.fromEntries(RULES.map((rule) => [rule, fc.boolean()])) as Record<
        keyof AdvancedRules,
        fc.Arbitrary<boolean>
      >,
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("emberfall", "ashfall"), rules, fc.nat(1000), (campaign, advanced, seed) =>
        playWith(campaign, advanced, seed),
      ),
      {
        numRuns: 30,
        examples: [
          ["emberfall", allAs(true), 1],
          ["emberfall", allAs(false), 2],
          ["ashfall", allAs(true), 3],
        ],
      },
    );
  }, 600_000);
});
