/** The view context the server keeps per line: always the one logViewContext gives for the whole line now. */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
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

  it("takes the events a caller just wrote instead of reading them, and reads what it was not given", async () => {
    // A campaign of its own: the one above has been played on by other players' secrets.
    const own = await startTestServer();
    onTestFinished(() => own.close());
    const store = own.engine.store;
    let reads = 0;
    const counted = new Proxy(store, {
      get: (target, name) =>
        name === "readAll"
          ? (...args: Parameters<typeof store.readAll>) => (reads++, target.readAll(...args))
          : Reflect.get(target, name, target),
    });
    const contexts = new LineContexts(counted);
    const whole = async () => logViewContext((await store.readAll(CAMPAIGN)).map(toCurrent));
    await contexts.now(CAMPAIGN);
    const players = new Map(["concord", "horde"].map((player) => [player, new PlayerClient(own, player)]));
    for (let step = 0; step < 12; step++) {
      for (const player of players.values()) await player.takeChores();
      const command = nextDecision(await own.engine.state(CAMPAIGN));
      if (!command) break;
      const before = (await store.head(CAMPAIGN)).seq;
      const { actor, ...rest } = command;
      expect((await players.get(actor)!.submit(rest)).statusCode).toBe(200);
      const written = await store.readAll(CAMPAIGN, before + 1);
      // Every other step the caller holds only the last of the new events: the context reads the rest itself.
      const known = step % 2 === 0 ? written : written.slice(-1);
      const readsBefore = reads;
      expect(await contexts.now(CAMPAIGN, known)).toEqual(await whole());
      expect(reads - readsBefore).toBe(step % 2 === 0 || written.length === 1 ? 0 : 1);
    }
  });
});
