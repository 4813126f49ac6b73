/**
 * The state Engine.execute answers: the live state, folded from the log (key order included), unless asked for the
 * state as decided, which is answered without waiting for that fold (a server's commands) and must be the same state.
 */
import { afterAll, describe, expect, it } from "vitest";
import { sequenceRandomHex } from "../src/client/prepare.js";
import { MemorySecrets } from "../src/client/secrets.js";
import { Table } from "../src/client/table.js";
import { canonicalJson } from "../src/crypto/commitments.js";
import { playCampaign } from "../src/demo/play.js";
import { Engine, type CommandHandler } from "../src/engine/engine.js";
import { toCurrent } from "../events/index.js";
import { evolveAll } from "../projections/campaign.js";
import { initialState } from "../projections/state.js";
import { examplePath } from "../src/setup/package-files.js";
import { setupCommands } from "../src/setup/setup-file.js";
import { loadSetupFile } from "../src/setup/setup-loader.js";
import { tempDir } from "./support/tmp.js";

const engines: Engine[] = [];
afterAll(async () => {
  for (const engine of engines) await engine.close();
});

/** Ashfall played to turn 3 by the scripted commanders on an Engine, `check` run on each accepted batch's outcome. */
async function played(stateAsDecided: boolean, check: (engine: Engine, state: unknown, line: string) => Promise<void>) {
  const engine = await Engine.open(await tempDir("epicwar-outcome-"));
  engines.push(engine);
  const setup = await loadSetupFile(examplePath("ashfall.setup.json"));
  const created = await engine.create(setupCommands(setup).map((step) => step.command));
  if (!created.ok) throw new Error(JSON.stringify(created.refusal));
  let checked = 0;
  const checking: CommandHandler = {
    state: (line) => engine.state(line),
    execute: async (line, inputs) => {
      const outcome = await engine.execute(line, inputs, { stateAsDecided });
      if (outcome.ok) {
        await check(engine, outcome.state, line);
        checked++;
      }
      return outcome;
    },
  };
  const table = new Table(checking, setup.campaign, {
    secrets: new MemorySecrets(),
    random: sequenceRandomHex("engine-outcome"),
  });
  expect((await playCampaign(table, () => {}, 2)).turn).toBe(3);
  return checked;
}

describe("the state an accepted batch answers", () => {
  it("is the live state, the same JSON text as the log's replay, after every command of a campaign", async () => {
    const checked = await played(false, async (engine, state, line) => {
      const replayed = evolveAll(initialState, (await engine.store.readAll(line)).map(toCurrent));
      expect(JSON.stringify(state)).toBe(JSON.stringify(replayed));
    });
    expect(checked).toBeGreaterThan(50);
  });

  it("as decided, is the state the live state then folds from the log, its keys in another order at most", async () => {
    let reordered = 0;
    const checked = await played(true, async (engine, state, line) => {
      const live = await engine.state(line);
      expect(canonicalJson(state)).toBe(canonicalJson(live));
      if (JSON.stringify(state) !== JSON.stringify(live)) reordered++;
    });
    expect(checked).toBeGreaterThan(50);
    // Why it is not for writing out: a battle's conditions, say, stand in the order the rules made them.
    expect(reordered).toBeGreaterThan(0);
  });
});
