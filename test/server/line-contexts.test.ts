/** The view context the server keeps per line: always the one logViewContext gives for the whole line now. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toCurrent } from "../../events/index.js";
import { nextDecision } from "../../src/demo/play.js";
import { LineContexts } from "../../src/server/line-contexts.js";
import { logViewContext } from "../../src/views-log.js";
import { CAMPAIGN, PlayerClient, startTestServer, type TestServer } from "./support.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("the view context kept per line", () => {
  it("is advanced with the events appended since, to the context of the whole line, however many ask at once", async () => {
    const contexts = new LineContexts(server.engine.store);
    const whole = async () => logViewContext((await server.engine.store.readAll(CAMPAIGN)).map(toCurrent));
    expect(await contexts.now(CAMPAIGN)).toEqual(await whole());
    const players = new Map(["concord", "horde"].map((player) => [player, new PlayerClient(server, player)]));
    for (let step = 0; step < 12; step++) {
      for (const player of players.values()) await player.takeChores();
      const command = nextDecision(await server.engine.state(CAMPAIGN));
      if (!command) break;
      const { actor, ...rest } = command;
      expect((await players.get(actor)!.submit(rest)).statusCode).toBe(200);
      // Several requests at once: each gets the line now, and the events are folded once (a second fold would show).
      const asked = await Promise.all([1, 2, 3].map(() => contexts.now(CAMPAIGN)));
      const expected = await whole();
      for (const context of asked) expect(context).toEqual(expected);
    }
    expect((await contexts.now(CAMPAIGN)).state.seq).toBe((await server.engine.store.head(CAMPAIGN)).seq);
  });
});
