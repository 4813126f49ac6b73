/**
 * `epicwar demo --server` on a line other writers keep moving, as on a server shared with an organiser giving
 * commands or with another instance appending: a reveal the demo takes after one of its own commands is beaten more
 * often than its Table signs it again at the new seq (D2), and the demo decides again on the new state rather than
 * stopping.
 */
import { describe, expect, it } from "vitest";
import { HOST } from "../../events/common.js";
import { RESIGN_ATTEMPTS } from "../../src/client/table.js";
import { AppendConflictError } from "../../src/log/index.js";
import { runInProcess, show } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";
import { runLive, until, type LiveRun } from "./live.js";
import { serveAshfall } from "./served-ashfall.js";

describe("the demo on a server whose line other writers move", () => {
  it("a reveal beaten by another writer's append more often than it is signed again is decided again", async () => {
    const served = await serveAshfall();
    const { engine, url, campaign, invites } = served;
    const { store } = engine;
    const append = store.append.bind(store);
    // Each of the Concord's reveals: how many times it was beaten.
    const beaten = new Map<string, number>();
    // Each time a reveal of the Concord's is about to land, the organiser's deadline lands first (a real append), more
    // often than the Table signs the reveal again.
    store.append = async (stream, expectedSeq, events, options) => {
      const first = events[0];
      const army = (first?.data as { army?: string } | undefined)?.army ?? "";
      if (first?.type === "OrderRevealed" && first.actor === "concord" && (beaten.get(army) ?? 0) <= RESIGN_ATTEMPTS) {
        beaten.set(army, (beaten.get(army) ?? 0) + 1);
        const [moved] = await append(stream, expectedSeq, [
          {
            type: "ActionDeadlineSet",
            version: 1,
            at: new Date().toISOString(),
            actor: HOST,
            data: { turn: 1, deadline: new Date(Date.UTC(2100, 0, 1) + beaten.get(army)! * 60_000).toISOString() },
          },
        ]);
        throw new AppendConflictError(stream, expectedSeq, moved!.seq);
      }
      return append(stream, expectedSeq, events, options);
    };
    const demos: LiveRun[] = [];
    try {
      for (const player of ["concord", "horde"]) {
        const secrets = await tempDir(`epicwar-${player}-`);
        const joined = await runInProcess(["join", `${url}/join#${invites[player]}`, "--secrets", secrets]);
        expect(joined.code, show(joined)).toBe(0);
        demos.push(runLive(["--server", url, "demo", "--secrets", secrets]));
      }
      // Every reveal of the first turn, the Concord's beaten each time, and the second turn started. The demos end only
      // on an error before then: what they said is the failure.
      const secondTurn = async () => (await engine.state(campaign)).turn >= 2;
      await Promise.race([
        until(secondTurn, 60_000),
        ...demos.map(async (demo) => expect(await demo.done, demo.err.join("")).toBe("still playing")),
      ]);
      expect(beaten.size).toBeGreaterThan(1);
      expect([...beaten.values()].every((times) => times === RESIGN_ATTEMPTS + 1)).toBe(true);
      for (const demo of demos) demo.stop.abort();
      const codes = await Promise.all(demos.map((demo) => demo.done));
      expect(codes, demos.map((demo) => demo.err.join("")).join("\n---\n")).toEqual([0, 0]);
    } finally {
      for (const demo of demos) demo.stop.abort();
      await Promise.all(demos.map((demo) => demo.done));
      await served.close();
    }
  }, 90_000);
});
