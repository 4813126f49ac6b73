import { describe, expect, it } from "vitest";
import { localTimes, withNames } from "../../src/web/names.js";
import type { CampaignView } from "../../src/views/view.js";

const view = {
  setup: {
    players: [
      { id: "horde", name: "The Cinder Horde" },
      { id: "concord", name: "The Concord" },
    ],
  },
  armies: { h1: { id: "h1", name: "Ashfoot Throng" }, h10: { id: "h10", name: "Dust Howl" } },
} as unknown as CampaignView;

describe("withNames", () => {
  it("says armies and sides by name, each id only as a whole word", () => {
    expect(withNames("#12 horde: h1 moves to (3,4); h10 stays; 2 horde-clan-chief lost", view)).toBe(
      "#12 The Cinder Horde: Ashfoot Throng moves to (3,4); Dust Howl stays; 2 horde-clan-chief lost",
    );
  });

  it("leaves ids the view does not hold, and lines with none, as they are", () => {
    expect(withNames("army c7 is routed; sunspear", view)).toBe("army c7 is routed; sunspear");
  });
});

describe("localTimes", () => {
  it("writes a UTC moment in the reader's local time, not as an ISO string", () => {
    const iso = "2099-06-15T10:00:00.000Z";
    const local = new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
    expect(localTimes(`The Action phase's deadline is ${iso}.`)).toBe(`The Action phase's deadline is ${local}.`);
    expect(local).not.toContain("T10:00");
  });
});
