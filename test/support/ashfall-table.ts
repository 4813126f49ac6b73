import type { CampaignState } from "../../projections/state.js";
import { fileURLToPath } from "node:url";
import { sequenceRandomHex } from "../../src/client/prepare.js";
import { MemorySecrets } from "../../src/client/secrets.js";
import { Table } from "../../src/client/table.js";
import { nextDecision } from "../../src/demo/play.js";
import { MemoryEngine } from "../../src/engine/memory-engine.js";
import { setupCommands } from "../../src/setup/setup-file.js";
import { loadSetupFile } from "../../src/setup/setup-loader.js";

const ASHFALL = fileURLToPath(new URL("../../examples/ashfall.setup.json", import.meta.url));

/** Ashfall made on an engine in memory, with a Table for every party, its secrets in `secrets`, its draws from `seed`. */
export async function ashfallTable(seed: string, secrets: MemorySecrets = new MemorySecrets()): Promise<Table> {
  const engine = new MemoryEngine(() => new Date("2026-03-01T12:00:00Z"));
  const setup = await loadSetupFile(ASHFALL);
  const created = await engine.execute(
    setup.campaign,
    setupCommands(setup).map((step) => step.command),
  );
  if (!created.ok) throw new Error(JSON.stringify(created.refusal));
  return new Table(engine, setup.campaign, { secrets, random: sequenceRandomHex(seed) });
}

/** Ashfall played by the scripted commanders, its draws from `seed`, to the first moment `wanted` holds. */
export async function ashfallPlayedUntil(
  seed: string,
  wanted: (state: CampaignState) => boolean,
): Promise<CampaignState> {
  const table = await ashfallTable(seed);
  await table.takeChores();
  for (let step = 0; step < 2000; step++) {
    const state = await table.state();
    if (wanted(state)) return state;
    const outcome = await table.submit(nextDecision(state));
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.refusal));
  }
  throw new Error("Ashfall never came to the moment wanted");
}
