import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toCurrent } from "../events/index.js";
import { evolve, evolveAll, replay } from "../projections/campaign.js";
import { initialState } from "../projections/state.js";
import { decide } from "../src/engine/decide.js";
import { Engine } from "../src/engine/engine.js";
import { checkCommand } from "../src/engine/command-schemas.js";
import { setupCommands } from "../src/setup/setup-file.js";
import { goldenSetup } from "./support/fixtures.js";
import { tempDir } from "./support/tmp.js";

/** The time the commands here are decided at: none of their rules reads it (only O2's deadline does). */
const DECIDED_AT = "2026-01-01T00:00:00.000Z";

const setup = goldenSetup("blank.json");
const formationIds = Object.keys(setup.catalogue.formations);
const players = setup.players.map((p) => p.id);
const square = fc.tuple(
  fc.integer({ min: 0, max: setup.map.width - 1 }),
  fc.integer({ min: 0, max: setup.map.height - 1 }),
);

/** Random set-up commands: many are refused by the rules, the accepted ones make up the log. */
const setupCommand = fc.oneof(
  fc.record({ type: fc.constant("PlaceHomeBase"), actor: fc.constantFrom(...players), at: square }),
  fc.record({ type: fc.constant("PlaceObjective"), actor: fc.constantFrom(...players), at: square }),
  fc.record({
    type: fc.constant("DeployArmy"),
    actor: fc.constantFrom(...players),
    army: fc.constantFrom("a0", "a1", "a2", "a3"),
    at: square,
  }),
  fc
    .record({
      actor: fc.constantFrom(...players),
      army: fc.constantFrom("a0", "a1", "a2", "a3"),
      formations: fc.uniqueArray(fc.constantFrom(...formationIds), { minLength: 1, maxLength: 4 }),
    })
    .map(({ actor, army, formations }) => ({
      type: "RegisterArmy",
      actor,
      army,
      name: `Army ${army}`,
      formations: formations.map((formation, i) => ({ id: `f${i}`, formation })),
      commander: { formation: "f0", unitType: Object.keys(setup.catalogue.formations[formations[0]!]!.units)[0]! },
    })),
);

describe("replay", () => {
  it("any sequence of valid appends replays from LevelDB to the same state as folding them in memory", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(setupCommand, { maxLength: 25 }), async (commands) => {
        const dir = await tempDir();
        const engine = await Engine.open(dir, { sync: false, clock: () => new Date("2026-01-01T00:00:00Z") });
        let memory = initialState;
        const create = setupCommands({ ...setup, armies: [], objectives: [], homeBases: {}, start: false })[0]!.command;
        for (const input of [create, ...commands]) {
          const checked = checkCommand(input);
          if (!checked.ok) continue;
          const decision = decide(memory, checked.command, DECIDED_AT);
          if (!decision.ok) continue;
          let seq = memory.seq;
          memory = evolveAll(
            memory,
            decision.events.map((event) => ({ ...event, seq: ++seq })),
          );
          const outcome = await engine.execute(setup.campaign, [input]);
          expect(outcome.ok).toBe(true);
        }
        await engine.close();

        const reopened = await Engine.open(dir, { createIfMissing: false });
        const fromLog = await reopened.state(setup.campaign);
        const stored = (await reopened.store.readAll(setup.campaign)).map(toCurrent);
        await reopened.close();
        expect(fromLog).toEqual(memory);
        expect(replay(stored)).toEqual(memory);
        expect(stored.reduce(evolve, initialState)).toEqual(memory);
      }),
      { numRuns: 30 },
    );
  });
});
