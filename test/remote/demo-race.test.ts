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
import { tempDir } from "../support/tmp.js";
import { serveAshfall } from "./served-ashfall.js";

/**
 * One battle's VPs are worth the whole CVP target (B3's table, S3): the campaign is decided by its first battle, as in
 * the scale-out soak, with no battle kit (whose scenario decisions would come before the activation).
 */
const DECIDED_BY_ONE_BATTLE = { vpTable: [{ upTo: 100_000, vp: 300 }] };
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

describe("the demo's commanders on a server, the other seat playing between their chores and their decision", () => {
  it("a reveal that falls due after the chores were taken is revealed, and the campaign plays on", async () => {
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
        await concord.takeChores();
        const decision = seatDecision(await concord.state(), "concord");
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
      expect(end.status === "finished" || end.turn > LAST_TURN, `${end.status} in turn ${end.turn}`).toBe(true);
    } finally {
      stop.abort();
      await concordPlaying?.catch(() => {});
      await served.close();
    }
  }, 120_000);
});
