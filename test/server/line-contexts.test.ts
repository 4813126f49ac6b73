/** The view context the server keeps per line: always the one logViewContext gives for the whole line now. */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { toCurrent } from "../../events/index.js";
import { nextDecision } from "../../src/demo/play.js";
import { LineContexts } from "../../src/server/line-contexts.js";
import { logViewContext } from "../../src/views/log.js";
import { CAMPAIGN, PlayerClient, startTestServer, type TestServer } from "./support.js";

let server: TestServer;

/** Each player's chores in turn until none is due: one player's (a seed) can make the other's due. */
async function everyChore(players: Iterable<PlayerClient>): Promise<void> {
  const all = [...players];
  for (let took = true; took;) {
    took = false;
    for (const player of all) if ((await player.takeChores()).length > 0) took = true;
  }
}
/**
 * A campaign of its own on a server of its own (the file's campaign has been played on by other players' secrets), and
 * a LineContexts over its store that counts the reads of events.
 */
async function ownCampaign() {
  const own = await startTestServer();
  onTestFinished(() => own.close());
  const store = own.engine.store;
  const counted = { reads: 0 };
  const contexts = new LineContexts(
    new Proxy(store, {
      get: (target, name) =>
        name === "readAll"
          ? (...args: Parameters<typeof store.readAll>) => (counted.reads++, target.readAll(...args))
          : Reflect.get(target, name, target),
    }),
  );
  const whole = async () => logViewContext((await store.readAll(CAMPAIGN)).map(toCurrent));
  const players = new Map(["concord", "horde"].map((player) => [player, new PlayerClient(own, player)]));
  return { own, store, contexts, counted, whole, players };
}

/** The players' chores, then the scripted commanders' next command, given and accepted; false when none is left. */
async function nextStep(served: TestServer, players: ReadonlyMap<string, PlayerClient>): Promise<boolean> {
  await everyChore(players.values());
  const command = nextDecision(await served.engine.state(CAMPAIGN));
  if (!command) return false;
  const { actor, ...rest } = command;
  expect((await players.get(actor)!.submit(rest)).statusCode).toBe(200);
  return true;
}

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
      if (!(await nextStep(server, players))) break;
      // Several requests at once: each gets the line now, and the events are folded once (a second fold would show).
      const asked = await Promise.all([1, 2, 3].map(() => contexts.now(CAMPAIGN)));
      const expected = await whole();
      for (const context of asked) expect(context).toEqual(expected);
    }
    expect((await contexts.now(CAMPAIGN)).state.seq).toBe((await server.engine.store.head(CAMPAIGN)).seq);
  });

  it("takes the events a caller just wrote instead of reading them, and reads what it was not given", async () => {
    const { own, store, contexts, counted, whole, players } = await ownCampaign();
    let folded = (await contexts.now(CAMPAIGN)).state.seq;
    let battles = 0;
    // Until a battle has been resolved (Ashfall's first come in turn 2), and at most six turns.
    for (let step = 0; battles === 0 && (await own.engine.state(CAMPAIGN)).turn <= 6; step++) {
      if (!(await nextStep(own, players))) break;
      // What the line gained since the context was last asked for: the chores' events and the command's.
      const written = await store.readAll(CAMPAIGN, folded + 1);
      // Every other step the caller holds only the last of the new events: the context reads the rest itself.
      const known = step % 2 === 0 ? written : written.slice(-1);
      const readsBefore = counted.reads;
      // The engine's state after them, given as well: taken as it is, but for a batch judged between its events.
      const live = await own.engine.state(CAMPAIGN);
      const context = await contexts.now(CAMPAIGN, known, live);
      folded = context.state.seq;
      expect(context).toEqual(await whole());
      // Judged between events: a batch that may kill a commander, or that starts a turn and so settles its battles.
      const judged = written.some((event) =>
        ["BattleResolved", "CommanderAppointed", "TurnStarted"].includes(event.type),
      );
      const given = step % 2 === 0 || written.length === 1;
      expect(context.state === live).toBe(given && !judged);
      expect(counted.reads - readsBefore).toBe(given ? 0 : 1);
      if (written.some((event) => event.type === "BattleResolved")) battles++;
    }
    expect(battles).toBeGreaterThan(0);
  });

  it("drafts the context after a batch being written on a copy, kept only when asked, never over a line moved since", async () => {
    const { own, store, contexts, counted, whole, players } = await ownCampaign();
    let folded = (await contexts.now(CAMPAIGN)).state.seq;
    let held: { keep(): void } | undefined;
    let kept = 0;
    let late = 0;
    for (let step = 0; step < 16; step++) {
      if (!(await nextStep(own, players))) break;
      const head = (await store.head(CAMPAIGN)).seq;
      const readsBefore = counted.reads;
      if (held) {
        // The line has moved past a draft not kept: the context reads it from the log; kept late, it changes nothing.
        expect(await contexts.now(CAMPAIGN)).toEqual(await whole());
        held.keep();
        held = undefined;
        expect(await contexts.now(CAMPAIGN)).toEqual(await whole());
        expect(counted.reads - readsBefore).toBe(1);
        folded = head;
        late++;
        continue;
      }
      const draft = await contexts.draft(CAMPAIGN, await store.readAll(CAMPAIGN, folded + 1));
      expect(draft?.context).toEqual(await whole());
      // The log's state, key order included, as a replay's: what GET /state serves from it.
      expect(JSON.stringify(draft!.context.state)).toBe(JSON.stringify((await whole()).state));
      // Every other draft is held until the line has moved on.
      if (kept > late) {
        held = draft;
        continue;
      }
      draft!.keep();
      expect(await contexts.now(CAMPAIGN)).toEqual(await whole());
      expect(counted.reads).toBe(readsBefore);
      folded = head;
      kept++;
    }
    expect([kept, late].every((count) => count >= 3)).toBe(true);
  });

  it("a draft kept after a read of the line failed leaves no failure behind, and the line is taken again", async () => {
    const { store, contexts, whole, players } = await ownCampaign();
    const folded = (await contexts.now(CAMPAIGN)).state.seq;
    await everyChore(players.values());
    const draft = await contexts.draft(CAMPAIGN, await store.readAll(CAMPAIGN, folded + 1));
    expect(draft?.context).toEqual(await whole());
    const head = store.head.bind(store);
    store.head = () => Promise.reject(new Error("the log could not be read"));
    await expect(contexts.now(CAMPAIGN)).rejects.toThrow("the log could not be read");
    store.head = head;
    draft!.keep();
    // Nothing asks for the line for a while: the process is not the one to meet the failure.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await contexts.now(CAMPAIGN)).toEqual(await whole());
  });
});
