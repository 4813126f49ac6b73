/** The start screen's POST /campaigns body, its default campaign id and a set-up file of the player's own (docs/web.md). */
import { describe, expect, it } from "vitest";
import { creationBody, freeCampaignId, ownSetup, type OfferedSetup } from "../../src/web/new-campaign-request.js";

const SETUP: OfferedSetup = {
  campaign: "ashfall",
  name: "Ashfall",
  players: [
    { id: "concord", name: "The Concord" },
    { id: "horde", name: "The Horde" },
  ],
  options: { battleKit: { turnLimit: 6 } },
  catalogue: { formations: {} },
};

describe("the start screen's request", () => {
  it("sends the set-up with the campaign id chosen, options.battles and the computer's seat, level and thinking time", () => {
    const body = creationBody(SETUP, {
      campaign: "ashfall-2",
      computer: "horde",
      level: "searching",
      thinkMs: 500,
      battles: "model",
    });
    expect(body).toEqual({
      ...SETUP,
      campaign: "ashfall-2",
      options: { battleKit: { turnLimit: 6 }, battles: "model" },
      computer: { seat: "horde", level: "searching", thinkMs: 500 },
    });
  });

  it("offers the set-up's own id, or the first -N the server does not hold", () => {
    expect(freeCampaignId("ashfall", ["emberfall"])).toBe("ashfall");
    expect(freeCampaignId("ashfall", ["ashfall", "ashfall-2", "emberfall"])).toBe("ashfall-3");
  });

  it("reads a set-up file of the player's own, and says why one cannot be sent", () => {
    expect(ownSetup(JSON.stringify(SETUP))).toEqual(SETUP);
    expect(() => ownSetup("{")).toThrow(/^the set-up file is not JSON: /);
    expect(() => ownSetup("[]")).toThrow("the set-up file must hold one JSON object (docs/setup-file.md)");
    expect(() => ownSetup(JSON.stringify({ name: "x" }))).toThrow(
      'the set-up file must name its "campaign" and list its "players" (docs/setup-file.md)',
    );
    expect(() => ownSetup(JSON.stringify({ ...SETUP, catalogue: "catalogue.json" }))).toThrow(
      /^catalogue: the set-up file must hold the catalogue itself/,
    );
  });
});
