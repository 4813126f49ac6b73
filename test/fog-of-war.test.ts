import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import { type CurrentEvent, type DomainEvent, type EventData, toCurrent } from "../events/index.js";
import { sequenceRandomHex } from "../src/client/prepare.js";
import { MemorySecrets } from "../src/client/secrets.js";
import { Table } from "../src/client/table.js";
import { Engine } from "../src/engine/engine.js";
import { renderState } from "../src/cli/render.js";
import { describeEvent } from "../src/words/events.js";
import { setupCommands } from "../src/setup/setup-file.js";
import {
  HIDDEN,
  viewedContent,
  viewEvent,
  viewState,
  type Hidden,
  type ViewedData,
  type ViewedDomainEvent,
} from "../src/views/view.js";
import { logViewContext } from "../src/views/log.js";
import { mergePatch } from "./golden/format.js";
import { goldenSetup } from "./support/fixtures.js";

/** The label of the parties' fixed draws: its seeds give red the initiative of turn 1, which these tests start from. */
const SCOUTING_DICE = "golden-6";
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

async function seated(advanced: Record<string, boolean>, fixture = "battle-ready.json"): Promise<Table> {
  engine = await Engine.open(await tempDir("epicwar-fog-"));
  const setup = mergePatch(goldenSetup(fixture), { campaign: "scout6", options: { advanced } }) as ReturnType<
    typeof goldenSetup
  >;
  const created = await engine.create(setupCommands(setup).map((step) => step.command));
  expect(created.ok).toBe(true);
  const table = new Table(engine, "scout6", { secrets: new MemorySecrets(), random: sequenceRandomHex(SCOUTING_DICE) });
  await table.takeChores();
  return table;
}

/**
 * test/golden/fixtures/advanced-war-chest.json (r1 at (1,0), b1 at (3,3)) played to turn 1's End phase: r1 takes the
 * objective and city at (3,0), red's income is 100, and red buys 50 points of defences there, leaving 50.
 */
async function warChestEndPhase(advanced: Record<string, boolean>): Promise<Table> {
  const table = await seated({ warChest: true, ...advanced }, "advanced-war-chest.json");
  await submit(table, { actor: "red", type: "ChooseFirst", first: "blue" });
  await submit(table, { actor: "blue", type: "ActivateArmy", army: "b1", order: "firstFire", path: [] });
  await submit(table, {
    actor: "red",
    type: "ActivateArmy",
    army: "r1",
    order: "advance",
    path: [
      [2, 0],
      [3, 0],
    ],
  });
  await submit(table, { actor: "red", type: "BuyDefences", at: [3, 0], points: 50 });
  return table;
}

/** An event of the campaign as it would stand in its log, for viewing. */
function logged<T extends DomainEvent["type"]>(type: T, data: EventData<T>, seq: number): CurrentEvent {
  return {
    stream: "scout6",
    seq,
    type,
    version: 1,
    at: "2030-01-01T00:00:00.000Z",
    actor: "red",
    data,
  } as CurrentEvent;
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
    expect(red.armies["b1"]).toMatchObject({
      name: "Blue Hammer",
      at: [1, 3],
      moveRate: 3,
      points: HIDDEN,
      formations: HIDDEN,
    });
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
    await submit(table, {
      actor: "red",
      type: "ActivateArmy",
      army: "r1",
      order: "charge",
      path: [
        [1, 1],
        [1, 2],
        [1, 3],
      ],
    });
    const during = await table.state();
    expect(during.phase).toBe("action");
    for (const viewer of ["red", "blue"])
      expect(viewState(during, viewer).battles["t1b1"]).toMatchObject({ averagePoints: HIDDEN, vpTarget: HIDDEN });
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

  it("A2 a battle side's points are its own player's during the Action phase, and both players' from the Battle phase", async () => {
    const table = await seated({ fogOfWar: true });
    await submit(table, { actor: "red", type: "ChooseFirst", first: "red" });
    await submit(table, {
      actor: "red",
      type: "ActivateArmy",
      army: "r1",
      order: "charge",
      path: [
        [1, 1],
        [1, 2],
        [1, 3],
      ],
    });
    const during = await table.state();
    expect(viewState(during, "blue").battles["t1b1"]).toMatchObject({
      attacker: { army: "r1", points: HIDDEN },
      defender: { army: "b1", points: 1750 },
    });
    expect(viewState(during, "red").battles["t1b1"]).toMatchObject({
      attacker: { army: "r1", points: 1750 },
      defender: { army: "b1", points: HIDDEN },
    });
    expect(viewState(during, "host").battles["t1b1"]).toMatchObject({
      attacker: { points: 1750 },
      defender: { points: 1750 },
    });
    // The view's type says so too: a side's points may be hidden, its army may not.
    expectTypeOf(viewState(during, "blue").battles["t1b1"]!.attacker.points).toEqualTypeOf<number | Hidden>();
    expectTypeOf(viewState(during, "blue").battles["t1b1"]!.defender.army).toEqualTypeOf<string>();
    expectTypeOf(viewState(during, "blue").ledgers["red"]!.warChest).toEqualTypeOf<number | Hidden>();
    expect(during.battles["t1b1"]!.attacker.points, "the state itself is untouched").toBe(1750);
    const sheet = renderState(viewState(during, "blue"), { viewer: "blue" });
    expect(sheet).toContain("r1 (red, ? pts, order hidden) attacks b1 (blue, 1,750 pts");
    await submit(table, { actor: "blue", type: "ActivateArmy", army: "b1", order: "firstFire", path: [] });
    await submit(table, { actor: "blue", type: "ActivateArmy", army: "b2", order: "firstFire", path: [] });
    await submit(table, { actor: "red", type: "ActivateArmy", army: "r2", order: "firstFire", path: [] });
    const fought = await table.state();
    expect(fought.phase).toBe("battle");
    expect(viewState(fought, "blue").battles["t1b1"]).toMatchObject({
      attacker: { points: 1750 },
      defender: { points: 1750 },
    });
  });

  /** The first event of a type in the log as the viewer sees it, whose data passes `test`. */
  async function findViewed<T extends ViewedDomainEvent["type"]>(
    table: Table,
    viewer: string,
    type: T,
    test: (data: ViewedData<T>) => boolean,
  ) {
    const events = (await logViews(table, viewer)).map(viewedContent);
    const found = events.find(
      (event): event is Extract<ViewedDomainEvent, { type: T }> & typeof event =>
        event.type === type && test(event.data as ViewedData<T>),
    );
    if (!found) throw new Error(`no ${type} in ${viewer}'s log`);
    return found;
  }

  it("A2 A8 the enemy's war chest balance is hidden, and so are its income's change, floor cut and balance; the income's items stay public", async () => {
    const table = await warChestEndPhase({ fogOfWar: true });
    const state = await table.state();
    expect(state.phase).toBe("end");
    expect(viewState(state, "blue").ledgers["red"]).toMatchObject({ warChest: HIDDEN, warChestEarned: 100 });
    expect(viewState(state, "red").ledgers["red"]).toMatchObject({ warChest: 50 });
    expect(renderState(viewState(state, "blue"), { viewer: "blue" })).toContain("war chest ? pts (earned 100 of ");
    expect(renderState(viewState(state, "red"), { viewer: "red" })).toContain("war chest 50 pts (earned 100 of ");
    const redIncome = (viewer: string) =>
      findViewed(table, viewer, "WarChestIncomeRecorded", (data) => data.player === "red");
    const income = await redIncome("blue");
    expect(income.data).toMatchObject({
      total: 100,
      ceilingCut: 0,
      earned: 100,
      change: HIDDEN,
      floorCut: HIDDEN,
      balance: HIDDEN,
    });
    expect(describeEvent(income)).toBe(`red's war chest income: ${income.data.items.length} items, 100 in all`);
    const defences = await findViewed(table, "blue", "DefencesPurchased", () => true);
    expect(defences.data, "defences stand on the map in the open").toMatchObject({ player: "red", points: 50 });
    expect((await redIncome("red")).data).toMatchObject({ change: 100, floorCut: 0, balance: 100 });
  });

  it("A2 A8 without fog of war the enemy's war chest is shown", async () => {
    const table = await warChestEndPhase({});
    expect(viewState(await table.state(), "blue").ledgers["red"]).toMatchObject({ warChest: 50 });
  });

  it("A2 A6 A7 A8 under fog of war a titan repair, a commander's level and nothing public are hidden from the enemy", async () => {
    const table = await warChestEndPhase({ fogOfWar: true });
    const context = logViewContext((await engine!.store.readAll(table.campaign)).map(toCurrent));
    const seen = (event: CurrentEvent) => viewEvent(event, "blue", context);
    const repair = seen(
      logged(
        "TitanRepaired",
        {
          turn: 1,
          player: "red",
          army: "r1",
          formation: "warlord",
          shields: 2,
          weapons: [{ destroyed: "volcano cannon", replacement: "volcano cannon", points: 50 }],
          cost: 250,
        },
        90,
      ),
    );
    expect(repair.data).toEqual({
      turn: 1,
      player: "red",
      army: "r1",
      formation: HIDDEN,
      shields: HIDDEN,
      weapons: HIDDEN,
      cost: HIDDEN,
    });
    expect(describeEvent(viewedContent(repair))).toBe("red repairs a titan of r1 from its war chest");
    const reserve = seen(
      logged(
        "ReserveTitanRepaired",
        { turn: 1, player: "red", unitType: "warlord-titan", titan: 0, shields: 1, weapons: [], cost: 100 },
        91,
      ),
    );
    expect(reserve.data).toEqual({
      turn: 1,
      player: "red",
      unitType: HIDDEN,
      titan: HIDDEN,
      shields: HIDDEN,
      weapons: HIDDEN,
      cost: HIDDEN,
    });
    expect(describeEvent(viewedContent(reserve))).toBe("red repairs a titan in its Reserves from its war chest");
    const level = seen(
      logged(
        "CommanderAppointed",
        {
          turn: 1,
          army: "r1",
          player: "red",
          commander: { formation: "tactical", unitType: "command-stand" },
          level: 3,
        },
        92,
      ),
    );
    expect(level.data).toMatchObject({ level: HIDDEN, commander: HIDDEN });
    // Off-table support is called in openly at the table (A7 ruling): its price list is public.
    const support = seen(
      logged(
        "SupportPurchased",
        { turn: 1, player: "red", item: "guns", kind: "light-barrage", cost: 100, paidFrom: "warChest" },
        93,
      ),
    );
    expect(support.data).toMatchObject({ kind: "light-barrage", cost: 100 });
    expect(
      viewEvent(
        logged(
          "TitanRepaired",
          { turn: 1, player: "red", army: "r1", formation: "warlord", shields: 2, weapons: [], cost: 200 },
          90,
        ),
        "red",
        context,
      ).data,
    ).toMatchObject({ formation: "warlord", cost: 200 });
  });
});
