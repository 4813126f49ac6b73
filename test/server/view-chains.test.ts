/**
 * The seats' view chains a server keeps between requests (src/server/view-chains.ts): the events one seat's command
 * wrote are taken by the other seats' chains at once, so that their next command reads nothing of the log for them,
 * and every head is the one a chain made afresh from the log gives.
 */
import { afterEach, describe, expect, it } from "vitest";
import { CAMPAIGN, PlayerClient, startTestServer, type TestServer } from "./support.js";
import type { WhileWriting } from "../../src/engine/engine.js";
import { ViewChains, type ChainsDraft } from "../../src/server/view-chains.js";

let server: TestServer | undefined;
afterEach(() => server?.close());

describe("view chains kept between requests", () => {
  it("take the events a seat's command wrote into the other seats' chains, read from the log no more, heads as from the log", async () => {
    server = await startTestServer();
    const { engine } = server;
    const chains = new ViewChains(engine);
    const start = (await engine.store.head(CAMPAIGN)).seq;
    for (const seat of ["concord", "horde", "host"]) await chains.at(CAMPAIGN, seat, start);

    // Concord's seed commitment, written as the server writes a command, then its chain taken past it.
    const concord = new PlayerClient(server, "concord");
    const { commands, expectedSeq } = await concord.prepare({ type: "CommitSeed" });
    const outcome = await engine.execute(CAMPAIGN, commands, { expectedSeq });
    if (!outcome.ok) throw new Error(outcome.refusal.message);
    const seq = outcome.events.at(-1)!.seq;
    await chains.at(CAMPAIGN, "concord", seq, outcome.events);

    const reads: Array<[string, number | undefined, number | undefined]> = [];
    const readAll = engine.store.readAll.bind(engine.store);
    engine.store.readAll = (stream, from, to) => {
      reads.push([stream, from, to]);
      return readAll(stream, from, to);
    };
    const horde = await chains.at(CAMPAIGN, "horde", seq);
    const host = await chains.at(CAMPAIGN, "host", seq);
    expect(reads).toEqual([]);
    engine.store.readAll = readAll;

    const fresh = new ViewChains(engine);
    expect(horde).toEqual(await fresh.at(CAMPAIGN, "horde", seq));
    expect(host).toEqual(await fresh.at(CAMPAIGN, "host", seq));
    expect(horde.head).not.toBe(host.head);
  });

  it("advance over a batch being written on copies, kept only when asked and never over a chain that moved meanwhile", async () => {
    server = await startTestServer();
    const { engine } = server;
    const seats = ["concord", "horde", "host"];
    const chains = new ViewChains(engine);
    const start = (await engine.store.head(CAMPAIGN)).seq;
    for (const seat of seats) await chains.at(CAMPAIGN, seat, start);
    const give = async (player: string, whileWriting?: WhileWriting) => {
      const { commands, expectedSeq } = await new PlayerClient(server!, player).prepare({ type: "CommitSeed" });
      const outcome = await engine.execute(CAMPAIGN, commands, {
        expectedSeq,
        ...(whileWriting ? { whileWriting } : {}),
      });
      if (!outcome.ok) throw new Error(outcome.refusal.message);
      return outcome.events.at(-1)!.seq;
    };
    let drafting: Promise<ChainsDraft> | undefined;
    const seq = await give("concord", ({ stored }) => void (drafting = chains.draft(CAMPAIGN, "concord", stored)));
    const draft = await drafting!;
    // Another batch after it, before the draft is kept.
    const next = await give("horde");
    const fresh = new ViewChains(engine);
    const heads = new Map<string, { seq: number; head: string }>();
    for (const seat of seats) heads.set(seat, await fresh.at(CAMPAIGN, seat, next));
    expect(draft.view).toEqual(await new ViewChains(engine).at(CAMPAIGN, "concord", seq));

    const reads: number[] = [];
    const readAll = engine.store.readAll.bind(engine.store);
    engine.store.readAll = (stream, from, to) => (reads.push(from ?? 1), readAll(stream, from, to));
    try {
      // Not kept yet: Concord's chain reads both batches from the log.
      expect(await chains.at(CAMPAIGN, "concord", next)).toEqual(heads.get("concord"));
      expect(reads).toEqual([start + 1]);
      draft.keep();
      // Kept for the chains still before the batch, which read only the next one; Concord's, past both, stays there.
      for (const seat of seats) expect(await chains.at(CAMPAIGN, seat, next)).toEqual(heads.get(seat));
      expect(reads).toEqual([start + 1, seq + 1, seq + 1]);
    } finally {
      engine.store.readAll = readAll;
    }
  });

  it("a chain whose read failed leaves no failure behind: another seat's command goes on, and its seat reads it again", async () => {
    server = await startTestServer();
    const { engine } = server;
    const chains = new ViewChains(engine);
    const start = (await engine.store.head(CAMPAIGN)).seq;
    for (const seat of ["concord", "horde"]) await chains.at(CAMPAIGN, seat, start);
    const give = async (player: string) => {
      const { commands, expectedSeq } = await new PlayerClient(server!, player).prepare({ type: "CommitSeed" });
      const outcome = await engine.execute(CAMPAIGN, commands, { expectedSeq });
      if (!outcome.ok) throw new Error(outcome.refusal.message);
      return outcome.events;
    };
    const first = (await give("concord")).at(-1)!.seq;
    const readAll = engine.store.readAll.bind(engine.store);
    engine.store.readAll = () => Promise.reject(new Error("the log could not be read"));
    await expect(chains.at(CAMPAIGN, "horde", first)).rejects.toThrow("the log could not be read");
    engine.store.readAll = readAll;
    // Horde's own command, given to Concord's chain with its events: they are lent to Horde's failed chain too.
    const written = await give("horde");
    const seq = written.at(-1)!.seq;
    expect(await chains.at(CAMPAIGN, "concord", seq, written)).toEqual(
      await new ViewChains(engine).at(CAMPAIGN, "concord", seq),
    );
    expect(await chains.at(CAMPAIGN, "horde", seq)).toEqual(await new ViewChains(engine).at(CAMPAIGN, "horde", seq));
  });
});
