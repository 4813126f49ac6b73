import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chebyshev, rowsFromEdge } from "../../projections/grid.js";
import { BASIC_DEMO } from "../../src/cli/commands/demo-campaigns.js";
import type { CampaignView } from "../../src/views/view.js";
import { asEntries } from "../../src/web/fields.js";
import { freshId, newFormations } from "../../src/web/pick-fields.js";
import { defenceSquares, newArmySquares } from "../../src/web/rules-view.js";
import { PlayedCampaign } from "../map/campaigns.js";

let ashfall: PlayedCampaign;
let view: CampaignView;

beforeAll(async () => {
  ashfall = await PlayedCampaign.open(BASIC_DEMO);
  view = (await ashfall.context("concord")).state as CampaignView;
}, 60_000);

afterAll(() => ashfall.close());

describe("what the End phase's forms pick instead of typing (docs/web.md)", () => {
  it("reads back the list of new formations it writes, as the command's fields read it", () => {
    const text = "line-t2:concord-line-company, guns-t2:concord-howitzer-battery@line-t2";
    expect(newFormations(text)).toEqual([
      { id: "line-t2", formation: "concord-line-company" },
      { id: "guns-t2", formation: "concord-howitzer-battery", attachedTo: "line-t2" },
    ]);
    expect(newFormations(text)).toEqual(asEntries({ formations: text }, "formations"));
    expect(newFormations("")).toEqual([]);
  });

  it("makes ids not yet taken", () => {
    expect(freshId("line-t2", [])).toBe("line-t2");
    expect(freshId("line-t2", ["line-t2"])).toBe("line-t2-2");
    expect(freshId("line-t2", ["line-t2", "line-t2-2", "line-t2-3"])).toBe("line-t2-4");
  });

  it("S7 A8 offers a new army the free squares of the base line or home base, a bought one those by the home base", () => {
    const setup = view.setup!;
    const concord = setup.players.find((p) => p.id === "concord")!;
    const home = view.homeBases["concord"]!.at;
    const held = new Set(
      Object.values(view.armies)
        .filter((a) => a.status === "active" && a.at)
        .map((a) => a.at!.join(",")),
    );
    const raised = [...newArmySquares(view, "concord", false)].map((k) => k.split(",").map(Number) as [number, number]);
    const line = setup.map.width * setup.map.height;
    expect(raised.length).toBeGreaterThan(0);
    for (const square of raised) {
      expect(rowsFromEdge(setup.map, concord.baseLine, square) === 0 || square.join(",") === home.join(",")).toBe(true);
      if (square.join(",") !== home.join(",")) expect(held.has(square.join(","))).toBe(false);
    }
    // Every free square of the base line is offered.
    let free = 0;
    for (let i = 0; i < line; i++) {
      const square: [number, number] = [i % setup.map.width, Math.floor(i / setup.map.width)];
      if (rowsFromEdge(setup.map, concord.baseLine, square) === 0 && !held.has(square.join(","))) free++;
    }
    expect(raised.filter((s) => rowsFromEdge(setup.map, concord.baseLine, s) === 0).length).toBe(free);
    for (const key of newArmySquares(view, "concord", true))
      expect(chebyshev(key.split(",").map(Number) as [number, number], home)).toBeLessThanOrEqual(1);
  });

  it("A8 offers defences the squares of the player's own armies and the objectives it holds", () => {
    const own = Object.values(view.armies).filter((a) => a.player === "concord" && a.status === "active" && a.at);
    const squares = defenceSquares(view, "concord");
    for (const army of own) expect(squares.has(army.at!.join(","))).toBe(true);
    const enemy = Object.values(view.armies).find((a) => a.player === "horde" && a.at)!;
    expect(squares.has(enemy.at!.join(","))).toBe(false);
  });
});
