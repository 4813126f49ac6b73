/**
 * The demo's commanders at a server seat while the other seat plays at its own pace: whatever the other side appends
 * between the commanders' chores and their decision, they decide only on a state whose chores they have taken, so
 * that a reveal falling due in between (the other side's army attacking one of theirs already activated) is revealed,
 * never left owed behind an activation the engine refuses (T5).
 */
import { describe, expect, it } from "vitest";
import { commandSeat } from "../../src/cli/commands/demo-remote.js";
import { RemoteSeat } from "../../src/cli/remote.js";
import { fetchTransport, ServerConnection, type Transport } from "../../src/client/server.js";
import { seatDecision } from "../../src/demo/seat.js";
import type { CampaignView } from "../../src/views/view.js";
import { tempDir } from "../support/tmp.js";
import { serveAshfall } from "./served-ashfall.js";

/**
 * One battle's VPs are worth the whole CVP target (B3's table, S3): the campaign is decided by its first battle, as in
 * the scale-out soak, with no battle kit (whose scenario decisions would come before the activation).
 */
const DECIDED_BY_ONE_BATTLE = { vpTable: [{ upTo: 100_000, vp: 300 }] };
/** How many campaigns are played, at most, for one in which the window is met. */
const MOST_CAMPAIGNS = 5;
/** How many decisions the other side's commanders give in one go, at most. */
const MOST_STEPS = 100;
/** The turn the Horde's commanders play up to, at most, when the campaign is not over before it. */
const LAST_TURN = 3;

async function tokenOf(url: string, invite: string): Promise<string> {
  const answer = await fetch(`${url}/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ invite }),
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { token: string }).token;
}

/** The events of a campaign, their data as the checks below read it. */
type Logged = { type: string; seq: number; data: { turn: number; army?: string; player?: string; defender?: string } };

/**
 * The battles of the log fought against an army of the Horde's activated before it was attacked: the window in which a
 * reveal of the Horde's falls due on the Concord's move.
 */
function attacksOnActivatedHorde(events: readonly Logged[]): Logged[] {
  const activatedBefore = (battle: Logged) =>
    events.some(
      (e) =>
        e.type === "ArmyActivated" &&
        e.data.player === "horde" &&
        e.data.army === battle.data.defender &&
        e.data.turn === battle.data.turn &&
        e.seq < battle.seq,
    );
  return events.filter((e) => e.type === "BattleStarted" && activatedBefore(e));
}

/**
 * One campaign on a server of its own: the Horde's commanders play it through commandSeat, the Concord's between the
 * Horde's chores and its decision. Its end as the Horde saw it, and its log.
 */
async function playWithConcordBetween(): Promise<{ end: CampaignView; events: Logged[] }> {
  const served = await serveAshfall({ options: DECIDED_BY_ONE_BATTLE });
  const { url, campaign, invites } = served;
  const seatAt = async (player: string, transport: Transport = fetchTransport) => {
    const connection = new ServerConnection(url, await tokenOf(url, invites[player]!), transport);
    return RemoteSeat.seated(connection, await tempDir(`epicwar-${player}-`), { campaign });
  };
  const concord = await (await seatAt("concord")).table();
  // The Concord plays right after each time the Horde's commanders have taken their chores before deciding (the
  // chores a command of theirs made due are taken with its events told), and the Horde's next read of the state waits
  // until it is done: all the Concord does falls between the Horde's chores and its decision.
  let concordPlaying: Promise<void> | undefined;
  const playConcord = async () => {
    for (let step = 0; step < MOST_STEPS; step++) {
      const decision = seatDecision(await concord.takeChores(), "concord");
      if (!decision) return;
      const outcome = await concord.submit(decision);
      if (!outcome.ok) throw new Error(`the Concord's ${decision.type} was refused: ${outcome.refusal.message}`);
    }
  };
  const stateRead = /\/campaigns\/[^/]+\/state$/;
  const hordeTransport: Transport = async (request) => {
    if (request.method === "GET" && stateRead.test(new URL(request.url).pathname)) await concordPlaying;
    return fetchTransport(request);
  };
  const horde = await seatAt("horde", hordeTransport);
  const table = await horde.table();
  const takeChores = table.takeChores.bind(table);
  table.takeChores = async (onEvents) => {
    const done = await takeChores(onEvents);
    if (!onEvents) concordPlaying ??= playConcord().finally(() => (concordPlaying = undefined));
    return done;
  };
  const stop = new AbortController();
  try {
    const end = await commandSeat(table, horde, await table.state(), stop.signal, (events) => {
      if (events.some((event) => event.type === "TurnStarted" && (event.data as { turn: number }).turn > LAST_TURN))
        stop.abort();
    });
    await concordPlaying;
    const events = (await served.engine.store.readAll(campaign)).map((event) => ({
      ...event,
      data: event.data as Logged["data"],
    }));
    return { end, events };
  } finally {
    stop.abort();
    await concordPlaying?.catch(() => {});
    await served.close();
  }
}

describe("the demo's commanders on a server, the other seat playing between their chores and their decision", () => {
  it("a reveal that falls due after the chores were taken is revealed, and the campaign plays on", async () => {
    // The dice (the server's seed among them) decide who moves first and who attacks whom: campaigns are played until
    // one has met the window, the Concord attacking an army the Horde had activated.
    for (let played = 1; ; played++) {
      const { end, events } = await playWithConcordBetween();
      expect(end.status === "finished" || end.turn > LAST_TURN, `${end.status} in turn ${end.turn}`).toBe(true);
      const attacks = attacksOnActivatedHorde(events);
      for (const attack of attacks) {
        const revealed = events.some(
          (e) => e.type === "OrderRevealed" && e.data.army === attack.data.defender && e.data.turn === attack.data.turn,
        );
        expect(revealed, `${attack.data.defender}'s order revealed`).toBe(true);
      }
      if (attacks.length > 0) break;
      expect(played, "campaigns played without the window met").toBeLessThan(MOST_CAMPAIGNS);
    }
  }, 120_000);
});
