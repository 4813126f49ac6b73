/**
 * A line's context snapshot (replays/context-snapshots.ts): a feed resumed a few events back and a line's first state
 * read fold only the events after it, to what the whole line folds to; one that the chain does not bear out is not used.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toCurrent, type StoredEvent } from "../../events/index.js";
import { stateAsSeen, stateContext } from "../../replays/as-seen.js";
import { ContextSnapshots } from "../../replays/context-snapshots.js";
import { SnapshotStore } from "../../replays/snapshots.js";
import { nextDecision } from "../../src/demo/play.js";
import { LiveCampaign } from "../../src/engine/live.js";
import type { EventStore } from "../../src/log/index.js";
import { LineContexts } from "../../src/server/line-contexts.js";
import { logViewContext } from "../../src/views/log.js";
import { eventsRead as eventsReadOf } from "../support/reads.js";
import {
  auth,
  CAMPAIGN,
  headSeq,
  listenOnLoopback,
  openFeed,
  PlayerClient,
  startTestServer,
  type TestServer,
} from "./support.js";

let server: TestServer;
let port: number;
let store: EventStore;
/** The seq of the line's context snapshot once play has passed one, a few events before the head. */
let snapshotSeq: number;
/** That snapshot as stored, put back in place by each test. */
let snapshot: string;
const snapshotKey = () => `${CAMPAIGN}$${String(snapshotSeq).padStart(12, "0")}`;

/** The line's snapshots thrown away, and this one put back (or another value under its key). */
async function onlySnapshot(value = snapshot): Promise<void> {
  await new SnapshotStore(store).clear(CAMPAIGN);
  await store.snapshots.put([{ key: snapshotKey(), value }]);
}

/** The events the store reads, and where each read starts, while `during` runs. */
const eventsRead = <T>(during: () => Promise<T>) => eventsReadOf(store, during);

const wholeContext = async () => logViewContext((await store.readAll(CAMPAIGN)).map(toCurrent));
const keptSeq = async () => (await new ContextSnapshots(store).latest(CAMPAIGN, await headSeq(server)))?.seq;

beforeAll(async () => {
  server = await startTestServer();
  port = await listenOnLoopback(server);
  store = server.engine.store;
  const players = new Map(["concord", "horde"].map((player) => [player, new PlayerClient(server, player)]));
  // The demo's commanders play (each command's context kept by the server) until a phase has ended, and then on
  // until the head is a few events past the snapshot that keeps it.
  for (let step = 0; step < 80; step++) {
    // Each player's chores in turn until none is due: one player's (a seed) can make the other's due.
    for (let took = true; took;) {
      took = false;
      for (const player of players.values()) if ((await player.takeChores()).length > 0) took = true;
    }
    const kept = await keptSeq();
    if (kept !== undefined && (await headSeq(server)) - kept >= 3) break;
    const command = nextDecision(await server.engine.state(CAMPAIGN));
    if (!command) break;
    const { actor, ...rest } = command;
    const answer = await players.get(actor)!.submit(rest);
    expect(answer.statusCode, answer.body).toBe(200);
  }
  snapshotSeq = (await keptSeq())!;
  expect(snapshotSeq).toBeGreaterThan(0);
  expect(await headSeq(server)).toBeGreaterThan(snapshotSeq);
  snapshot = (await store.snapshots.get(snapshotKey()))!;
});
afterAll(() => server.close());

/** The state at `head` of a live state made now, as a restarted server's engine makes it on its first command. */
async function liveState(head: number) {
  const live = new LiveCampaign(store, CAMPAIGN);
  try {
    return await live.at(head);
  } finally {
    live.close();
  }
}

/** The feeds the server has open (its metrics, read with the operator's token). */
async function openFeeds(): Promise<number> {
  const answer = await server.app.inject({ method: "GET", url: "/metrics", headers: auth(server.operator) });
  return Number(/^epicwar_open_feeds (\d+)$/m.exec(answer.body)![1]);
}

/** The events of a feed resumed after `after`, once it has sent every one up to the head, and what its opening read. */
async function resume(after: number) {
  const head = await headSeq(server);
  const { result, read, from } = await eventsRead(async () => {
    const feed = openFeed(port, {
      authorization: `Bearer ${server.tokens["concord"]}`,
      "last-event-id": String(after),
    });
    const events = await feed.waitFor(head - after);
    feed.close();
    return events;
  });
  // Its line is followed no more once the server has seen it go: the next feed opens the line again.
  for (let wait = 0; wait < 200 && (await openFeeds()) > 0; wait++) await new Promise((done) => setTimeout(done, 10));
  expect(await openFeeds()).toBe(0);
  return { events: result, read, from };
}

describe("a line's context snapshot", () => {
  it("lets a feed resumed a few events back read only the events after the snapshot, and send what the whole line gives", async () => {
    const head = await headSeq(server);
    await onlySnapshot();
    const after = Math.max(snapshotSeq, head - 5);
    const resumed = await resume(after);
    expect(resumed.events.map((event) => event.id)).toEqual(
      Array.from({ length: head - after }, (_, i) => after + 1 + i),
    );
    expect(Math.min(...resumed.from)).toBe(snapshotSeq + 1);
    expect(resumed.read).toBe(head - snapshotSeq);

    // Without it the line is folded from its first event: the same views, from a read of the whole line.
    await new SnapshotStore(store).clear(CAMPAIGN);
    const whole = await resume(after);
    expect(whole.read).toBe(head);
    expect(whole.events).toEqual(resumed.events);
    // That fold keeps the snapshot again for the next.
    expect(await keptSeq()).toBe(head);
  });

  it("starts a line's first state read from it, to the context of the whole line", async () => {
    const head = await headSeq(server);
    await onlySnapshot();
    const { result, read, from } = await eventsRead(() => new LineContexts(store).now(CAMPAIGN));
    expect(from).toEqual([snapshotSeq + 1]);
    expect(read).toBe(head - snapshotSeq);
    expect(result).toEqual(await wholeContext());
  });

  it("starts the library's state read of a line now from it, to the view the whole line gives", async () => {
    const head = await headSeq(server);
    for (const seat of ["host", "concord"]) {
      await onlySnapshot();
      const { result, read, from } = await eventsRead(() => stateContext(store, CAMPAIGN, seat));
      expect(from).toEqual([snapshotSeq + 1]);
      expect(read).toBe(head - snapshotSeq);
      expect(stateAsSeen(result, seat, {})).toEqual(stateAsSeen(await wholeContext(), seat, {}));
    }
  });

  it("starts the engine's live state from it, so that the first command after a restart folds only the events after it", async () => {
    const head = await headSeq(server);
    await onlySnapshot();
    const whole = await server.engine.state(CAMPAIGN);
    const { result, read, from } = await eventsRead(() => liveState(head));
    expect(from).toEqual([snapshotSeq + 1]);
    expect(read).toBe(head - snapshotSeq);
    expect(result).toEqual(whole);

    // Without it, the whole line is read and folded, to the same state.
    await new SnapshotStore(store).clear(CAMPAIGN);
    const folded = await eventsRead(() => liveState(head));
    expect(folded.read).toBe(head);
    expect(folded.result).toEqual(whole);
  });

  it("is not used, and is deleted and kept again, when it is stale, its body edited, or its hash not the line's", async () => {
    const head = await headSeq(server);
    const contexts = new ContextSnapshots(store);
    const key = snapshotKey();
    const newline = snapshot.indexOf("\n");
    const [headerLine, body] = [snapshot.slice(0, newline), snapshot.slice(newline + 1)];
    const header = JSON.parse(headerLine) as Record<string, unknown>;
    const turnEdited = body.replace(/"turn":(\d+)/, (_, turn: string) => `"turn":${Number(turn) + 1}`);
    expect(turnEdited).not.toBe(body);
    const otherEvent: StoredEvent = (await store.eventAt(CAMPAIGN, snapshotSeq - 1))!;
    const tampered = [
      { why: "stale", value: `${JSON.stringify({ ...header, v: -1 })}\n${body}` },
      { why: "forged", value: `${headerLine}\n${turnEdited}` },
      { why: "forged", value: `${JSON.stringify({ ...header, hash: otherEvent.hash })}\n${body}` },
      { why: "unreadable", value: "not a snapshot" },
    ] as const;
    for (const { why, value } of tampered) {
      await onlySnapshot(value);
      const before = contexts.rejected[why];
      expect(await contexts.latest(CAMPAIGN, head)).toBeUndefined();
      expect(contexts.rejected[why]).toBe(before + 1);
      expect(await store.snapshots.get(key)).toBeUndefined();

      // A line first asked about with it in place folds from its first event, to the whole line's context.
      await onlySnapshot(value);
      const { result, read } = await eventsRead(() => new LineContexts(store).now(CAMPAIGN));
      expect(read).toBe(head);
      expect(result).toEqual(await wholeContext());
    }
    // Deleted, and kept again as the line was folded (its last phase end is before the head: kept at the head).
    expect((await contexts.latest(CAMPAIGN, head))?.seq).toBe(head);
  });
});
