/**
 * What a Table reads of its command handler around a command: a table that takes no chores (the web page's table for
 * the player's own commands) reads nothing more once its command is answered, so that a slow read never holds the
 * command's answer; one that takes chores reads the state its chores left.
 */
import { describe, expect, it } from "vitest";
import { MemorySecrets } from "../src/client/secrets.js";
import { Table } from "../src/client/table.js";
import { MemoryEngine } from "../src/engine/memory-engine.js";
import type { CommandHandler } from "../src/engine/engine.js";
import { examplePath } from "../src/setup/package-files.js";
import { setupCommands } from "../src/setup/setup-file.js";
import { loadSetupFile } from "../src/setup/setup-loader.js";

async function ashfall() {
  const engine = new MemoryEngine(() => new Date("2026-03-01T12:00:00Z"));
  const setup = await loadSetupFile(examplePath("ashfall.setup.json"));
  const created = await engine.execute(
    setup.campaign,
    setupCommands(setup).map((step) => step.command),
  );
  if (!created.ok) throw new Error(created.refusal.message);
  /** Every read and command, in order, as the table made them. */
  const calls: string[] = [];
  const counted: CommandHandler = {
    state: (campaign) => {
      calls.push("state");
      return engine.state(campaign);
    },
    execute: async (campaign, inputs) => {
      const outcome = await engine.execute(campaign, inputs);
      calls.push("execute");
      return outcome;
    },
  };
  return { campaign: setup.campaign, counted, calls };
}

describe("a Table's reads around a command", () => {
  it("reads nothing after its command's answer when it takes no chores", async () => {
    const { campaign, counted, calls } = await ashfall();
    const table = new Table(counted, campaign, {
      parties: new Set(["concord"]),
      secrets: new MemorySecrets(),
      chores: false,
    });
    const outcome = await table.submit({ actor: "concord", type: "CommitSeed" });
    expect(outcome.ok).toBe(true);
    expect(calls.at(-1)).toBe("execute");
  });

  it("reads the state its chores left when it takes them", async () => {
    const { campaign, counted, calls } = await ashfall();
    const table = new Table(counted, campaign, { parties: new Set(["concord"]), secrets: new MemorySecrets() });
    expect((await table.submit({ actor: "concord", type: "CommitSeed" })).ok).toBe(true);
    expect(calls.at(-1)).toBe("state");
  });
});
