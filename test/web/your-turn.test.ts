import { describe, expect, it } from "vitest";
import type { WaitingOn } from "../../src/rules/waiting-on.js";
import { owedBy } from "../../src/web/your-turn.js";

describe("what waits on a seat, for its page's title and notification", () => {
  it("counts what the player gives by hand, each once, and not the seeds and reveals its page sends itself", () => {
    const waiting: WaitingOn = {
      parties: {
        host: [{ what: "turnStart", command: "StartTurn" }],
        concord: [
          { what: "seed", command: "GiveSeed" },
          { what: "activation", command: "ActivateArmy", army: "c1" },
          { what: "activation", command: "ActivateArmy", army: "c2" },
          { what: "reveal", command: "RevealOrder", army: "c3" },
        ],
        horde: [{ what: "resultConfirmation", command: "ConfirmBattleResult", battle: "t1b1" }],
      },
    } as unknown as WaitingOn;
    expect(owedBy(waiting, "concord")).toEqual(["activate an army"]);
    expect(owedBy(waiting, "horde")).toEqual(["confirm a battle's result"]);
    expect(owedBy(waiting, "host")).toEqual([]);
    expect(owedBy(null, "concord")).toEqual([]);
  });
});
