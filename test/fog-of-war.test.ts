import { afterEach, describe, expect, it } from "vitest";
import { toCurrent } from "../events/index.js";
import { sequenceRandomHex } from "../src/client/prepare.js";
import { MemorySecrets } from "../src/client/secrets.js";
import { Table } from "../src/client/table.js";
import { Engine } from "../src/engine.js";
import { setupCommands } from "../src/setup-file.js";
import { HIDDEN, viewEvent, viewState } from "../src/views.js";
import { logViewContext } from "../src/views-log.js";
import { mergePatch } from "./golden/format.js";
import { goldenSetup } from "./support/fixtures.js";
import { tempDir } from "./support/tmp.js";

/**
 * A2 fog of war through the views, on test/golden/fixtures/battle-ready.json (r1 and b1 1,750 points, rate 3; r1 three
 * squares north of b1). Campaign "scout6": red wins the initiative; a scouting of b1 by r1 ends 7 against 8.
 */

let engine: Engine | undefined;
afterEach(async () => {
  await engine?.close();
  engine = undefined;
});

async function seated(advanced: Record<string, boolean>): Promise<Table> {
  engine = await Engine.open(await tempDir("epicwar-fog-"));
  const setup = mergePatch(goldenSetup("battle-ready.json"), { campaign: "scout6", options: { advanced } }) as ReturnType<typeof goldenSetup>;
  const created = await engine.create(setupCommands(setup).map((step) => step.command));
  expect(created.ok).toBe(true);
  const table = new Table(engine, "scout6", { secrets: new MemorySecrets(), random: sequenceRandomHex("golden") });
  await table.takeChores();
  return table;
}

async function submit(table: Table, command: Record<string, unknown>): Promise<void> {
  const outcome = await table.submit(command);
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.refusal));
}

async function logViews(table: Table, viewer: string) {
  const log = await engine!.store.readAll(table.campaign);
  const context = logViewContext(log.map(toCurrent));
  return log.map((event) => viewEvent(event, viewer, context));
}

describe("A2 fog of war in the players' views", () => {
  it("A2 the enemy's armies show name, square and move rate, never points or roster; one's own show everything", async () => {
    const table = await seated({ fogOfWar: true });
    const state = await table.state();
    const red = viewState(state, "red");
    expect(red.armies["b1"]).toMatchObject({ name: "Blue Hammer", at: [1, 3], moveRate: 3, points: HIDDEN, formations: HIDDEN });
    expect(red.armies["r1"]).toMatchObject({ points: 1750 });
    expect(red.ledgers["blue"]).toMatchObject({ reserves: HIDDEN, inTransit: HIDDEN });
    expect(red.ledgers["red"]).toMatchObject({ reserves: {}, inTransit: [] });
    const registered = (await logViews(table, "red")).filter((event) => event.type === "ArmyRegistered");
    for (const event of registered) {
      const data = event.data as { player: string; formations: unknown };
      if (data.player === "blue") expect(data.formations).toBe(HIDDEN);
      else expect(data.formations).not.toBe(HIDDEN);
    }
  });

  it("A2 without the option nothing of an army's size is hidden", async () => {
    const table = await seated({});
    const red = viewState(await table.state(), "red");
    expect(red.armies["b1"]).toMatchObject({ points: 1750 });
    expect(red.ledgers["blue"]).toMatchObject({ reserves: {} });
  });

  it("A2 a battle's average size and VP target are hidden from both players until the Battle phase", async () => {
    const table = await seated({ fogOfWar: true });
    await submit(table, { actor: "red", type: "ChooseFirst", first: "red" });
    await submit(table, { actor: "red", type: "ActivateArmy", army: "r1", order: "charge", path: [[1, 1], [1, 2], [1, 3]] });
    const during = await table.state();
    expect(during.phase).toBe("action");
    for (const viewer of ["red", "blue"]) expect(viewState(during, viewer).battles["t1b1"]).toMatchObject({ averagePoints: HIDDEN, vpTarget: HIDDEN });
    expect(viewState(during, "host").battles["t1b1"]).toMatchObject({ averagePoints: 1750, vpTarget: 25 });
    await submit(table, { actor: "blue", type: "ActivateArmy", army: "b1", order: "firstFire", path: [] });
    await submit(table, { actor: "blue", type: "ActivateArmy", army: "b2", order: "firstFire", path: [] });
    await submit(table, { actor: "red", type: "ActivateArmy", army: "r2", order: "firstFire", path: [] });
    const fought = await table.state();
    expect(fought.phase).toBe("battle");
    expect(viewState(fought, "blue").battles["t1b1"]).toMatchObject({ averagePoints: 1750, vpTarget: 25 });
  });

  it("A2 A3 a size stated to a scout is shown to the scout as stated, while the true points stay hidden", async () => {
    const table = await seated({ fogOfWar: true, scouting: true });
    await submit(table, { actor: "red", type: "ChooseFirst", first: "red" });
    await submit(table, { actor: "red", type: "ScoutArmy", army: "r1", target: "b1" });
    await submit(table, { actor: "blue", type: "AnswerScouting", scouting: "t1s1" });
    await submit(table, { actor: "blue", type: "StateArmySize", scouting: "t1s1", points: 3500 });
    const stated = (await logViews(table, "red")).find((event) => event.type === "ArmySizeStated");
    expect(stated?.data).toMatchObject({ army: "b1", points: 3500 });
    const red = viewState(await table.state(), "red");
    expect(red.armies["b1"]!.points).toBe(HIDDEN);
    expect(red.turnState!.scouting!.scoutings["t1s1"]!.statedPoints).toBe(3500);
  });
});
