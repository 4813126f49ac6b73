/**
 * How a client whose command's answer was lost tells from the log whether it was written (src/client/landed.ts): the
 * table of the events each command's decision begins with is checked against every decision of the golden corpus.
 */
import { describe, expect, it } from "vitest";
import type { StoredEvent } from "../../events/index.js";
import { firstEventsOf, landed } from "../../src/client/landed.js";
import type { CommandHandler } from "../../src/engine/engine.js";
import { MemoryEngine } from "../../src/engine/memory-engine.js";
import { goldenCases } from "../golden/cases.js";
import { playCase, type CasePath } from "../golden/spec.js";

describe("whether a command whose answer was lost was written", () => {
  it("every command the golden corpus writes begins with an event the table lists for it, by its actor", async () => {
    const written: Array<{ command: { type: string; actor: string }; first: StoredEvent }> = [];
    const recording: CasePath = {
      name: "recorded",
      open: async () => {
        const engine = new MemoryEngine(() => new Date("2026-01-01T00:00:00.000Z"));
        const handler: CommandHandler = {
          state: (campaign) => engine.state(campaign),
          execute: async (campaign, inputs) => {
            const outcome = await engine.execute(campaign, inputs);
            if (outcome.ok && outcome.events[0])
              written.push({ command: inputs[0] as { type: string; actor: string }, first: outcome.events[0] });
            return outcome;
          },
        };
        return { handler, head: (campaign) => engine.head(campaign), close: async () => {} };
      },
    };
    for (const { golden } of goldenCases()) await playCase(recording, golden);
    const types = new Set(written.map(({ command }) => command.type));
    // The corpus decides every kind of command the players, the organiser and the host give.
    expect(types.size).toBeGreaterThan(45);
    for (const { command, first } of written) {
      expect(firstEventsOf(command.type), command.type).toContain(first.type);
      expect(first.actor).toBe(command.actor);
    }
  }, 120_000);

  const event = (type: string, actor: string, data: object) => ({ stream: "s", seq: 8, type, actor, data }) as never;
  const commit = { actor: "concord", type: "CommitSeed", seedHash: "ab".repeat(32) };

  it("finds the command when the first event after its seq is its own", () => {
    const written = [
      event("PlayerSeedCommitted", "concord", { turn: 1, player: "concord", seedHash: "ab".repeat(32) }),
    ];
    expect(landed([commit], written)).toBe(true);
  });

  it("does not take another seat's event, another command's, or the same command with other fields for it", () => {
    const data = { turn: 1, player: "concord", seedHash: "ab".repeat(32) };
    expect(landed([commit], [])).toBe(false);
    expect(landed([commit], [event("PlayerSeedCommitted", "horde", { ...data, player: "horde" })])).toBe(false);
    expect(landed([commit], [event("PlayerSeedGiven", "concord", { turn: 1, player: "concord", seed: "cd" })])).toBe(
      false,
    );
    expect(landed([commit], [event("PlayerSeedCommitted", "concord", { ...data, seedHash: "cd".repeat(32) })])).toBe(
      false,
    );
    const finish = { actor: "concord", type: "FinishEndPhase" };
    expect(landed([finish], [event("StallClaimed", "concord", {})])).toBe(false);
    expect(landed([finish], [event("EndPhaseFinished", "concord", { turn: 1, player: "concord" })])).toBe(true);
  });
});
