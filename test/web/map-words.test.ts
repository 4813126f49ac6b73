import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASIC_DEMO } from "../../src/cli/commands/demo-campaigns.js";
import { renderMap } from "../../src/map/render-map.js";
import type { CampaignView } from "../../src/views/view.js";
import { squareWords } from "../../src/web/map-words.js";
import { PlayedCampaign } from "../map/campaigns.js";

let ashfall: PlayedCampaign;
const views: Record<string, CampaignView> = {};

beforeAll(async () => {
  ashfall = await PlayedCampaign.open(BASIC_DEMO);
  for (const player of ["concord", "horde"]) views[player] = (await ashfall.context(player)).state as CampaignView;
}, 60_000);

afterAll(() => ashfall.close());

describe("the map in words and colours (docs/web.md)", () => {
  it("names a square as a screen reader reads it: where, its terrain, each army with its side and points, and 'you'", () => {
    const view = views["concord"]!;
    const army = Object.values(view.armies).find((a) => a.player === "concord" && a.at)!;
    const enemy = Object.values(view.armies).find((a) => a.player === "horde" && a.at)!;
    const concord = view.setup!.players.find((p) => p.id === "concord")!.name;
    const horde = view.setup!.players.find((p) => p.id === "horde")!.name;
    const words = squareWords(view, army.at!, "concord");
    expect(words).toMatch(
      new RegExp(`^\\(${army.at![0]},${army.at![1]}\\) (plains|forest|hills|mountains|river|town|city)`),
    );
    expect(words).toContain(`${army.name}, ${concord} (you), ${army.points.toLocaleString("en")} pts`);
    expect(squareWords(view, enemy.at!, "concord")).toContain(`${enemy.name}, ${horde}, `);
    expect(squareWords(view, enemy.at!, "concord")).not.toContain("(you)");
  });

  it("draws each side in the same colour on every seat's map, whoever looks", () => {
    const fill = (svg: string, army: string) =>
      new RegExp(`data-army="${army}">[^]*?<rect [^>]*fill="(#[0-9a-f]{6})"`).exec(svg)![1];
    const armies = Object.values(views["concord"]!.armies).filter((a) => a.at);
    const maps = ["concord", "horde"].map((viewer) => renderMap(views[viewer]!, { viewer }));
    for (const army of armies) expect(fill(maps[1]!, army.id), army.id).toBe(fill(maps[0]!, army.id));
    const colours = new Set(armies.map((army) => `${army.player} ${fill(maps[0]!, army.id)}`));
    expect(colours.size).toBe(2);
  });
});
