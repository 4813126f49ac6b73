/**
 * The one map renderer (src/map): golden SVGs of the bundled campaigns as each player sees them, a property that a
 * player's map gives away none of the enemy's secrets, escaping, XML well-formedness, and the browser bundle.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "../../events/common.js";
import type { CampaignState } from "../../projections/state.js";
import { ADVANCED_DEMO, BASIC_DEMO } from "../../src/cli/commands/demo-campaigns.js";
import { renderMap } from "../../src/map/render-map.js";
import { ownHeldOrders, viewState, type ViewContext } from "../../src/views/view.js";
import { browserBundle } from "../support/browser-bundle.js";
import { battleAndMoves, PlayedCampaign } from "./campaigns.js";
import { expectGolden, goldenPath } from "./golden.js";
import { parseSvg } from "./xml.js";

const maps = new Map<string, string>();
let ashfallAction: CampaignState;
let emberfall: PlayedCampaign;
let emberfallAction: CampaignState;

beforeAll(async () => {
  const ashfall = await PlayedCampaign.open(BASIC_DEMO);
  try {
    maps.set("ashfall-setup.svg", await ashfall.map("concord", { seq: await ashfall.setupEnd() }));
    ashfallAction = await ashfall.playUntil(battleAndMoves);
    for (const player of ["concord", "horde"]) maps.set(`ashfall-action-${player}.svg`, await ashfall.map(player));
  } finally {
    await ashfall.close();
  }
  emberfall = await PlayedCampaign.open(ADVANCED_DEMO);
  emberfallAction = await emberfall.playUntil(battleAndMoves);
  for (const player of ["concord", "horde"]) maps.set(`emberfall-action-${player}.svg`, await emberfall.map(player));
}, 120_000);

afterAll(() => emberfall?.close());

describe("golden maps of the bundled campaigns", () => {
  it.each([
    "ashfall-setup.svg",
    "ashfall-action-concord.svg",
    "ashfall-action-horde.svg",
    "emberfall-action-concord.svg",
    "emberfall-action-horde.svg",
  ])("%s is the map drawn now, byte for byte", async (name) => {
    await expectGolden(goldenPath(name), maps.get(name)!);
  });

  it("docs/map-ashfall.svg is the Ashfall Action phase map as the Concord sees it", async () => {
    await expectGolden(goldenPath("../../docs/map-ashfall.svg"), maps.get("ashfall-action-concord.svg")!);
  });

  it("every map is well-formed standalone SVG: the SVG namespace, a viewBox and a title", () => {
    for (const [name, svg] of maps) {
      const parsed = parseSvg(svg);
      expect(parsed.root, name).toBe("{http://www.w3.org/2000/svg}svg");
      expect(parsed.viewBox, name).toMatch(/^0 0 \d+(\.\d+)? \d+(\.\d+)?$/);
      expect(parsed.title, name).toMatch(/^Ashfall|^Emberfall/);
    }
  });
});

describe("what the maps show", () => {
  const titlesOf = (name: string) => parseSvg(maps.get(name)!).titles;

  it("writes every army's name whole on its counter, over as many lines as it takes, stacked counters too", () => {
    const names = new Map(
      [ashfallAction, emberfallAction].flatMap((state) => Object.values(state.armies).map((a) => [a.id, a.name])),
    );
    let stacked = 0;
    for (const [file, svg] of maps)
      for (const [, id, body] of svg.matchAll(/<g class="army [a-z]+" data-army="([^"]+)">([\s\S]*?)<\/g>/g)) {
        const lines = [...body!.matchAll(/<text [^>]*font-weight="bold"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
        expect(lines.join(" ").replace(/&apos;/g, "'"), `${file}: ${id}`).toBe(names.get(id!));
        // A counter alone on its square is 41 px high at 64 px a square; one of two sharing it, 20 px.
        if (Number(/<rect [^>]*height="([\d.]+)"/.exec(body!)![1]) < 30) stacked++;
      }
    expect(stacked, "counters on a shared square").toBeGreaterThan(0);
  });

  it("S1 the set-up map names the campaign at set-up and has a counter for each army, with its points", () => {
    const titles = titlesOf("ashfall-setup.svg");
    expect(titles[0]).toBe("Ashfall: the war for the Veyne crossings: set-up, as seen by The Concord of Seven Suns");
    const counters = titles.filter((t) => / at \(\d+,\d+\): .*move rate/.test(t));
    expect(counters).toHaveLength(12);
    expect(counters).toContain("First Vigil Army (The Concord of Seven Suns) at (6,0): 5,000 points, move rate 2");
    expect(titles.filter((t) => t.startsWith("Objective placed by "))).toHaveLength(8);
    expect(titles.filter((t) => t.startsWith("Home base of "))).toHaveLength(2);
  });

  it("T4 B1 the Action phase map draws this turn's moves and the battle to fight, from the state", () => {
    const titles = titlesOf("ashfall-action-concord.svg");
    const moved = Object.values(ashfallAction.turnState!.activations).filter((a) => a.path.length > 0);
    expect(titles.filter((t) => t.endsWith(" this turn") && t.includes(" moved "))).toHaveLength(moved.length);
    const battles = Object.values(ashfallAction.battles).filter((b) => b.turn === ashfallAction.turn);
    expect(titles.filter((t) => t.startsWith("Battle at "))).toHaveLength(battles.length);
    const battle = battles[0]!;
    const attacker = ashfallAction.armies[battle.attacker.army]!;
    expect(titles).toContainEqual(
      expect.stringContaining(`: ${attacker.name} (${playerName(ashfallAction, attacker.player)}`),
    );
  });

  it("A2 under fog of war the enemy's counters hide their points, and the viewer's own held orders are drawn", async () => {
    const context = await emberfall.context("concord");
    const held = await ownHeldOrders(context.state, "concord", emberfall.secrets);
    const titles = titlesOf("emberfall-action-concord.svg");
    for (const army of Object.values(emberfallAction.armies).filter((a) => a.status === "active" && a.at)) {
      const counter = titles.find((t) =>
        t.startsWith(`${army.name} (${playerName(emberfallAction, army.player)}) at (`),
      )!;
      expect(counter, army.id).toBeDefined();
      if (army.player === "concord") expect(counter).toContain(`${army.points.toLocaleString("en")} points`);
      else expect(counter).toMatch(/: points hidden(, stated to a scout as [\d,]+)?, move rate/);
      if (held[army.id]) expect(counter).toContain("(hidden from the opponent)");
    }
    expect(Object.keys(held).length, "the moment has an order of the Concord's still hidden").toBeGreaterThan(0);
  });
});

describe("markers of what stands on a square", () => {
  it("E3 A8 A5 defences, a captured city and a seized home base are drawn with their holders", () => {
    const state = structuredClone(emberfallAction) as CampaignState;
    state.defences = { "3,3": 900, "5,2": 0 };
    state.cities = { "12,3": "horde" };
    state.homeBases["concord"]!.heldBy = "horde";
    const titles = parseSvg(renderMap(viewState(state, "concord"), { viewer: "concord" })).titles;
    expect(titles).toContain("Defences at (3,3): 900 points (E3)");
    expect(titles.filter((t) => t.startsWith("Defences at "))).toHaveLength(1);
    expect(titles).toContain("City at (12,3) held by The Cinder Horde (A8)");
    expect(titles).toContain("Home base of The Concord of Seven Suns at (8,1) (A5): held by The Cinder Horde");
  });
});

const playerName = (state: CampaignState, id: string) => state.setup!.players.find((p) => p.id === id)!.name;

describe("a player's map gives nothing away", () => {
  const hex = fc.stringMatching(/^[0-9a-f]{64}$/);
  const points = fc.integer({ min: 1000, max: 12000 });
  /** Different values for everything of the Horde's that the Concord may not see (A2, S8, T5), planted in the truth. */
  const secrets = fc.record({
    points,
    units: fc.nat({ max: 9 }),
    commander: fc.stringMatching(/^[a-z]{1,12}$/),
    level: fc.integer({ min: 1, max: 5 }),
    commitment: hex,
    reserves: fc.nat({ max: 40 }),
    warChest: fc.nat({ max: 5000 }),
  });

  type Planted = typeof secrets extends fc.Arbitrary<infer T> ? T : never;

  function plant(truth: CampaignState, s: Planted): CampaignState {
    const state = structuredClone(truth) as CampaignState;
    for (const army of Object.values(state.armies).filter((a) => a.player === "horde")) {
      army.points = s.points;
      army.formations = army.formations.map((f) => ({ ...f, units: { [s.commander]: s.units } }));
      army.commander = { formation: s.commander, unitType: s.commander };
      if (army.commanderLevel !== undefined) army.commanderLevel = s.level;
      army.titanDamage = { [s.commander]: { shields: s.units, weapons: [] } } as never;
    }
    // T5: a hidden order is in the log only as its commitment; another order means another commitment.
    for (const activation of Object.values(state.turnState!.activations))
      if (activation.player === "horde" && activation.order === null) activation.commitment = s.commitment;
    for (const battle of Object.values(state.battles).filter((b) => b.turn === state.turn)) {
      battle.averagePoints = s.points;
      battle.vpTarget = s.units;
      for (const side of [battle.attacker, battle.defender]) if (side.player === "horde") side.points = s.points;
    }
    const ledger = state.ledgers["horde"]!;
    ledger.reserves = { [s.commander]: s.reserves };
    ledger.warChest = s.warChest;
    ledger.inTransit = [{ turn: state.turn, units: { [s.commander]: s.units } }];
    return state;
  }

  it("A2 S8 T5 the Concord's SVG is byte-identical whatever the Horde's hidden orders, strengths and commanders", async () => {
    const context = await emberfall.context("concord");
    const truth = context.state;
    const held: Record<string, Order> = await ownHeldOrders(truth, "concord", emberfall.secrets);
    const hiddenHorde = Object.values(truth.turnState!.activations).filter(
      (a) => a.player === "horde" && a.order === null,
    );
    expect(hiddenHorde.length, "the moment has a Horde order still hidden").toBeGreaterThan(0);
    const drawn = (state: CampaignState) => {
      const planted: ViewContext = { ...context, state };
      return renderMap(viewState(state, "concord", planted), { viewer: "concord", heldOrders: held });
    };
    const original = drawn(truth);
    expect(original).toBe(maps.get("emberfall-action-concord.svg"));
    fc.assert(
      fc.property(secrets, (s) => {
        const planted = plant(truth, s);
        expect(JSON.stringify(viewState(planted, "concord", { ...context, state: planted }))).not.toBe(
          JSON.stringify(viewState(truth, "concord", context)),
        );
        expect(drawn(planted)).toBe(original);
      }),
      { numRuns: 40 },
    );
  });
});

describe("text from the set-up file", () => {
  it("is XML-escaped wherever it is drawn: names holding <, &, \" and ' read back as written", () => {
    const state = structuredClone(emberfallAction) as CampaignState;
    const campaignName = `Salt & <Ashes>: the "last" war`;
    const horde = `The 'Cinder' <Horde> & "Friends"`;
    const armyName = `<script>alert("x")</script> & Co`;
    state.setup!.name = campaignName;
    state.setup!.players[1]!.name = horde;
    const army = Object.values(state.armies).find((a) => a.status === "active" && a.at !== null)!;
    army.name = armyName;
    const svg = renderMap(state);
    expect(svg).not.toContain("<script>");
    const parsed = parseSvg(svg);
    expect(parsed.title).toBe(`${campaignName}: turn 1, action phase, as the log shows it`);
    expect(parsed.texts).toContain(horde);
    expect(parsed.titles.some((t) => t.startsWith(`${armyName} (`))).toBe(true);
  });

  it("drops characters XML cannot hold instead of writing a broken document", () => {
    const state = structuredClone(emberfallAction) as CampaignState;
    state.setup!.name = "Bell\u0007 and \uD800 tower";
    expect(parseSvg(renderMap(state)).title).toBe(
      "Bell\uFFFD and \uFFFD tower: turn 1, action phase, as the log shows it",
    );
  });
});

describe("one renderer for Node and the browser", () => {
  it("bundles for the browser from src/map/render-map.ts with no node: import and no package, transitively", async () => {
    const { inputs, text } = await browserBundle("./src/map/render-map.ts");
    expect(inputs.filter((input) => input.startsWith("node:") || input.includes("node_modules"))).toEqual([]);
    expect(text).not.toMatch(/["']node:/);
  });

  it("is deterministic: the same view and options give the same text", () => {
    const view = viewState(emberfallAction, "horde");
    expect(renderMap(view, { viewer: "horde", squareSize: 40 })).toBe(
      renderMap(structuredClone(view), { viewer: "horde", squareSize: 40 }),
    );
  });

  it("refuses a view with no set-up and a square size out of range", () => {
    expect(() => renderMap(viewState({ ...emberfallAction, setup: null }, undefined))).toThrow(/no set-up/);
    expect(() => renderMap(emberfallAction, { squareSize: 4 })).toThrow(RangeError);
  });
});
